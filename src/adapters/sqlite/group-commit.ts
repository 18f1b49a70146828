/**
 * Group commit for the SQLite ledger: writes queued in the same turn of the event loop run one
 * after another inside one IMMEDIATE transaction, each under its own savepoint, so a write that
 * throws undoes only itself. Every caller's promise settles after that transaction commits (or
 * rejects with the commit's error, when nothing of the batch was kept). Exactness is the same as
 * one transaction per write, since each write still sees every write queued before it; under load,
 * many calls share one commit (and its WAL pages) instead of paying one each.
 */
import type { DatabaseSync } from "node:sqlite";

export type WriteQueue = <T>(work: () => T) => Promise<T>;

interface Queued {
  readonly work: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

export function createWriteQueue(db: DatabaseSync): WriteQueue {
  let queue: Queued[] = [];
  let scheduled = false;

  const runOne = (item: Queued, savepoint: boolean): Outcome => {
    if (savepoint) db.exec("SAVEPOINT ledger_write");
    try {
      const value = item.work();
      if (savepoint) db.exec("RELEASE ledger_write");
      return { ok: true, value };
    } catch (error) {
      if (savepoint) db.exec("ROLLBACK TO ledger_write; RELEASE ledger_write");
      return { ok: false, error };
    }
  };

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    // A lone write needs no savepoint: if it throws, the whole transaction is rolled back.
    const savepoints = batch.length > 1;
    const outcomes: Outcome[] = [];
    try {
      db.exec("BEGIN IMMEDIATE");
      try {
        for (const item of batch) outcomes.push(runOne(item, savepoints));
        if (!savepoints && outcomes[0]?.ok === false) db.exec("ROLLBACK");
        else db.exec("COMMIT");
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK");
        throw error;
      }
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) item.resolve(outcome.value);
      else item.reject(outcome?.error);
    });
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
