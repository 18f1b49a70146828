/**
 * The SQLite database file: opened with its pragmas, typed statements that give port errors
 * (errors.ts) for whatever fails in them, transactions, and the group-commit queue the ledger
 * writes through. Boundary: no SQL of its own beyond pragmas and transaction control.
 * WAL mode: committed work survives a crash of the process.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { DEFAULT_BACKEND_TIMEOUT_MS } from "../../ports/defaults.ts";
import { toPortError } from "./errors.ts";
import { createWriteQueue, type WriteQueue } from "./group-commit.ts";

export type Value = SQLInputValue;

/** A statement whose rows have the type `Row`; prepared on first use, so before `migrate` too. */
export interface Statement<Row> {
  get(...values: Value[]): Row | undefined;
  all(...values: Value[]): Row[];
  /** Runs a change and returns how many rows it changed. */
  run(...values: Value[]): number;
}

export interface Db {
  statement<Row = never>(sql: string): Statement<Row>;
  /** Runs `work` in one IMMEDIATE transaction: atomic against this process and any other. */
  transaction<T>(work: () => T): T;
  /** Runs the reads of `work` in one (deferred) transaction, so they see one snapshot of the file. */
  read<T>(work: () => T): T;
  /** Runs `work` in a transaction shared with the other writes of this turn (group-commit.ts). */
  write<T>(work: () => T): Promise<T>;
  /** A number that changes whenever another connection commits to the file. */
  dataVersion(): number;
  /** Runs SQL text of several statements (migrations). */
  exec(sql: string): void;
  /** The whole database as bytes (an in-memory one's migrated schema, kept to copy). */
  image(): Uint8Array;
  /** Replaces the whole database with `image` (a copy of another's). */
  replaceWith(image: Uint8Array): void;
  /** False once closed. */
  isOpen(): boolean;
  close(): void;
}

export interface OpenOptions {
  /** How long a statement waits, blocking, for another process's lock before failing (503). */
  readonly busyTimeoutMs?: number;
  /**
   * How long a ledger write waits for another process's write lock off the event loop, retrying
   * on a timer (group-commit.ts); meant with `busyTimeoutMs: 0`. Unset: it waits busyTimeoutMs.
   */
  readonly lockWaitMs?: number;
}

/** Runs `call`, turning what it throws into a port error. */
function translated<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw toPortError(error);
  }
}

export function openDb(path: string, options: OpenOptions = {}): Db {
  // A `file:` URI (`file:/srv/toolrun.db?mode=ro`) names its file itself.
  if (path !== ":memory:" && !path.startsWith("file:")) mkdirSync(dirname(path), { recursive: true });
  const db = translated(() => new DatabaseSync(path));
  const busyTimeoutMs = Math.trunc(options.busyTimeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS);
  // The busy timeout first: switching to WAL reads the file, and may meet another process's lock.
  db.exec(
    `PRAGMA busy_timeout = ${busyTimeoutMs}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;`,
  );
  // Replacing the database (replaceWith) finalizes every statement prepared on it: each is
  // prepared again on its first use after one.
  let generation = 0;
  const prepared = (sql: string, setup?: (statement: StatementSync) => void) => {
    let statement: StatementSync | undefined;
    let preparedIn = -1;
    return (): StatementSync => {
      if (statement === undefined || preparedIn !== generation) {
        statement = db.prepare(sql);
        setup?.(statement);
        preparedIn = generation;
      }
      return statement;
    };
  };
  const queue: WriteQueue = createWriteQueue(db, options.lockWaitMs, prepared);
  // Read on every key lookup: an array row saves building an object each time.
  const dataVersion = prepared("PRAGMA data_version", (statement) => statement.setReturnArrays(true));

  function statement<Row>(sql: string): Statement<Row> {
    const prepare = prepared(sql);
    // The one place rows are typed: each statement names the columns its Row declares.
    return {
      get: (...values) => translated(() => prepare().get(...values) as Row | undefined),
      all: (...values) => translated(() => prepare().all(...values) as Row[]),
      run: (...values) => translated(() => Number(prepare().run(...values).changes)),
    };
  }

  const inTransaction = <T>(begin: string, work: () => T): T =>
    translated(() => {
      db.exec(begin);
      try {
        const result = work();
        db.exec("COMMIT");
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec("ROLLBACK");
        throw error;
      }
    });

  return {
    statement,
    transaction: (work) => inTransaction("BEGIN IMMEDIATE", work),
    read: (work) => inTransaction("BEGIN", work),
    write: (work) =>
      queue(work).catch((error: unknown) => {
        throw toPortError(error);
      }),
    dataVersion: () => Number((dataVersion().get() as unknown as [number])[0]),
    exec: (sql) => translated(() => db.exec(sql)),
    image: () => translated(() => db.serialize()),
    replaceWith: (image) =>
      translated(() => {
        db.deserialize(image);
        generation++;
      }),
    isOpen: () => db.isOpen,
    close() {
      if (db.isOpen) db.close();
    },
  };
}
