/**
 * Group commit for the SQLite ledger: writes queued in the same turn of the event loop run one
 * after another inside one IMMEDIATE transaction, and every caller's promise settles after that
 * transaction commits (or rejects with the commit's error, when nothing of the batch was kept).
 * Exactness is the same as one transaction per write, since each write still sees every write
 * queued before it; under load, many calls share one commit (and its WAL pages) instead of paying
 * one each.
 *
 * A write that throws must undo only itself. Writes rarely throw, so the batch runs without
 * savepoints (two statements less per write); when one does throw, the whole transaction is
 * rolled back and the batch runs again one transaction per write, so the failing write is
 * rejected alone and the others are kept. Writes are closures over the database and pure
 * computations only, so running one again after a rollback is the same as running it once. When
 * the failure is the database's own (locked by another process past the busy timeout, disk full),
 * every write would meet it again, so the whole batch is rejected at once instead.
 */
import type { DatabaseSync } from "node:sqlite";
import { isDatabaseUnavailable } from "./errors.ts";

export type WriteQueue = <T>(work: () => T) => Promise<T>;

interface Queued {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export function createWriteQueue(db: DatabaseSync): WriteQueue {
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = () => {
    if (db.isTransaction) db.exec("ROLLBACK");
  };
  let queue: Queued[] = [];
  let scheduled = false;

  /** Runs the writes in one transaction; throws (keeping nothing) if any write or the commit does. */
  const runTogether = (batch: readonly Queued[]): unknown[] => {
    begin.run();
    try {
      const values = batch.map((item) => item.work());
      commit.run();
      return values;
    } catch (error) {
      rollback();
      throw error;
    }
  };

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    let values: unknown[];
    try {
      values = runTogether(batch);
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) for (const item of batch) item.reject(error);
      else for (const item of batch) runAlone(item);
      return;
    }
    for (const [i, item] of batch.entries()) item.resolve(values[i]);
  };

  const runAlone = (item: Queued) => {
    try {
      const [value] = runTogether([item]);
      item.resolve(value);
    } catch (error) {
      item.reject(error);
    }
  };

  return <T>(work: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
