/**
 * Key lookups of the SQLite store, remembered only while nothing else has written the file:
 * `PRAGMA data_version` changes as soon as another connection (the `toolrun keys` CLI, in another
 * process) commits, and then everything is forgotten. Changes made through this connection
 * (revoke, rotate, set-plan) forget everything themselves. Only found keys are kept (unknown
 * secrets are not, so random guesses cannot fill memory), at most `max` of them.
 *
 * The version is read once per turn of the event loop, by the first lookup of the turn, not at
 * every lookup: outside a transaction that read takes and releases SQLite's read lock (two system
 * calls), and under load one turn serves the requests of many connections. The read schedules the
 * next turn's (`setImmediate`), and a loop with an immediate pending does not wait for I/O, so a
 * change committed by another process is seen by every request read in a later turn: a request
 * sent after `toolrun keys revoke` returned is refused. Only requests read in the same turn as a
 * lookup made before the change can meet the key as it was: the rest of a request already
 * arriving, one pipelined behind it, or one arriving in the microseconds between.
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
  let readThisTurn = false;
  const nextTurn = () => {
    readThisTurn = false;
  };
  return {
    get(secretHash) {
      if (!readThisTurn) {
        readThisTurn = true;
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
