import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { describeIdempotencyContract } from "../contracts/idempotency.contract.ts";
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

/** Runs SQL on a connection of its own, as another process would. */
function execElsewhere(path: string, sql: string): void {
  const db = new DatabaseSync(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}
