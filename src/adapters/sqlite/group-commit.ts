/**
 * Group commit for the SQLite ledger: writes queued in one turn of the event loop and the next run
 * one after another inside one IMMEDIATE transaction, and every caller's promise settles after
 * that transaction commits (or rejects with the commit's error, when nothing of the batch was
 * kept). The extra turn lets the requests read in its poll phase join the commit, so more calls
 * share one (docs/benchmarks.md, "Code kept for speed"), and an idle server pays one empty turn of
 * its loop.
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
 *
 * Another process holding the write lock (a backup, a `sqlite3` shell): with `lockWaitMs`, the
 * connection's busy_timeout is expected to be 0, so BEGIN fails at once instead of blocking the
 * event loop; the batch then waits on a timer and tries again, and each write still waiting after
 * `lockWaitMs` is rejected with the BUSY error (503 `backend_unavailable`).
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { isDatabaseUnavailable, isLocked } from "./errors.ts";

export type WriteQueue = <T>(work: () => T) => Promise<T>;

interface Queued {
  /** Date.now() past which the write stops waiting for another process's lock. */
  readonly deadline: number;
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

const FIRST_RETRY_MS = 2;
const MAX_RETRY_MS = 50;

/** A statement prepared on first use (and again after the database was replaced: db.ts). */
export type Prepared = (sql: string) => () => StatementSync;

const preparedOnce: (db: DatabaseSync) => Prepared = (db) => (sql) => {
  const statement = db.prepare(sql);
  return () => statement;
};

export function createWriteQueue(
  db: DatabaseSync,
  lockWaitMs?: number,
  prepared: Prepared = preparedOnce(db),
): WriteQueue {
  const begin = prepared("BEGIN IMMEDIATE");
  const commit = prepared("COMMIT");
  const rollback = () => {
    if (db.isTransaction) db.exec("ROLLBACK");
  };
  let queue: Queued[] = [];
  let scheduled = false;
  let retryMs = FIRST_RETRY_MS;

  /** Runs the writes in one transaction; throws (keeping nothing) if any write or the commit does. */
  const runTogether = (batch: readonly Queued[], begun = false): unknown[] => {
    if (!begun) begin().run();
    try {
      const values = batch.map((item) => item.work());
      commit().run();
      return values;
    } catch (error) {
      rollback();
      throw error;
    }
  };

  /** Takes the write lock; false when another process holds it and the batch waits on a timer. */
  const lock = (): boolean => {
    try {
      begin().run();
      retryMs = FIRST_RETRY_MS;
      return true;
    } catch (error) {
      if (lockWaitMs === undefined || !isLocked(error)) throw error;
      const now = Date.now();
      for (const item of queue) if (item.deadline <= now) item.reject(error);
      queue = queue.filter((item) => item.deadline > now);
      if (queue.length > 0) {
        scheduled = true;
        setTimeout(flush, retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      }
      return false;
    }
  };

  const flush = () => {
    scheduled = false;
    try {
      if (!lock()) return;
    } catch (error) {
      for (const item of queue) item.reject(error);
      queue = [];
      return;
    }
    const batch = queue;
    queue = [];
    let values: unknown[];
    try {
      values = runTogether(batch, true);
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
      const deadline = lockWaitMs === undefined ? 0 : Date.now() + lockWaitMs;
      queue.push({ deadline, work, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // One more turn of the loop: the requests read in its poll phase join this commit.
        setImmediate(() => setImmediate(flush));
      }
    });
}
