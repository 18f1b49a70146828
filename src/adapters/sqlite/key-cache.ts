/**
 * Key lookups of the SQLite store, remembered only while nothing else has written the file.
 * `PRAGMA data_version` changes as soon as another connection (the `toolrun keys` CLI, in another
 * process) commits; it is read at the first lookup of each turn of the event loop, and every
 * lookup of that turn uses it (a new turn begins after the check phase, where `setImmediate`
 * forgets it). Requests are read from their sockets in the poll phase, so a request sent after
 * another process's commit reaches its first lookup in a turn that reads the version after that
 * commit. Changes made through this connection (revoke, rotate, set-plan) forget everything
 * themselves. So a revoked or rotated key stops working at once, as without the cache; only found
 * keys are kept (unknown secrets are not, so random guesses cannot fill memory), at most `max`.
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
  let checkedThisTurn = false;
  const nextTurn = () => {
    checkedThisTurn = false;
  };
  return {
    get(secretHash) {
      if (!checkedThisTurn) {
        checkedThisTurn = true;
        setImmediate(nextTurn);
        const current = dataVersion();
        if (current !== version) {
          records.clear();
          version = current;
          return undefined;
        }
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
