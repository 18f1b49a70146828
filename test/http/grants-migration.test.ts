/**
 * Migration 0011 on both stores: accounts holding grants of the old kind (credits on top of one
 * month's allowance) get a grant each that expires at the end of that month, with the credits they
 * could still spend: what a month's balance held past an account's own allowance was spent from
 * its grant and moves there; an account on its plan's allowance keeps its grant whole.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { readMigrations } from "../../src/adapters/sql-migrations.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import type { Store } from "../../src/ports/store.ts";
import { adminQuery, dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { newKey } from "../contracts/store.contract.ts";
import { testDatabaseUrl } from "../helpers/services.ts";

const BEFORE_GRANTS = 10;
const created = "2026-10-01T00:00:00.000Z";

const statements = [
  // Its own allowance of 10, 15 used in November with 20 granted: 5 of the grant were spent.
  `INSERT INTO accounts (id, name, plan, monthly_allowance, granted_credits, granted_period, created_at)
   VALUES ('acc_own', 'own', 'free', 10, 20, '2026-11', '${created}')`,
  // The plan's allowance (unknown to the database): its grant stays whole.
  `INSERT INTO accounts (id, name, plan, monthly_allowance, granted_credits, granted_period, created_at)
   VALUES ('acc_plan', 'plan', 'free', NULL, 7, '2026-11', '${created}')`,
  // October's grant lapsed with October.
  `INSERT INTO accounts (id, name, plan, monthly_allowance, granted_credits, granted_period, created_at)
   VALUES ('acc_old', 'old', 'free', 10, 9, '2026-10', '${created}')`,
  `INSERT INTO credit_balances (account_id, period, used)
   VALUES ('acc_own', '2026-11', 15), ('acc_plan', '2026-11', 4), ('acc_old', '2026-10', 12)`,
];

async function check(store: Store): Promise<void> {
  const applied = await store.migrate();
  assert.ok(applied.includes(11), `applied ${applied.join()}`);
  const at = "2026-11-20T00:00:00.000Z";
  const grants = async (id: string) =>
    (await store.listGrants(id, at)).map((g) => [g.id, g.credits, g.remaining, g.expiresAt, g.category]);
  const end = "2026-12-01T00:00:00.000Z";
  assert.deepEqual(await grants("acc_own"), [["grt_mown", 20, 15, end, "promotional"]]);
  assert.equal(await store.creditsUsed("acc_own", "2026-11"), 10);
  assert.deepEqual(await grants("acc_plan"), [["grt_mplan", 7, 7, end, "promotional"]]);
  assert.equal(await store.creditsUsed("acc_plan", "2026-11"), 4);
  assert.deepEqual(await grants("acc_old"), []);
  assert.deepEqual(await store.listGrants("acc_old", "2026-10-15T00:00:00.000Z").then((g) => g.length), 1);
  // What it could spend before, it can spend now: 15 credits of the grant, then a refusal.
  assert.equal(await store.createKey(newKey({ id: "key_own", accountId: "acc_own" })), true);
  const call = (credits: number) =>
    store.runCall(
      {
        callId: `c-${credits}-${Math.random()}`,
        requestId: "req",
        accountId: "acc_own",
        keyId: "key_own",
        tool: "echo",
        period: "2026-11",
        credits,
        allowance: 10,
        monthlyCallCap: null,
        at,
      },
      () => ({ ok: true, value: 1 }),
    );
  assert.equal((await call(16)).status, "refused");
  assert.deepEqual(await call(15), { status: "charged", value: 1, creditsUsed: 10, grantsLeft: 0 });
  await store.close();
}

describe("migration 0011: grants of a month become grants that expire at its end", () => {
  it("on SQLite", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-grants-migration-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "toolrun.db");
    const older = new DatabaseSync(path);
    older.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const shipped = readMigrations(new URL("../../src/adapters/sqlite/migrations/", import.meta.url));
    for (const m of shipped.filter((m) => m.version <= BEFORE_GRANTS)) {
      older.exec(m.sql);
      older.prepare("INSERT INTO schema_migrations VALUES (?, ?, '2026-11-01')").run(m.version, m.name);
    }
    for (const sql of statements) older.exec(sql);
    older.close();
    await check(createSqliteStore(path));
  });

  const db = testDatabaseUrl();
  it("on PostgreSQL", { skip: db.skip }, async (t) => {
    const url = db.url ?? "";
    const schema = uniqueSchema();
    t.after(() => dropSchema(url, schema));
    const shipped = readMigrations(new URL("../../src/adapters/postgres/migrations/", import.meta.url));
    await adminQuery(
      url,
      `CREATE SCHEMA ${schema}; SET search_path = ${schema};
       CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
       ${shipped
         .filter((m) => m.version <= BEFORE_GRANTS)
         .map(
           (m) =>
             `${m.sql};\nINSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name}');`,
         )
         .join("\n")}
       ${statements.join(";\n")};`,
    );
    await check(await createPostgresStore({ url, schema }));
  });
});
