/**
 * Migration 0006 on both stores: a database made by the schema before accounts, holding keys with
 * usage, grants and a stored idempotent answer, is migrated, and every key then answers
 * `/v1/me/credits` and `/v1/me/usage` as it did (the new members aside), through its own one-key
 * account, and its stored answer is replayed. Migration 0011 runs too: this month's grant is a
 * grant expiring at the month's end (the same credits remaining), last month's is gone.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, it, type TestContext } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { readMigrations } from "../../src/adapters/sql-migrations.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { fingerprintOf } from "../../src/core/call/idempotency.ts";
import { issueKey } from "../../src/core/kernel/key-format.ts";
import type { Store } from "../../src/ports/store.ts";
import { adminQuery, dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { testDatabaseUrl } from "../helpers/services.ts";

const BEFORE_ACCOUNTS = 5;
const body = '{"value":4}';
const stored =
  '{"request_id":"req_1","tool":"echo","tool_version":"1.0.0","outputs":{"value":4,"doubled":8},"credits_used":3,"credits_remaining":517}';

/** Two keys as the schema before accounts held them, with their secrets. */
function oldData() {
  const suffix = randomUUID().slice(0, 8);
  const a = { id: `key_mA${suffix}`, name: "alice", ...issueKey("tr_live") };
  const b = { id: `key_mB${suffix}`, name: "bob", ...issueKey("tr_live") };
  const at = (day: number) => `2026-11-0${day}T00:00:00.000Z`;
  const statements = [
    `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at, metadata, granted_credits, granted_period)
     VALUES ('${a.id}', 'alice', 'builder', '${a.secretHash}', '${a.displayPrefix}', 500, '${at(1)}', '{"crm":"c-1"}', 20, '2026-11')`,
    `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at, metadata, granted_credits, granted_period)
     VALUES ('${b.id}', 'bob', 'free', '${b.secretHash}', '${b.displayPrefix}', NULL, '${at(1)}', '{}', 7, '2026-10')`,
    `INSERT INTO credit_balances (key_id, period, used) VALUES ('${a.id}', '2026-11', 5), ('${a.id}', '2026-10', 9), ('${b.id}', '2026-11', 2)`,
    `INSERT INTO tool_usage_monthly (key_id, period, tool, calls, active_calls, credits)
     VALUES ('${a.id}', '2026-11', 'echo', 3, 2, 5), ('${b.id}', '2026-11', 'echo', 1, 1, 2)`,
    `INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, http_status, at) VALUES
     ('c1-${suffix}', 'req_1', '${a.id}', 'echo', '2026-11', 3, 'charged', 200, '${at(2)}'),
     ('c2-${suffix}', 'req_2', '${b.id}', 'echo', '2026-11', 2, 'charged', 200, '${at(3)}'),
     ('c3-${suffix}', 'req_3', '${a.id}', 'echo', '2026-11', 2, 'charged', 200, '${at(4)}'),
     ('c4-${suffix}', 'req_4', '${a.id}', 'echo', '2026-11', 2, 'refunded', 422, '${at(5)}')`,
    `INSERT INTO idempotency_keys (key_id, idem_key, fingerprint, call_id, answer_status, answer_body, expires_at)
     VALUES ('${a.id}', 'order-1', '${fingerprintOf("echo", body)}', 'c1-${suffix}', 200, '${stored}', '2999-01-01T00:00:00.000Z')`,
  ];
  const period = { period_start: "2026-11-01T00:00:00.000Z", period_end: "2026-12-01T00:00:00.000Z" };
  const recent = (requestId: string, status: string, httpStatus: number, credits: number, day: number) => ({
    request_id: requestId,
    tool: "echo",
    status,
    http_status: httpStatus,
    credits,
    at: at(day),
  });
  /** What each key answered before the migration, at /v1/me/credits and /v1/me/usage. */
  const answers = [
    {
      key: a,
      credits: {
        plan: "builder",
        monthly_allowance: 500,
        credits_used: 5,
        monthly_remaining: 495,
        credits_remaining: 515,
        grants: [
          {
            id: `grt_m${a.id.slice(4, 19)}`,
            remaining: 20,
            expires_at: "2026-12-01T00:00:00.000Z",
            category: "promotional",
          },
        ],
        ...period,
        metering: true,
      },
      usage: {
        ...period,
        credits_used: 5,
        calls: 3,
        by_tool: [{ tool: "echo", calls: 3, credits: 5 }],
        recent: [
          recent("req_4", "refunded", 422, 0, 5),
          recent("req_3", "charged", 200, 2, 4),
          recent("req_1", "charged", 200, 3, 2),
        ],
        next_cursor: null,
      },
    },
    {
      key: b,
      credits: {
        plan: "free",
        monthly_allowance: 1000,
        credits_used: 2,
        monthly_remaining: 998,
        credits_remaining: 998,
        grants: [],
        ...period,
        metering: true,
      },
      usage: {
        ...period,
        credits_used: 2,
        calls: 1,
        by_tool: [{ tool: "echo", calls: 1, credits: 2 }],
        recent: [recent("req_2", "charged", 200, 2, 3)],
        next_cursor: null,
      },
    },
  ];
  return { statements, answers };
}

/** Migrates `store` and checks every key's answers against what it answered before. */
async function checkMigrated(t: TestContext, store: Store, data: ReturnType<typeof oldData>) {
  const applied = await store.migrate();
  assert.ok(applied.includes(6), `applied ${applied.join()}`);
  const app = await createTestApp({ store, migrate: false }, t);
  const accounts = new Set<string>();
  for (const { key, credits, usage } of data.answers) {
    const get = (url: string) => app.app.inject({ method: "GET", url, headers: bearer(key.key) });
    const readCredits = (await get("/v1/me/credits")).json();
    const { account_id: accountId, account_name: accountName, key: scope, ...rest } = readCredits;
    assert.equal(accountName, key.name);
    // Migration 0007 gives every existing key every tool, fully.
    assert.deepEqual(scope, { id: key.id, tools: null, access: "full" });
    assert.equal(accountId, `acc_${key.id.slice(4)}`);
    accounts.add(accountId);
    assert.deepEqual(rest, credits);
    const readUsage = (await get("/v1/me/usage")).json();
    assert.ok(readUsage.recent.every((r: { key_id: string }) => r.key_id === key.id));
    assert.deepEqual(
      { ...readUsage, recent: readUsage.recent.map(({ key_id: _, ...r }: { key_id: string }) => r) },
      usage,
    );
    const record = await store.getKey(key.id);
    assert.equal(record?.accountId, accountId);
    assert.equal((await store.getAccount(accountId))?.keyCount, 1);
  }
  assert.equal(accounts.size, 2, "a one-key account each");
  // The stored answer is the account's now: replayed, charging nothing.
  const [first] = data.answers;
  assert.ok(first);
  const replay = await app.app.inject({
    method: "POST",
    url: "/v1/tool/echo",
    headers: { ...json(bearer(first.key.key)), "idempotency-key": "order-1" },
    payload: body,
  });
  assert.equal(replay.statusCode, 200);
  assert.equal(replay.headers["idempotent-replayed"], "true");
  assert.equal(replay.body, stored);
  // New calls go on from the migrated balance.
  const next = await app.app.inject({
    method: "POST",
    url: "/v1/tool/echo",
    headers: json(bearer(first.key.key)),
    payload: body,
  });
  assert.equal(next.statusCode, 200, next.body);
  assert.equal(next.json().credits_remaining, 515 - next.json().credits_used);
}

describe("migration 0006: each key becomes a one-key account", () => {
  it("on SQLite", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-accounts-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "toolrun.db");
    const older = new DatabaseSync(path);
    older.exec(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const shipped = readMigrations(new URL("../../src/adapters/sqlite/migrations/", import.meta.url));
    for (const m of shipped.filter((m) => m.version <= BEFORE_ACCOUNTS)) {
      older.exec(m.sql);
      older.prepare("INSERT INTO schema_migrations VALUES (?, ?, '2026-11-01')").run(m.version, m.name);
    }
    const data = oldData();
    for (const sql of data.statements) older.exec(sql);
    older.close();
    await checkMigrated(t, createSqliteStore(path), data);
  });

  const db = testDatabaseUrl();
  it("on PostgreSQL", { skip: db.skip }, async (t) => {
    const url = db.url ?? "";
    const schema = uniqueSchema();
    t.after(() => dropSchema(url, schema));
    const shipped = readMigrations(new URL("../../src/adapters/postgres/migrations/", import.meta.url));
    const data = oldData();
    await adminQuery(
      url,
      `CREATE SCHEMA ${schema}; SET search_path = ${schema};
       CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
       ${shipped
         .filter((m) => m.version <= BEFORE_ACCOUNTS)
         .map(
           (m) =>
             `${m.sql};\nINSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name}');`,
         )
         .join("\n")}
       ${data.statements.join(";\n")};`,
    );
    await checkMigrated(t, await createPostgresStore({ url, schema }), data);
  });
});
