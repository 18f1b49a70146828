/**
 * API keys: `{prefix}_{secret}` with a 32-character base62 secret from a CSPRNG. Only the SHA-256
 * of the whole key is stored, beside a short non-secret display prefix.
 */
import { createHash, randomBytes } from "node:crypto";
import type { ApiKeyRecord, KeyStore } from "../ports/store.ts";
import { ApiError } from "./errors.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 32;
const DISPLAY_SECRET_CHARS = 4;

/** `length` base62 characters from the CSPRNG. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length - out.length + 8)) {
      // 62 * 4 = 248: rejecting bytes >= 248 keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
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

const BEARER_HINT = "Provide your API key in the header Authorization: Bearer <API_KEY>.";

export function invalidApiKey(reason: string): ApiError {
  return new ApiError("invalid_api_key", `${reason} ${BEARER_HINT}`, {
    headers: { "www-authenticate": 'Bearer realm="toolrun"' },
  });
}

/** Turns an Authorization header into the active key it names, or throws 401 `invalid_api_key`. */
export async function authenticate(
  keys: Pick<KeyStore, "findKeyByHash">,
  pattern: RegExp,
  authorization: string | undefined,
): Promise<ApiKeyRecord> {
  if (authorization === undefined || authorization.trim() === "") throw invalidApiKey("No API key was sent.");
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) throw invalidApiKey("The Authorization header does not use the Bearer scheme.");
  const key = match[1];
  if (!pattern.test(key)) throw invalidApiKey("The API key is malformed.");
  const record = await keys.findKeyByHash(hashKey(key));
  if (record === null) throw invalidApiKey("The API key is not valid.");
  if (record.revokedAt !== null) throw invalidApiKey("The API key has been revoked.");
  return record;
}
