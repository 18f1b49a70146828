import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, it } from "node:test";
import { migrations } from "../../src/adapters/sqlite/migrations.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { describeStoreContract, newKey, reservation } from "../contracts/store.contract.ts";
import { describeWriteProbeContract } from "../contracts/store-write-probe.contract.ts";

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
        `CREATE TRIGGER refuse_boom BEFORE INSERT ON usage WHEN NEW.tool = 'boom'
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
      assert.equal(await store.creditsUsed(key.id, "2026-11"), 6);
      const report = await store.usage({ keyId: key.id, period: "2026-11", limit: 10, cursor: null });
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

describe("SQLite schema upgrade", () => {
  it("from version 1 keeps every call, its order and its cursor, and pending calls still settle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
    const path = join(dir, "toolrun.db");
    try {
      const [first] = migrations;
      if (first?.version !== 1) throw new Error("migration 1 not first");
      execElsewhere(
        path,
        `${first.sql};
         CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
         INSERT INTO schema_migrations VALUES (1, '2026-11-01T00:00:00.000Z');
         INSERT INTO api_keys VALUES ('k1', 'old', 'builder', 'h1', 'tr_live_abcd', NULL, '2026-11-01', NULL);
         INSERT INTO balances VALUES ('k1', '2026-11', 7);
         INSERT INTO tool_calls VALUES ('k1', '2026-11', 'calc', 3);
         INSERT INTO usage (call_id, request_id, key_id, tool, period, status, http_status, credits, at) VALUES
           ('c1', 'r1', 'k1', 'calc', '2026-11', 'charged', 200, 2, '2026-11-02T00:00:00.000Z'),
           ('c2', 'r2', 'k1', 'calc', '2026-11', 'refunded', 422, 0, '2026-11-02T00:00:01.000Z'),
           ('c3', 'r3', 'k1', 'calc', '2026-11', 'pending', NULL, 2, '2026-11-02T00:00:02.000Z'),
           ('c4', 'r4', 'k1', 'calc', '2026-11', 'pending', NULL, 3, '2026-11-02T00:00:03.000Z');`,
      );
      const store = createSqliteStore(path);
      try {
        const page = async (cursor: string | null) =>
          store.usage({ keyId: "k1", period: "2026-11", limit: 2, cursor });
        const before = await page(null);
        await store.migrate();
        assert.equal(await store.isMigrated(), true);
        const after = await page(null);
        assert.deepEqual(after, before);
        assert.deepEqual(
          (await page(after.nextCursor)).recent.map((c) => [c.callId, c.status, c.httpStatus]),
          [
            ["c2", "refunded", 422],
            ["c1", "charged", 200],
          ],
        );
        await store.settle("c4", 200);
        assert.equal(await store.refundAbandoned("2026-11-03T00:00:00.000Z"), 1);
        assert.equal(await store.creditsUsed("k1", "2026-11"), 5);
        const r = reservation("k1", { credits: 1, allowance: 100 });
        assert.equal((await store.runCall(r, () => ({ ok: true, value: 0 }))).status, "charged");
        const newest = await page(null);
        assert.deepEqual(
          newest.recent.map((c) => [c.callId, c.status]),
          [
            [r.callId, "charged"],
            ["c4", "charged"],
          ],
        );
        assert.equal(newest.calls, 5);
        assert.equal(newest.creditsUsed, 6);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
