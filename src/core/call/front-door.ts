/**
 * The front door every keyed request passes, over HTTP and MCP alike, in the order the API
 * documents (docs/architecture.md): the schema is there (503 `api_unconfigured`), the key (401),
 * the route's own checks that must not cost a slot (an unknown slug's 404), then the rate-limit
 * slot(s) (429) whose headers the answer carries. Transports call it; they never reorder or repeat
 * these steps. The key comes from the credential through the entrance's verifiers
 * (credentials.ts): API keys alone unless the entrance is given others, as the MCP endpoint is
 * with OAuth on. The admin API has its own entrance (core/admin/entrance.ts), which asks this
 * door's readiness.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import { planOf } from "../kernel/credits.ts";
import { ApiError } from "../kernel/errors.ts";
import { apiKeyVerifier, type Credentials, refusal, type Verification } from "./credentials.ts";
import type { CoreDeps } from "./deps.ts";
import { BEARER_HINT, bearerCredential, keyChallenge } from "./keys.ts";
import { takeSlot } from "./rate-limit.ts";
import { createReadiness, type Readiness } from "./readiness.ts";

export interface Admitted {
  readonly key: ApiKeyRecord;
  /** The RateLimit headers of the last slot taken. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface FrontDoor {
  /** Readiness alone: 503 `api_unconfigured` until the store has its schema. */
  ready(): Promise<void>;
  /** Readiness, then the key: a request that fails here has cost nothing, not even a slot. */
  authenticate(authorization: string | undefined): Promise<ApiKeyRecord>;
  /** Takes `count` slots for a key (one per JSON-RPC message on MCP) in one step, all or none; throws 429 past the limit. */
  takeSlots(key: ApiKeyRecord, count?: number): Promise<Readonly<Record<string, string>>>;
  /** The whole door: authenticate, run the route's no-slot checks, take one slot. */
  admit(authorization: string | undefined, beforeSlot?: (key: ApiKeyRecord) => void): Promise<Admitted>;
}

export interface FrontDoorOptions {
  /** Shared by the doors of one app, so the schema's arrival is learned once (default: a new one). */
  readonly readiness?: Readiness;
  /** What this entrance accepts (default: API keys, with the keys' challenge). */
  readonly credentials?: Credentials;
}

/** API keys alone, as every entrance accepts them. */
export function apiKeyCredentials(deps: CoreDeps): Credentials {
  return {
    verifiers: [apiKeyVerifier(deps.store, deps.settings.keyPrefix, deps.keyPattern)],
    challenge: keyChallenge,
  };
}

export function createFrontDoor(deps: CoreDeps, options: FrontDoorOptions = {}): FrontDoor {
  const ready = options.readiness ?? createReadiness(deps.store, () => deps.now().getTime());
  const { verifiers, challenge } = options.credentials ?? apiKeyCredentials(deps);

  /** The verdict of the first verifier that knows the credential's kind; a bearer none knows is malformed. */
  async function verify(credential: string): Promise<Verification> {
    const now = deps.now();
    for (const verifier of verifiers) {
      const verdict = await verifier.verify(credential, now);
      if (verdict !== null) return verdict;
    }
    return refusal("The API key is malformed.", BEARER_HINT);
  }

  const door: FrontDoor = {
    ready: () => ready.check(),
    async authenticate(authorization) {
      await ready.check();
      const credential = bearerCredential(authorization);
      const verdict =
        credential !== undefined
          ? await verify(credential)
          : refusal(
              authorization === undefined || authorization.trim() === ""
                ? "No API key was sent."
                : "The Authorization header does not use the Bearer scheme.",
              BEARER_HINT,
            );
      if (verdict.ok) return verdict.key;
      throw new ApiError(verdict.code, verdict.detail, {
        headers: { "www-authenticate": challenge(credential === undefined ? null : verdict.detail) },
      });
    },
    async takeSlots(key, count = 1) {
      const rpm = planOf(key, deps.settings).rpm;
      return (await takeSlot(deps.limiter, key.accountId, rpm, deps.now(), count)).headers;
    },
    async admit(authorization, beforeSlot) {
      const key = await door.authenticate(authorization);
      beforeSlot?.(key);
      return { key, headers: await door.takeSlots(key) };
    },
  };
  return door;
}
