/**
 * API keys: `{prefix}_{secret}` with a 32-character base62 secret from a CSPRNG. Only the SHA-256
 * of the whole key is stored, beside a short non-secret display prefix.
 */
import { hash, randomFillSync } from "node:crypto";
import type { ApiKeyRecord } from "../../ports/store.ts";
import { ApiError } from "../contract/errors.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 32;
const DISPLAY_SECRET_CHARS = 4;

/**
 * CSPRNG bytes fetched 4 KiB at a time: one call per ~140 request ids instead of one (and a new
 * buffer) per id, as Node does for randomUUID; every byte is used once and never leaves here.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** `length` base62 characters from the CSPRNG. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    if (poolOffset === pool.length) {
      randomFillSync(pool);
      poolOffset = 0;
    }
    const byte = pool[poolOffset++] as number;
    // 62 * 4 = 248: rejecting bytes >= 248 keeps every character equally likely.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export function hashKey(key: string): string {
  // The one-shot hash makes no Hash object per request (docs/benchmarks.md, "Code kept for speed").
  return hash("sha256", key, "hex");
}

export interface IssuedKey {
  readonly key: string;
  readonly secretHash: string;
  readonly displayPrefix: string;
}

export function issueKey(prefix: string): IssuedKey {
  const key = `${prefix}_${randomBase62(SECRET_LENGTH)}`;
  return {
    key,
    secretHash: hashKey(key),
    displayPrefix: key.slice(0, prefix.length + 1 + DISPLAY_SECRET_CHARS),
  };
}

export function newKeyId(): string {
  return `key_${randomBase62(16)}`;
}

export function keyPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}_[0-9A-Za-z]{${SECRET_LENGTH}}$`);
}

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
