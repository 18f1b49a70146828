/**
 * API keys: `{prefix}_{secret}` with a 32-character base62 secret from a CSPRNG. Only the SHA-256
 * of the whole key is stored, beside a short non-secret display prefix.
 */
import { hash, randomFillSync } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 32;
export const DISPLAY_SECRET_CHARS = 4;

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

export function newGrantId(): string {
  return `grt_${randomBase62(16)}`;
}

export function newAccountId(): string {
  return `acc_${randomBase62(16)}`;
}

export function keyPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}_[0-9A-Za-z]{${SECRET_LENGTH}}$`);
}
