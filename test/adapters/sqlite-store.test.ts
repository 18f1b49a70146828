import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, it, type TestContext } from "node:test";
import { readMigrations } from "../../src/adapters/sql-migrations.ts";
import { type Db, openDb } from "../../src/adapters/sqlite/db.ts";
import { migrate as migrateSqlite } from "../../src/adapters/sqlite/migrations.ts";
import { createSqliteStore, type SqliteStoreOptions } from "../../src/adapters/sqlite/store.ts";
import { databaseFile } from "../../src/adapters/sqlite/write-probe.ts";
import { BackendUnavailableError, CallAbandonedError } from "../../src/ports/errors.ts";
import { describeIdempotencyContract } from "../contracts/idempotency.contract.ts";
import { describeStoreContract, newKey, reservation, rotation } from "../contracts/store.contract.ts";
import { describeWriteProbeContract } from "../contracts/store-write-probe.contract.ts";
import { smallDisk } from "../helpers/tmpfs.ts";

describeStoreContract("sqlite in memory", async () => {
  const store = createSqliteStore(":memory:");
  await store.migrate();
  return { store, cleanup: () => store.close() };
});

describeStoreContract("sqlite file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
  const store = createSqliteStore(join(dir, "nested", "toolrun.db"));
  await store.migrate();
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

// Instances of the service on one machine share the file; each opens its own connection.
describeIdempotencyContract("sqlite file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
  const path = join(dir, "toolrun.db");
  return {
    open: async () => createSqliteStore(path),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describeWriteProbeContract("sqlite file opened read-only", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
  const path = join(dir, "toolrun.db");
  const writable = createSqliteStore(path);
  await writable.migrate();
  // What a read-only file gives any user but root (who may write whatever the mode says).
  const readOnly = createSqliteStore(`file:${path}?mode=ro`);
  return {
    writable,
    readOnly,
    cleanup: async () => {
      await readOnly.close();
      await writable.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("SQLite open", () => {
  it("waits its busy timeout for another process's lock on the file, instead of failing at once", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "toolrun.db");
    const first = createSqliteStore(path);
    await first.migrate();
    await first.close();
    // Another process takes the file whole for a moment, as a checkpoint or a backup can.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const { DatabaseSync } = require("node:sqlite");
         const db = new DatabaseSync(${JSON.stringify(path)});
         db.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE");
         process.stdout.write("locked\\n");
         setTimeout(() => { db.exec("COMMIT"); db.close(); }, 300);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await once(holder.stdout, "data");
    const store = createSqliteStore(path, { busyTimeoutMs: 10_000 });
    t.after(() => store.close());
    assert.equal(await store.findKeyByHash("0".repeat(64)), null);
    await once(holder, "exit");
  });
});

describe("SQLite write probe", () => {
  it("names another connection's write lock as locked, and answers ok once it is let go", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "toolrun.db");
    // As the server opens it: a lock is waited for off the event loop, never by blocking it.
    const store = createSqliteStore(path, { busyTimeoutMs: 0, lockWaitMs: 1000 });
    t.after(() => store.close());
    await store.migrate();
    const other = new DatabaseSync(path);
    t.after(() => other.close());
    other.exec("BEGIN IMMEDIATE");
    assert.equal(await store.probeWrite(), "locked");
    other.exec("ROLLBACK");
    assert.equal(await store.probeWrite(), "ok");
  });

  it("answers full while the disk holding the database has no room, and ok once it has", async (t) => {
    const dir = smallDisk(t);
    if (dir === null) return;
    const store = createSqliteStore(join(dir, "toolrun.db"));
    t.after(() => store.close());
    await store.migrate();
    const filler = join(dir, "filler");
    assert.throws(() => writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024)), { code: "ENOSPC" });
    assert.equal(await store.probeWrite(), "full");
    // What every write meets meanwhile.
    await assert.rejects(store.createKey(newKey()), BackendUnavailableError);
    unlinkSync(filler);
    assert.equal(await store.probeWrite(), "ok");
  });

  it("finds the file a database path or URI names", () => {
    assert.equal(databaseFile(":memory:"), null);
    assert.equal(databaseFile("file::memory:?cache=shared"), null);
    assert.equal(databaseFile("file:db?mode=memory"), null);
    assert.equal(databaseFile("./data/toolrun.db"), "./data/toolrun.db");
    assert.equal(databaseFile("file:/srv/toolrun.db?mode=ro"), "/srv/toolrun.db");
    assert.equal(databaseFile("file:///srv/my%20db.db"), "/srv/my db.db");
    assert.equal(databaseFile("file://localhost/srv/toolrun.db"), "/srv/toolrun.db");
    assert.equal(databaseFile("file:toolrun.db"), "toolrun.db");
  });
});

describe("SQLite schema", () => {
  it("gives each new in-memory database the schema a file gets, empty, whichever migrated first", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const schemaOf = (db: Db) =>
      db
        .statement<{ type: string; name: string; sql: string | null }>(
          "SELECT type, name, sql FROM sqlite_master ORDER BY type, name",
        )
        .all();
    const file = openDb(join(dir, "toolrun.db"));
    const [first, second] = [openDb(":memory:"), openDb(":memory:")];
    t.after(() => {
      for (const db of [file, first, second]) db.close();
    });
    const all = migrateSqlite(file);
    assert.deepEqual(migrateSqlite(first, true), all);
    first.exec(
      "INSERT INTO admin_keys (id, name, secret_hash, display_prefix, created_at) VALUES ('a', 'n', 'h', 'p', 'now')",
    );
    assert.deepEqual(migrateSqlite(second, true), all);
    assert.deepEqual(schemaOf(second), schemaOf(file));
    assert.deepEqual(
      second.statement("SELECT id FROM admin_keys").all(),
      [],
      "the copy holds none of the first's rows",
    );
    // The copy is a database of its own, its statements prepared anew.
    second.exec(
      "INSERT INTO admin_keys (id, name, secret_hash, display_prefix, created_at) VALUES ('b', 'n', 'h', 'p', 'now')",
    );
    assert.equal(second.statement<{ n: number }>("SELECT count(*) AS n FROM admin_keys").get()?.n, 1);
    assert.equal(first.statement<{ n: number }>("SELECT count(*) AS n FROM admin_keys").get()?.n, 1);
    assert.equal(
      await second.write(() => second.statement<{ one: number }>("SELECT 1 AS one").get()?.one),
      1,
    );
  });

  it("refuses to migrate a database whose recorded migrations are another build's", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    const path = join(dir, "toolrun.db");
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const other = new DatabaseSync(path);
    other.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    other.exec(
      "INSERT INTO schema_migrations VALUES (1, 'initial', '2026-11-01'), (2, 'idempotency_keys', '2026-11-01')",
    );
    other.close();
    const store = createSqliteStore(path);
    t.after(() => store.close());
    assert.equal(await store.isMigrated(), false);
    await assert.rejects(
      store.migrate(),
      /records migration 1 as "initial", where this release has "schema"/,
    );
  });

  it("upgrades a database made before rotation graces: its keys keep working and can be rotated with one", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    const path = join(dir, "toolrun.db");
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const shipped = readMigrations(new URL("../../src/adapters/sqlite/migrations/", import.meta.url));
    const older = new DatabaseSync(path);
    older.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    for (const m of shipped.filter((m) => m.version <= 2)) {
      older.exec(m.sql);
      older.prepare("INSERT INTO schema_migrations VALUES (?, ?, '2026-11-01')").run(m.version, m.name);
    }
    const key = newKey();
    older
      .prepare(
        "INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(key.id, key.name, "free", key.secretHash, key.displayPrefix, key.createdAt);
    older.close();
    const store = createSqliteStore(path);
    t.after(() => store.close());
    assert.deepEqual(
      await store.migrate(),
      shipped.filter((m) => m.version > 2).map((m) => m.version),
    );
    const found = await store.findKeyByHash(key.secretHash);
    assert.deepEqual(
      [found?.matched, found?.previousDisplayPrefix, found?.previousSecretExpiresAt],
      ["current", null, null],
    );
    const until = "2026-11-02T00:00:00.000Z";
    assert.equal(await store.rotateKey(key.id, rotation("upgraded-new-hash", until)), true);
    assert.equal((await store.findKeyByHash(key.secretHash))?.previousSecretExpiresAt, until);
  });

  it("finds a key by either of its secrets' hashes through an index each", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    const path = join(dir, "toolrun.db");
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = createSqliteStore(path);
    await store.migrate();
    await store.close();
    const db = new DatabaseSync(path);
    t.after(() => db.close());
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT id FROM api_keys WHERE secret_hash = ?1 OR previous_secret_hash = ?1",
      )
      .all("h")
      .map((row) => String(row.detail))
      .filter((detail) => detail.startsWith("SEARCH") || detail.startsWith("SCAN"));
    assert.deepEqual(plan, [
      "SEARCH api_keys USING INDEX sqlite_autoindex_api_keys_2 (secret_hash=?)",
      "SEARCH api_keys USING INDEX api_keys_previous_secret_hash (previous_secret_hash=?)",
    ]);
  });

  it("finds an idempotency key through an index of its own, reading no stored answer", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    const path = join(dir, "toolrun.db");
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const store = createSqliteStore(path);
    t.after(() => store.close());
    assert.deepEqual(
      await store.migrate(),
      readMigrations(new URL("../../src/adapters/sqlite/migrations/", import.meta.url)).map((m) => m.version),
    );
    const key = newKey();
    await store.createKey(key);
    const claim = { key: "kept", fingerprint: "fp", expiresAt: "2999-01-01T00:00:00.000Z" };
    const kept = '{"kept":true}';
    await store.runCall(
      reservation(key.id, { idempotency: claim }),
      () => ({ ok: true, value: 1 }),
      () => ({ status: 200, body: kept }),
    );
    assert.deepEqual(
      await store.runCall(
        reservation(key.id, { idempotency: claim }),
        () => ({ ok: true, value: 2 }),
        () => ({ status: 200, body: "{}" }),
      ),
      { status: "claimed", existing: { fingerprint: "fp", answer: { status: 200, body: kept } } },
    );
    // A WITHOUT ROWID table would keep each answer in the key's own b-tree, read by every lookup.
    const after = new DatabaseSync(path);
    t.after(() => after.close());
    const plan = after
      .prepare(
        "EXPLAIN QUERY PLAN SELECT fingerprint FROM idempotency_keys WHERE account_id = ? AND idem_key = ?",
      )
      .all(key.id, "kept")
      .map((row) => String(row.detail));
    assert.deepEqual(plan, [
      "SEARCH idempotency_keys USING INDEX sqlite_autoindex_idempotency_keys_1 (account_id=? AND idem_key=?)",
    ]);
  });
});

describe("SQLite metered calls", () => {
  it("keep nothing of a call whose record cannot be written, and keep the calls committed beside it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    const path = join(dir, "toolrun.db");
    const store = createSqliteStore(path);
    try {
      await store.migrate();
      const key = newKey();
      await store.createKey(key);
      // Every usage row of "boom" fails to be written.
      execElsewhere(
        path,
        `CREATE TRIGGER refuse_boom BEFORE INSERT ON usage_calls WHEN NEW.tool = 'boom'
         BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
      );
      // Queued in one turn, so they share a transaction that the failing call aborts.
      const outcomes = await Promise.allSettled([
        store.runCall(reservation(key.id, { credits: 2 }), () => ({ ok: true, value: "a" })),
        store.runCall(reservation(key.id, { credits: 3, tool: "boom" }), () => ({ ok: true, value: "b" })),
        store.runCall(reservation(key.id, { credits: 4 }), () => ({ ok: true, value: "c" })),
      ]);
      assert.deepEqual(
        outcomes.map((o) => (o.status === "fulfilled" ? o.value.status : String(o.reason))),
        ["charged", "Error: disk full", "charged"],
      );
      assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 6);
      const report = await store.usage({
        accountId: key.accountId,
        period: "2026-11",
        limit: 10,
        cursor: null,
      });
      assert.deepEqual(report.byTool, [{ tool: "calc", calls: 2, credits: 6 }]);
      // The failed call's cap slot was not kept either: a capped "boom" call still fits.
      execElsewhere(path, "DROP TRIGGER refuse_boom");
      const capped = reservation(key.id, { credits: 1, tool: "boom", monthlyCallCap: 1 });
      assert.equal((await store.runCall(capped, () => ({ ok: true, value: "d" }))).status, "charged");
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("SQLite metered calls: the tool runs off the write transaction", () => {
  /** A migrated store on a file, with a key, and a second connection to that file (another process). */
  async function fileStore(t: TestContext, options: SqliteStoreOptions = {}) {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    const path = join(dir, "toolrun.db");
    const store = createSqliteStore(path, options);
    await store.migrate();
    const key = newKey();
    await store.createKey(key);
    const other = new DatabaseSync(path);
    other.exec("PRAGMA busy_timeout = 0");
    t.after(async () => {
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return { store, key, other };
  }

  /** True when `db` can take the file's write lock at once, i.e. no transaction of another connection holds it. */
  function writeLockFree(db: DatabaseSync): boolean {
    try {
      db.exec("BEGIN IMMEDIATE");
      db.exec("ROLLBACK");
      return true;
    } catch {
      return false;
    }
  }

  it("runs the tool with the write lock free, then charges it", async (t) => {
    const { store, key, other } = await fileStore(t);
    let lockFree: boolean | undefined;
    const outcome = await store.runCall(reservation(key.id, { credits: 2 }), () => {
      lockFree = writeLockFree(other);
      return { ok: true, value: "ran" };
    });
    assert.equal(lockFree, true);
    assert.deepEqual(outcome, { status: "charged", value: "ran", creditsUsed: 2, grantsLeft: 0 });
    assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 2);
  });

  it("refuses without running or writing when the balance already cannot cover the call", async (t) => {
    const { store, key, other } = await fileStore(t, { busyTimeoutMs: 0, lockWaitMs: 1_000 });
    await store.runCall(reservation(key.id, { credits: 6 }), () => ({ ok: true, value: 1 }));
    await store.runCall(reservation(key.id, { credits: 1, tool: "capped", monthlyCallCap: 1 }), () => ({
      ok: true,
      value: 1,
    }));
    // Another process holds the write lock: a call that needed a write would wait for it.
    other.exec("BEGIN IMMEDIATE");
    let runs = 0;
    const work = () => ({ ok: true as const, value: ++runs });
    try {
      assert.deepEqual(await store.runCall(reservation(key.id, { credits: 4 }), work), {
        status: "refused",
        reason: "insufficient_credits",
        creditsUsed: 7,
        grantsLeft: 0,
      });
      const capped = reservation(key.id, { credits: 1, tool: "capped", monthlyCallCap: 1 });
      assert.deepEqual(await store.runCall(capped, work), {
        status: "refused",
        reason: "tier_limit",
        creditsUsed: 7,
        grantsLeft: 0,
      });
    } finally {
      other.exec("ROLLBACK");
    }
    assert.equal(runs, 0);
  });

  it("refuses at the commit a call whose credits another process spent since this one last looked", async (t) => {
    const { store, key, other } = await fileStore(t);
    assert.equal(
      (await store.runCall(reservation(key.id, { credits: 2 }), () => ({ ok: true, value: 1 }))).status,
      "charged",
    );
    // Another instance on the same file charges 7 more: this process last saw 2 used of 10.
    other
      .prepare("UPDATE credit_balances SET used = used + 7 WHERE account_id = ? AND period = '2026-11'")
      .run(key.accountId);
    const outcome = await store.runCall(reservation(key.id, { credits: 2 }), () => ({ ok: true, value: 2 }));
    assert.deepEqual(outcome, {
      status: "refused",
      reason: "insufficient_credits",
      creditsUsed: 9,
      grantsLeft: 0,
    });
    assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 9);
    // What it learnt at that commit refuses the next call before it runs.
    let runs = 0;
    const next = await store.runCall(reservation(key.id, { credits: 2 }), () => ({
      ok: true,
      value: ++runs,
    }));
    assert.equal(next.status, "refused");
    assert.equal(runs, 0);
  });

  it("runs a call with an idempotency key with the write lock free, between its reservation and its capture", async (t) => {
    const { store, key, other } = await fileStore(t);
    const claim = { key: "k-free", fingerprint: "f", expiresAt: "2999-01-01T00:00:00.000Z" };
    let lockFree: boolean | undefined;
    const outcome = await store.runCall(
      reservation(key.id, { credits: 2, idempotency: claim }),
      () => {
        lockFree = writeLockFree(other);
        return { ok: true, value: "ran" };
      },
      () => ({ status: 200, body: '{"ran":true}' }),
    );
    assert.equal(lockFree, true);
    assert.deepEqual(outcome, { status: "charged", value: "ran", creditsUsed: 2, grantsLeft: 0 });
    assert.deepEqual(
      other
        .prepare("SELECT answer_status, answer_body, expires_at FROM idempotency_keys")
        .all()
        .map((row) => ({ ...row })),
      [{ answer_status: 200, answer_body: '{"ran":true}', expires_at: claim.expiresAt }],
    );
  });

  it("waits for another process's write lock to capture a tool's effect, past the lock wait, instead of releasing it", async (t) => {
    const { store, key, other } = await fileStore(t, { busyTimeoutMs: 0, lockWaitMs: 100 });
    const r = reservation(key.id, { credits: 2 });
    const outcome = store.runReservedCall(r, async () => {
      // Another process takes the write lock while the tool acts, and keeps it past the lock wait.
      other.exec("BEGIN IMMEDIATE");
      return { ok: true, value: "acted" };
    });
    let ended = false;
    void outcome.finally(() => {
      ended = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(ended, false, "the call ended while the file was locked");
    other.exec("COMMIT");
    assert.deepEqual(await outcome, { status: "charged", value: "acted", creditsUsed: 2, grantsLeft: 0 });
    assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 2);
  });

  it("frees the claim of a call that never settled (its process died) once the abandon time has passed", async (t) => {
    const { store, key } = await fileStore(t, { abandonAfterMs: 60_000 });
    const claim = { key: "k-dead", fingerprint: "f", expiresAt: "2999-01-01T00:00:00.000Z" };
    const answer = () => ({ status: 200, body: "{}" });
    const at = Date.parse("2026-11-24T12:00:00.000Z");
    const started = Promise.withResolvers<void>();
    const stuck = Promise.withResolvers<{ ok: true; value: string }>();
    // Its work never ends, as if its process had died after the claim.
    const dead = store.runCall(
      reservation(key.id, { idempotency: claim, at: new Date(at).toISOString() }),
      () => {
        started.resolve();
        return stuck.promise;
      },
      answer,
    );
    await started.promise;
    let runs = 0;
    const work = () => ({ ok: true as const, value: `retry ${++runs}` });
    const early = reservation(key.id, { idempotency: claim, at: new Date(at + 59_999).toISOString() });
    assert.deepEqual(await store.runCall(early, work, answer), {
      status: "claimed",
      existing: { fingerprint: "f", answer: null },
    });
    const late = reservation(key.id, { idempotency: claim, at: new Date(at + 60_000).toISOString() });
    assert.deepEqual(await store.runCall(late, work, answer), {
      status: "charged",
      value: "retry 1",
      creditsUsed: 2,
      grantsLeft: 0,
    });
    // Should the first come back after all, the key is the retry's and its reservation was released
    // with the claim: it is not charged, and its result is not given.
    stuck.resolve({ ok: true, value: "first" });
    await assert.rejects(dead, CallAbandonedError);
    assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 2);
  });

  it("answers a live idempotency claim without running or writing", async (t) => {
    const { store, key, other } = await fileStore(t, { busyTimeoutMs: 0, lockWaitMs: 1_000 });
    const claim = { key: "k1", fingerprint: "f1", expiresAt: "2999-01-01T00:00:00.000Z" };
    const answer = { status: 200, body: '{"first":true}' };
    await store.runCall(
      reservation(key.id, { idempotency: claim }),
      () => ({ ok: true, value: 1 }),
      () => answer,
    );
    other.exec("BEGIN IMMEDIATE");
    let runs = 0;
    try {
      const again = await store.runCall(
        reservation(key.id, { idempotency: claim }),
        () => ({ ok: true, value: ++runs }),
        () => answer,
      );
      assert.deepEqual(again, { status: "claimed", existing: { fingerprint: "f1", answer } });
    } finally {
      other.exec("ROLLBACK");
    }
    assert.equal(runs, 0);
  });
});

/** Runs SQL on a connection of its own, as another process would. */
function execElsewhere(path: string, sql: string): void {
  const db = new DatabaseSync(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}
