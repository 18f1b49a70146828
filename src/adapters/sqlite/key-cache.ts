/**
 * Key lookups of the SQLite store, remembered only while nothing else has written the file:
 * `PRAGMA data_version` changes as soon as another connection (the `toolrun keys` CLI, in another
 * process) commits, and then everything is forgotten. Changes made through this connection
 * (revoke, rotate, set-plan) forget everything themselves. Only found keys are kept (unknown
 * secrets are not, so random guesses cannot fill memory), at most `max` of them.
 *
 * The version is read once per turn of the event loop, by the first lookup of the turn, not at
 * every lookup: outside a transaction that read takes and releases SQLite's read lock (two system
 * calls), and under load one turn serves the requests of many connections. A turn that read it
 * does not wait for I/O before the next turn reads it again (the pending `setImmediate` keeps the
 * loop from blocking), so a request whose first bytes arrive after another process's change
 * commits is looked up against that change: a revoked key's next request is refused. Only bytes
 * read in the same turn can miss it: the rest of a request already arriving, or a request
 * pipelined behind one.
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
