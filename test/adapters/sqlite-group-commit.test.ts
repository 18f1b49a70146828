/**
 * The SQLite ledger's group commit: writes queued together share one transaction, run in order,
 * and a write that fails undoes only itself, whether it throws or its commit fails.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { describe, it } from "node:test";
import { createWriteQueue } from "../../src/adapters/sqlite/group-commit.ts";

function database(): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE t (v INTEGER NOT NULL CHECK (v >= 0))");
  return db;
}

const values = (db: DatabaseSync) =>
  (db.prepare("SELECT v FROM t ORDER BY rowid").all() as { v: number }[]).map((r) => r.v);

describe("sqlite group commit", () => {
  it("runs the writes of one turn in order, in one transaction, each seeing the ones before", async () => {
    const db = database();
    const write = createWriteQueue(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    const count = db.prepare("SELECT COUNT(*) AS n FROM t");
    const seen = await Promise.all(
      [1, 2, 3].map((v) =>
        write(() => {
          assert.equal(db.isTransaction, true);
          insert.run(v);
          return Number((count.get() as { n: number }).n);
        }),
      ),
    );
    assert.deepEqual(seen, [1, 2, 3]);
    assert.deepEqual(values(db), [1, 2, 3]);
    assert.equal(db.isTransaction, false);
  });

  it("keeps the commit open for one more turn: a write queued in the next one, as a request read then would be, joins it", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-group-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = new DatabaseSync(join(dir, "t.db"));
    db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER NOT NULL CHECK (v >= 0))");
    const other = new DatabaseSync(join(dir, "t.db"));
    t.after(() => {
      other.close();
      db.close();
    });
    const write = createWriteQueue(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    const committedElsewhere = () =>
      Number((other.prepare("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n);
    const first = write(() => insert.run(1));
    await new Promise((resolve) => setImmediate(resolve));
    const second = write(() => {
      insert.run(2);
      return committedElsewhere();
    });
    await first;
    // The first write was not yet committed when the second ran: they shared the transaction.
    assert.equal(await second, 0);
    assert.equal(committedElsewhere(), 2);
  });

  it("a write that throws undoes only its own changes and rejects only its own promise", async () => {
    const db = database();
    const write = createWriteQueue(db);
    const insert = db.prepare("INSERT INTO t (v) VALUES (?)");
    const results = await Promise.allSettled([
      write(() => insert.run(1)),
      write(() => {
        insert.run(2);
        insert.run(-1); // violates the CHECK: this write's row 2 must go too
      }),
      write(() => insert.run(3)),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "rejected", "fulfilled"],
    );
    assert.deepEqual(values(db), [1, 3]);
  });

  it("a lone write that throws is rolled back", async () => {
    const db = database();
    const write = createWriteQueue(db);
    await assert.rejects(
      write(() => {
        db.prepare("INSERT INTO t (v) VALUES (5)").run();
        throw new Error("refused");
      }),
      /refused/,
    );
    assert.deepEqual(values(db), []);
    assert.equal(db.isTransaction, false);
  });

  it("when the commit fails, the batch runs again one write per transaction: only the write at fault fails", async () => {
    const db = new DatabaseSync(":memory:");
    db.exec(`
      PRAGMA foreign_keys = ON;
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED);
    `);
    const write = createWriteQueue(db);
    const results = await Promise.allSettled([
      write(() => db.prepare("INSERT INTO parent (id) VALUES (1)").run()),
      // Only checked at COMMIT, which fails the shared transaction.
      write(() => db.prepare("INSERT INTO child (parent) VALUES (2)").run()),
      write(() => db.prepare("INSERT INTO parent (id) VALUES (3)").run()),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "rejected", "fulfilled"],
    );
    const ids = db.prepare("SELECT id FROM parent ORDER BY id").all() as { id: number }[];
    assert.deepEqual(
      ids.map((r) => r.id),
      [1, 3],
      "each kept write is applied once",
    );
    assert.equal((db.prepare("SELECT COUNT(*) AS n FROM child").get() as { n: number }).n, 0);
    assert.equal(db.isTransaction, false);
  });

  it("when every commit fails (the disk is full, say), every write fails and none is kept", async () => {
    const db = database();
    const write = createWriteQueue(db);
    db.exec("PRAGMA query_only = ON");
    const results = await Promise.allSettled([
      write(() => db.prepare("INSERT INTO t (v) VALUES (1)").run()),
      write(() => db.prepare("INSERT INTO t (v) VALUES (2)").run()),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["rejected", "rejected"],
    );
    db.exec("PRAGMA query_only = OFF");
    assert.deepEqual(values(db), []);
    assert.equal(db.isTransaction, false);
  });

  it("when another process holds the write lock past the busy timeout, the batch fails after one wait, not one per write", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-group-commit-"));
    try {
      const path = join(dir, "t.db");
      const other = new DatabaseSync(path);
      other.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER NOT NULL)");
      const db = new DatabaseSync(path);
      db.exec("PRAGMA busy_timeout = 20");
      let begins = 0;
      const write = createWriteQueue(countingBegins(db, () => begins++));
      other.exec("BEGIN IMMEDIATE");
      let ran = 0;
      const insert = () => {
        ran++;
        db.prepare("INSERT INTO t (v) VALUES (1)").run();
      };
      const results = await Promise.allSettled([write(insert), write(insert), write(insert)]);
      assert.deepEqual(
        results.map((r) => (r.status === "rejected" ? (r.reason as { errcode?: number }).errcode : r.status)),
        [5, 5, 5],
      );
      assert.equal(begins, 1);
      assert.equal(ran, 0);
      other.exec("ROLLBACK");
      await write(insert);
      assert.deepEqual(values(db), [1]);
      db.close();
      other.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `db`, with `onBegin` called each time the write queue starts a transaction. */
function countingBegins(db: DatabaseSync, onBegin: () => void): DatabaseSync {
  const prepare = (sql: string): StatementSync => {
    const statement = db.prepare(sql);
    if (!sql.startsWith("BEGIN")) return statement;
    return new Proxy(statement, {
      get(target, name) {
        if (name === "run")
          return () => {
            onBegin();
            return target.run();
          };
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };
  return new Proxy(db, {
    get(target, name) {
      if (name === "prepare") return prepare;
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
