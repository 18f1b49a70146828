/**
 * How a SQLite store learns that keys changed elsewhere (KeyChanges, for the key cache of
 * adapters/key-cache.ts): `PRAGMA data_version` moves as soon as another connection (the
 * `toolrun keys` CLI, in another process) commits to the file.
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
import type { KeyChanges } from "../key-cache.ts";

export function createKeyChanges(dataVersion: () => number): KeyChanges {
  let version = 0;
  let readThisTurn = false;
  const nextTurn = () => {
    readThisTurn = false;
  };
  return {
    version() {
      if (!readThisTurn) {
        readThisTurn = true;
        setImmediate(nextTurn);
        version = dataVersion();
      }
      return version;
    },
    async close() {},
  };
}
