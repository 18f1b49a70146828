/**
 * The front door every keyed request passes, over HTTP and MCP alike, in the order the interface
 * fixes: the schema is there (503 `api_unconfigured`), the key (401), the route's own checks that
 * must not cost a slot (an unknown slug's 404), then the rate-limit slot(s) (429) whose headers
 * the answer carries. Transports call it; they never reorder or repeat these steps. The admin API
 * has its own entrance (core/admin/entrance.ts), which asks this door's readiness.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import { planOf } from "../kernel/credits.ts";
import type { CoreDeps } from "./deps.ts";
import { authenticate } from "./keys.ts";
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

export function createFrontDoor(deps: CoreDeps, readiness?: Readiness): FrontDoor {
  const ready = readiness ?? createReadiness(deps.store, () => deps.now().getTime());
  const door: FrontDoor = {
    ready: () => ready.check(),
    async authenticate(authorization) {
      await ready.check();
      return authenticate(deps.store, deps.keyPattern, authorization, deps.now());
    },
    async takeSlots(key, count = 1) {
      const rpm = planOf(key, deps.settings).rpm;
      return (await takeSlot(deps.limiter, key.id, rpm, deps.now(), count)).headers;
    },
    async admit(authorization, beforeSlot) {
      const key = await door.authenticate(authorization);
      beforeSlot?.(key);
      return { key, headers: await door.takeSlots(key) };
    },
  };
  return door;
}
