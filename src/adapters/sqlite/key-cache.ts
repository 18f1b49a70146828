/**
 * Key lookups of the SQLite store, remembered only while nothing else has written the file: every
 * lookup first reads `PRAGMA data_version`, which changes as soon as another connection (the
 * `toolrun keys` CLI, in another process) commits, and then forgets everything. Changes made
 * through this connection (revoke, rotate, set-plan) forget everything themselves. So a revoked
 * or rotated key stops working at once, as without the cache; only found keys are kept (unknown
 * secrets are not, so random guesses cannot fill memory), at most `max` of them.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";

export interface KeyCache {
  get(secretHash: string): ApiKeyRecord | undefined;
  set(secretHash: string, record: ApiKeyRecord): void;
  clear(): void;
}

export function createKeyCache(dataVersion: () => number, max = 10_000): KeyCache {
  const records = new Map<string, ApiKeyRecord>();
  let version = Number.NaN;
  return {
    get(secretHash) {
      const current = dataVersion();
      if (current !== version) {
        records.clear();
        version = current;
        return undefined;
      }
      return records.get(secretHash);
    },
    set(secretHash, record) {
      if (records.size >= max) records.clear();
      records.set(secretHash, record);
    },
    clear() {
      records.clear();
    },
  };
}
