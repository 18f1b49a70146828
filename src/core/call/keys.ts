/**
 * The API key a request names: the Bearer credential of its Authorization header, checked against
 * the store (active, unexpired, or a rotated secret still in its grace), or 401 `invalid_api_key`
 * saying which of those it is not.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import { ApiError } from "../kernel/errors.ts";

export const BEARER_HINT = "Provide your API key in the header Authorization: Bearer <API_KEY>.";

/**
 * The challenge of a 401 for keys, after RFC 6750 section 3.1: no error code when no bearer token
 * came, `error="invalid_token"` with the detail as `error_description` when one did (`refusal`),
 * so a client that shows only the header still learns what is wrong with the key. There is no
 * `resource_metadata` (RFC 9728): it exists to point at an OAuth authorization server, and keys
 * are not issued by one.
 */
export function keyChallenge(refusal: string | null): string {
  return refusal === null
    ? 'Bearer realm="toolrun"'
    : `Bearer realm="toolrun", error="invalid_token", error_description="${refusal}"`;
}

/** 401 `invalid_api_key`; `tokenSent` when a bearer credential came and was refused. */
export function invalidApiKey(reason: string, tokenSent: boolean): ApiError {
  const detail = `${reason} ${BEARER_HINT}`;
  return new ApiError("invalid_api_key", detail, {
    headers: { "www-authenticate": keyChallenge(tokenSent ? detail : null) },
  });
}

/** The credential of an Authorization header in the Bearer scheme, whatever its form; else undefined. */
export function bearerCredential(authorization: string | undefined): string | undefined {
  return /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")?.[1];
}

/** The bearer token of an Authorization header, or throws 401 `invalid_api_key`. */
export function bearerToken(authorization: string | undefined, pattern: RegExp): string {
  if (authorization === undefined || authorization.trim() === "")
    throw invalidApiKey("No API key was sent.", false);
  const token = bearerCredential(authorization);
  if (token === undefined)
    throw invalidApiKey("The Authorization header does not use the Bearer scheme.", false);
  if (!pattern.test(token)) throw invalidApiKey("The API key is malformed.", true);
  return token;
}

/** True once the key's expiry has come. */
export function hasExpired(record: Pick<ApiKeyRecord, "expiresAt">, now: Date): boolean {
  return record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime();
}

/**
 * True while the secret the key's last rotation replaced still works: the rotation gave it a grace
 * that has not ended at `now` (a revocation ends it too; the key's own expiry is apart).
 */
export function previousSecretWorks(
  record: Pick<ApiKeyRecord, "previousSecretExpiresAt" | "revokedAt">,
  now: Date,
): boolean {
  return (
    record.revokedAt === null &&
    record.previousSecretExpiresAt !== null &&
    Date.parse(record.previousSecretExpiresAt) > now.getTime()
  );
}
