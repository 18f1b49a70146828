/**
 * How the front door turns a bearer credential into a key: a list of verifiers, each of one kind
 * of credential (an API key, an OAuth access token), asked in order. A verifier answers with a
 * verification, never a throw: the key, or a refusal with its problem code and detail; or null
 * when the credential is not of its kind, and the next one is asked. The door alone turns a
 * refusal into the 401 and builds its `WWW-Authenticate` challenge, once, for every verifier.
 */
import type { ApiKeyRecord, KeyStore } from "../../ports/store.ts";
import { hashKey } from "../kernel/key-format.ts";
import { BEARER_HINT, hasExpired, previousSecretWorks } from "./keys.ts";

export interface Refusal {
  readonly ok: false;
  /** The problem code the door answers with (401). */
  readonly code: "invalid_api_key";
  /** What was wrong with the credential, and how to send a good one. */
  readonly detail: string;
}

export type Verification = { readonly ok: true; readonly key: ApiKeyRecord } | Refusal;

export interface CredentialVerifier {
  /** The verdict on a bearer credential, or null when it is not of this verifier's kind. */
  verify(credential: string, now: Date): Promise<Verification | null>;
}

/**
 * The `WWW-Authenticate` value of a 401: `refusal` is the problem's detail when a bearer
 * credential was sent and refused, null when none was sent.
 */
export type Challenge = (refusal: string | null) => string;

/** The credentials an entrance accepts and how it challenges a client that has none. */
export interface Credentials {
  readonly verifiers: readonly CredentialVerifier[];
  readonly challenge: Challenge;
}

export function refusal(reason: string, hint: string): Refusal {
  return { ok: false, code: "invalid_api_key", detail: `${reason} ${hint}` };
}

/**
 * API keys: every credential that starts with the key prefix is one, and is refused unless it is
 * well formed and names an active, unexpired key. A secret a rotation replaced names its key until
 * the rotation's grace ends.
 */
export function apiKeyVerifier(
  keys: Pick<KeyStore, "findKeyByHash">,
  prefix: string,
  pattern: RegExp,
): CredentialVerifier {
  const keyLike = `${prefix}_`;
  const refuse = (reason: string) => refusal(reason, BEARER_HINT);
  return {
    async verify(credential, now) {
      if (!credential.startsWith(keyLike)) return null;
      if (!pattern.test(credential)) return refuse("The API key is malformed.");
      const record = await keys.findKeyByHash(hashKey(credential));
      if (record === null) return refuse("The API key is not valid.");
      if (record.revokedAt !== null) return refuse("The API key has been revoked.");
      if (hasExpired(record, now)) return refuse(`The API key expired at ${record.expiresAt}.`);
      if (record.matched === "previous" && !previousSecretWorks(record, now))
        return refuse(
          `The API key was rotated; this old secret stopped working at ${record.previousSecretExpiresAt}. Use the key's new secret.`,
        );
      return { ok: true, key: record };
    },
  };
}
