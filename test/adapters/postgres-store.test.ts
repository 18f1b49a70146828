/**
 * The PostgreSQL Store: the shared contract (pool of 10, as in production) plus what only this
 * adapter has: migrations, schema-not-ready and connection failures, recovery of the pool.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client } from "pg";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { readMigrations } from "../../src/adapters/sql-migrations.ts";
import { BackendUnavailableError, InvalidCursorError, SchemaNotReadyError } from "../../src/ports/errors.ts";
import { describeIdempotencyContract } from "../contracts/idempotency.contract.ts";
import { describeStoreContract, newKey, reservation, rotation } from "../contracts/store.contract.ts";
import { describeWriteProbeContract } from "../contracts/store-write-probe.contract.ts";
import { testDatabaseUrl, uniqueName } from "../helpers/services.ts";
import { adminQuery, dropSchema, uniqueSchema, withLedgerSteps } from "./postgres-fixture.ts";

/**
 * A migrated store in `schema` where writing a `charged` usage row of the tool "boom" fails with
 * `message`: by an UPDATE (a settlement) or an INSERT (a call's one statement).
 */
async function storeFailingCharges(schema: string, event: "UPDATE" | "INSERT", message: string) {
  const url = testDatabaseUrl().url ?? "";
  const store = await createPostgresStore({ url, schema, poolSize: 2 });
  await store.migrate();
  await adminQuery(
    url,
    `CREATE FUNCTION ${schema}.refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $fn$
     BEGIN RAISE EXCEPTION '${message}'; END $fn$;
     CREATE TRIGGER refuse_boom BEFORE ${event} ON ${schema}.usage_calls FOR EACH ROW
     WHEN (NEW.status = 'charged' AND NEW.tool = 'boom') EXECUTE FUNCTION ${schema}.refuse_boom()`,
  );
  return store;
}

// Nothing listens on port 1: the connection is refused at once.
const CLOSED = "postgres://postgres@127.0.0.1:1/test";

describe("PostgreSQL store without a database", () => {
  it("rejects every call with BackendUnavailableError, quickly", async () => {
    const store = withLedgerSteps(await createPostgresStore({ url: CLOSED, connectTimeoutMs: 1000 }));
    try {
      const started = Date.now();
      const calls: [string, () => Promise<unknown>][] = [
        ["getKey", () => store.getKey("k")],
        ["reserve", () => store.reserve(reservation("k"))],
        ["usage", () => store.usage({ accountId: "k", period: "2026-11", limit: 1, cursor: null })],
        ["refund", () => store.refund("c", 422)],
        ["migrate", () => store.migrate()],
        ["isMigrated", () => store.isMigrated()],
        ["ping", () => store.ping()],
      ];
      for (const [name, call] of calls) {
        await assert.rejects(call(), BackendUnavailableError, name);
      }
      assert.ok(Date.now() - started < 3000, "failed fast");
    } finally {
      await store.close();
    }
  });

  it("refuses a schema name it cannot put in SQL safely", async () => {
    await assert.rejects(createPostgresStore({ url: CLOSED, schema: "x; DROP TABLE y" }), TypeError);
  });
});

const db = testDatabaseUrl();
if (db.url === undefined) {
  it("PostgreSQL store", { skip: db.skip }, () => {});
} else {
  const url = db.url;

  describeStoreContract("postgres", async () => {
    const schema = uniqueSchema();
    const store = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 10 }));
    await store.migrate();
    return {
      store,
      async cleanup() {
        await store.close();
        await dropSchema(url, schema);
      },
    };
  });

  describeIdempotencyContract("postgres", async () => {
    const schema = uniqueSchema();
    return {
      open: () => createPostgresStore({ url, schema, poolSize: 10 }),
      cleanup: () => dropSchema(url, schema),
    };
  });

  describeWriteProbeContract("postgres with a role that may only read", async () => {
    const schema = uniqueSchema();
    const role = uniqueName("t_reader").toLowerCase();
    const writable = await createPostgresStore({ url, schema, poolSize: 2 });
    await writable.migrate();
    await adminQuery(url, `CREATE ROLE ${role} LOGIN`);
    await adminQuery(url, `GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
    await adminQuery(url, `GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
    const readerUrl = new URL(url);
    readerUrl.username = role;
    const readOnly = await createPostgresStore({ url: readerUrl.href, schema, poolSize: 2, keyCache: false });
    return {
      writable,
      readOnly,
      async cleanup() {
        await readOnly.close();
        await writable.close();
        await dropSchema(url, schema);
        await adminQuery(url, `DROP OWNED BY ${role}`);
        await adminQuery(url, `DROP ROLE ${role}`);
      },
    };
  });

  describe("PostgreSQL store", () => {
    it("refuses to read credits past Number.MAX_SAFE_INTEGER rather than answer a rounded figure", async () => {
      const schema = uniqueSchema();
      const store = await createPostgresStore({ url, schema, keyCache: false });
      try {
        await store.migrate();
        const key = newKey();
        await store.createKey(key);
        await adminQuery(
          url,
          `INSERT INTO ${schema}.credit_balances VALUES ($1, '2026-11', $2), ($1, '2026-12', $3)`,
          [key.accountId, String(Number.MAX_SAFE_INTEGER), "9007199254740993"],
        );
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), Number.MAX_SAFE_INTEGER);
        await assert.rejects(store.creditsUsed(key.accountId, "2026-12"), RangeError);
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("is not migrated on a fresh schema, and its calls reject with SchemaNotReadyError", async () => {
      const schema = uniqueSchema();
      await adminQuery(url, `CREATE SCHEMA ${schema}`);
      const store = withLedgerSteps(await createPostgresStore({ url, schema }));
      try {
        assert.equal(await store.isMigrated(), false);
        await assert.rejects(store.creditsUsed("k", "2026-11"), SchemaNotReadyError);
        await assert.rejects(store.reserve(reservation("k")), SchemaNotReadyError);
        await assert.rejects(store.findKeyByHash("h"), SchemaNotReadyError);
        await store.ping();
        // The same pool works once the schema is there (no stale prepared statement).
        await store.migrate();
        assert.equal(await store.isMigrated(), true);
        assert.equal(await store.creditsUsed("k", "2026-11"), 0);
        const key = newKey();
        await store.createKey(key);
        assert.equal((await store.reserve(reservation(key.id, { credits: 1 }))).ok, true);
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("upgrades a schema made before rotation graces: its keys keep working and can be rotated with one", async () => {
      const schema = uniqueSchema();
      const shipped = readMigrations(new URL("../../src/adapters/postgres/migrations/", import.meta.url));
      const older = shipped.filter((m) => m.version <= 2);
      const key = newKey();
      await adminQuery(
        url,
        `CREATE SCHEMA ${schema}; SET search_path = ${schema};
         CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
         ${older.map((m) => `${m.sql};\nINSERT INTO schema_migrations (version, name) VALUES (${m.version}, '${m.name}');`).join("\n")}
         INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, created_at)
         VALUES ('${key.id}', 'old', 'free', '${key.secretHash}', 'tr_live_abcd', now());`,
      );
      const store = await createPostgresStore({ url, schema, keyCache: false });
      try {
        assert.deepEqual(
          await store.migrate(),
          shipped.filter((m) => m.version > 2).map((m) => m.version),
        );
        assert.equal((await store.findKeyByHash(key.secretHash))?.matched, "current");
        const until = "2026-11-02T00:00:00.000Z";
        assert.equal(await store.rotateKey(key.id, rotation(`hash-${key.id}-new`, until)), true);
        assert.equal((await store.findKeyByHash(key.secretHash))?.previousSecretExpiresAt, until);
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("creates a missing schema, and concurrent migrators apply each version once", async () => {
      const schema = uniqueSchema();
      const stores = await Promise.all(
        Array.from({ length: 4 }, () => createPostgresStore({ url, schema, poolSize: 2 })),
      );
      try {
        await Promise.all(stores.map((s) => s.migrate()));
        const rows = await adminQuery(
          url,
          `SELECT version FROM ${schema}.schema_migrations ORDER BY version`,
        );
        const shipped = readMigrations(new URL("../../src/adapters/postgres/migrations/", import.meta.url));
        assert.deepEqual(
          rows,
          shipped.map((m) => ({ version: m.version })),
        );
        for (const s of stores) assert.equal(await s.isMigrated(), true);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
        await dropSchema(url, schema);
      }
    });

    it("stores only the secret's hash, under a unique constraint", async () => {
      const schema = uniqueSchema();
      const store = withLedgerSteps(await createPostgresStore({ url, schema }));
      try {
        await store.migrate();
        const key = newKey();
        await store.createKey(key);
        await assert.rejects(store.createKey(newKey({ secretHash: key.secretHash })), /unique/i);
        const columns = await adminQuery(
          url,
          "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'api_keys'",
          [schema],
        );
        const names = columns.map((c) => (c as { column_name: string }).column_name);
        assert.ok(names.includes("secret_hash"));
        assert.ok(!names.some((n) => n === "secret" || n === "key"));
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("two instances on one database never overspend, and refunds interleave without deadlock", async () => {
      const schema = uniqueSchema();
      const a = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 10 }));
      const b = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 10 }));
      try {
        await a.migrate();
        const key = newKey();
        await a.createKey(key);
        const limits = { credits: 3, allowance: 100, monthlyCallCap: 40 };
        const outcomes = await Promise.all(
          Array.from({ length: 60 }, async (_, i) => {
            const store = i % 2 === 0 ? a : b;
            const r = reservation(key.id, { ...limits, tool: i % 3 === 0 ? "calc" : "inspect" });
            const outcome = await store.reserve(r);
            // Every third admitted call is refunded at once, freeing room for others.
            if (outcome.ok && i % 3 === 0) await (i % 2 === 0 ? b : a).refund(r.callId, 422);
            else if (outcome.ok) await store.settle(r.callId, 200);
            return outcome;
          }),
        );
        const used = await a.creditsUsed(key.accountId, "2026-11");
        assert.ok(used <= 100, `used ${used}`);
        const report = await b.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 100,
          cursor: null,
        });
        assert.equal(report.creditsUsed, used);
        assert.equal(report.calls, outcomes.filter((o) => o.ok).length);
        const charged = report.recent.filter((c) => c.status === "charged");
        assert.equal(
          charged.reduce((sum, c) => sum + c.credits, 0),
          used,
        );
        assert.equal(
          report.byTool.reduce((sum, t) => sum + t.credits, 0),
          used,
        );
      } finally {
        await a.close();
        await b.close();
        await dropSchema(url, schema);
      }
    });

    it("first-ever reservations of a key racing each other create each row once and never overspend", async () => {
      const schema = uniqueSchema();
      const store = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 10 }));
      try {
        await store.migrate();
        // Nothing exists for the key yet: every call races to insert the counter and balance rows.
        const key = newKey();
        await store.createKey(key);
        const tools = ["t1", "t2", "t3", "t4"];
        const limits = { credits: 2, allowance: 20, monthlyCallCap: 3 };
        const outcomes = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            store.reserve(reservation(key.id, { ...limits, tool: tools[i % tools.length] })),
          ),
        );
        // 4 tools x cap 3 = 12 calls allowed by the caps, 20 / 2 = 10 by the allowance.
        assert.equal(outcomes.filter((o) => o.ok).length, 10);
        for (const o of outcomes) {
          assert.ok("creditsUsed" in o && o.creditsUsed >= 0 && o.creditsUsed <= 20, JSON.stringify(o));
        }
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 20);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 100,
          cursor: null,
        });
        assert.equal(report.creditsUsed, 20);
        assert.equal(report.calls, 10);
        assert.equal(report.recent.length, 10);
        for (const t of report.byTool) {
          // A refusal that created a tool's row removes it again: no tool is listed with 0 calls.
          assert.ok(t.calls >= 1 && t.calls <= 3, JSON.stringify(t));
          assert.equal(t.credits, t.calls * 2);
        }
        assert.equal(
          report.byTool.reduce((sum, t) => sum + t.calls, 0),
          10,
        );
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("a refusal for credits leaves no trace, on a new row or an existing one, under concurrency", async () => {
      const schema = uniqueSchema();
      const store = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 10 }));
      try {
        await store.migrate();
        const fresh = newKey();
        await store.createKey(fresh);
        // Each call costs more than the whole allowance: all refused, racing on rows none of them keeps.
        const refused = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.reserve(reservation(fresh.id, { credits: 5, allowance: 4, tool: i % 2 ? "a" : "b" })),
          ),
        );
        for (const o of refused)
          assert.deepEqual(o, { ok: false, reason: "insufficient_credits", creditsUsed: 0, grantsLeft: 0 });
        assert.deepEqual(
          await store.usage({ accountId: fresh.accountId, period: "2026-11", limit: 10, cursor: null }),
          {
            creditsUsed: 0,
            calls: 0,
            byTool: [],
            recent: [],
            nextCursor: null,
          },
        );

        // An existing counter row is put back exactly as it was.
        const used = newKey();
        await store.createKey(used);
        assert.equal((await store.reserve(reservation(used.id, { credits: 8, allowance: 10 }))).ok, true);
        const more = await Promise.all(
          Array.from({ length: 10 }, () =>
            store.reserve(reservation(used.id, { credits: 3, allowance: 10 })),
          ),
        );
        for (const o of more)
          assert.deepEqual(o, { ok: false, reason: "insufficient_credits", creditsUsed: 8, grantsLeft: 0 });
        const report = await store.usage({
          accountId: used.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual(report.byTool, [{ tool: "calc", calls: 1, credits: 8 }]);
        assert.equal(report.creditsUsed, 8);
        // The cap is checked first, as before: a call over both limits is a tier_limit.
        assert.deepEqual(
          await store.reserve(reservation(used.id, { credits: 3, allowance: 10, monthlyCallCap: 1 })),
          { ok: false, reason: "tier_limit", creditsUsed: 8, grantsLeft: 0 },
        );
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("refunds a call with an idempotency key whose settlement fails, and rejects it, so no result goes out uncharged", async () => {
      const schema = uniqueSchema();
      const store = await storeFailingCharges(schema, "UPDATE", "settlement lost");
      try {
        const key = newKey();
        await store.createKey(key);
        const kept = await store.runCall(reservation(key.id, { credits: 2 }), () => ({ ok: true, value: 1 }));
        assert.equal(kept.status, "charged");
        const idempotency = { key: "k1", fingerprint: "f1", expiresAt: "2099-01-01T00:00:00.000Z" };
        const lost = reservation(key.id, { credits: 3, tool: "boom", idempotency });
        await assert.rejects(
          store.runCall(
            lost,
            () => ({ ok: true, value: 2 }),
            () => ({ status: 200, body: "{}" }),
          ),
          /settlement lost/,
        );
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 2);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        const call = report.recent.find((c) => c.callId === lost.callId);
        assert.deepEqual([call?.status, call?.httpStatus, call?.credits], ["refunded", 503, 0]);
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("rejects only the failing call of a batch whose statement fails, keeping the others of its moment", async () => {
      const schema = uniqueSchema();
      const store = await storeFailingCharges(schema, "INSERT", "charge lost");
      try {
        const key = newKey();
        await store.createKey(key);
        // Queued in one turn: one statement for the five, which fails, then one statement each.
        const tools = ["calc", "calc", "boom", "calc", "other"];
        const settled = await Promise.allSettled(
          tools.map((tool, i) =>
            store.runCall(reservation(key.id, { credits: 1, tool }), () => ({ ok: true, value: i })),
          ),
        );
        assert.deepEqual(
          settled.map((s) => (s.status === "fulfilled" ? s.value.status : String(s.reason))),
          ["charged", "charged", "error: charge lost", "charged", "charged"],
        );
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.equal(report.calls, 4);
        assert.deepEqual(
          report.byTool.map((t) => [t.tool, t.calls, t.credits]),
          [
            ["calc", 3, 3],
            ["other", 1, 1],
          ],
        );
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("rejects a cursor it did not issue", async () => {
      const schema = uniqueSchema();
      const store = withLedgerSteps(await createPostgresStore({ url, schema }));
      try {
        await store.migrate();
        await assert.rejects(
          store.usage({ accountId: "k", period: "2026-11", limit: 5, cursor: "not-a-seq" }),
          InvalidCursorError,
        );
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("rejects a call whose connection dies mid-statement with BackendUnavailableError", async () => {
      const schema = uniqueSchema();
      const applicationName = uniqueName("toolrun_test");
      const store = withLedgerSteps(await createPostgresStore({ url, schema, applicationName }));
      const blocker = new Client({ connectionString: url });
      try {
        await store.migrate();
        const key = newKey();
        await store.createKey(key);
        await store.reserve(reservation(key.id, { credits: 1 }));
        await blocker.connect();
        // Hold the balance row so the next reserve waits inside its transaction.
        await blocker.query("BEGIN");
        await blocker.query(`SELECT used FROM ${schema}.credit_balances WHERE account_id = $1 FOR UPDATE`, [
          key.accountId,
        ]);
        // Settled into a value at once: the rejection arrives while the test is still killing.
        const pending = store.reserve(reservation(key.id, { credits: 1 })).then(
          () => null,
          (err: unknown) => err,
        );
        const waiting = `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`;
        for (let i = 0; i < 100 && (await blocker.query(waiting, [applicationName])).rowCount === 0; i++) {
          await new Promise((r) => setTimeout(r, 10));
        }
        await blocker.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
          [applicationName],
        );
        assert.ok((await pending) instanceof BackendUnavailableError);
        await blocker.query("ROLLBACK");
        // Nothing of the killed transaction remains, and the pool serves the next call.
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 1);
      } finally {
        await blocker.end();
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("survives the server killing its connections, and carries on", async () => {
      const schema = uniqueSchema();
      const applicationName = uniqueName("toolrun_test");
      const idleErrors: Error[] = [];
      const store = withLedgerSteps(
        await createPostgresStore({
          url,
          schema,
          applicationName,
          poolSize: 3,
          onError: (err) => idleErrors.push(err),
        }),
      );
      try {
        await store.migrate();
        // Open several connections, then leave them idle in the pool.
        await Promise.all([store.ping(), store.ping(), store.ping()]);
        const killed = await adminQuery(
          url,
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
          [applicationName],
        );
        assert.ok(killed.length >= 1);
        // Each idle client's error reaches the pool's listener instead of crashing the process, and
        // the pool drops that client (until then it could still hand it out once).
        for (let i = 0; i < 100 && idleErrors.length < killed.length; i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        assert.equal(idleErrors.length, killed.length, "every killed idle client is reported to onError");
        await store.ping();
        assert.equal(await store.isMigrated(), true);
      } finally {
        await store.close();
        await dropSchema(url, schema);
      }
    });
  });
}
