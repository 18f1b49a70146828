/**
 * In process: backend faults and hostile values that reach the store or the plans (docs/errors.md).
 * Each case runs on every store the machine offers.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { parseKeyCreate } from "../../src/core/admin/input.ts";
import { DEFAULT_CREDIT_ALERTS } from "../../src/core/kernel/credit-alerts.ts";
import { planOf } from "../../src/core/kernel/credits.ts";
import { ApiError } from "../../src/core/kernel/errors.ts";
import { DEFAULT_PLANS, type ServiceSettings } from "../../src/core/kernel/settings.ts";
import type { Store } from "../../src/ports/store.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { storesToTest } from "../helpers/stores.ts";

const stores = storesToTest();

const encode = (text: string) => Buffer.from(text).toString("base64url");

for (const { name, make } of stores) {
  describe(`a forged usage cursor on ${name}`, () => {
    it("is a 400 naming cursor, over HTTP and MCP get_usage alike", async (context) => {
      const t = await createTestApp({ store: await make() }, context);
      const k = await t.key();
      for (const cursor of [
        encode("u1:9999999999999999999"),
        encode("u1:9223372036854775808"),
        "u1:9999999999999999999",
      ]) {
        const res = await t.app.inject({
          method: "GET",
          url: `/v1/me/usage?cursor=${encodeURIComponent(cursor)}`,
          headers: bearer(k),
        });
        const problem = assertProblem(res, 400, "validation_error");
        assert.deepEqual(problem.fields, { cursor: "is not a valid cursor" });
      }
      const mcp = await t.app.inject({
        method: "POST",
        url: "/mcp",
        headers: {
          ...json(bearer(k)),
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        payload: {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "get_usage", arguments: { cursor: encode("u1:9999999999999999999") } },
        },
      });
      const result = mcp.json().result;
      assert.equal(result?.isError, true, mcp.body);
      assert.equal(result._meta?.["toolrun/problem"]?.code, "validation_error", mcp.body);
    });
  });
}

describe("another process holding the SQLite file's write lock", () => {
  const withFile = async (run: (path: string) => Promise<void>) => {
    const dir = mkdtempSync(join(tmpdir(), "toolrun-lock-"));
    try {
      await run(join(dir, "toolrun.db"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("does not stop the event loop: /healthz answers while a call waits, and the call runs once the lock is free", async (context) => {
    await withFile(async (path) => {
      const store = createSqliteStore(path, { busyTimeoutMs: 0, lockWaitMs: 60_000 });
      // Tells the test when the call has reached the ledger (and so meets the lock).
      const runCall = store.runCall.bind(store);
      let reachedLedger: () => void = () => {};
      const atLedger = new Promise<void>((resolve) => {
        reachedLedger = resolve;
      });
      const watched: Store = {
        ...store,
        runCall: (r, work) => {
          reachedLedger();
          return runCall(r, work);
        },
      };
      const t = await createTestApp({ store: watched }, context);
      const k = await t.key();
      const other = new DatabaseSync(path);
      other.exec("BEGIN IMMEDIATE");
      let answered = false;
      const call = t.app
        .inject({ method: "POST", url: "/v1/tool/echo", headers: json(bearer(k)), payload: { value: 2 } })
        .finally(() => {
          answered = true;
        });
      await atLedger;
      // Lets the write queue try the lock (it flushes on the next turn of the event loop).
      await sleep(20);
      const health = await t.app.inject({ method: "GET", url: "/healthz" });
      assert.equal(health.statusCode, 200);
      const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(k) });
      assert.equal(credits.statusCode, 200);
      assert.equal(answered, false, "the call waits for the lock without holding the event loop");
      other.exec("COMMIT");
      other.close();
      const res = await call;
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(res.json().credits_used > 0);
    });
  });

  it("answers 503 backend_unavailable to a call that cannot get the lock in time, charging nothing", async (context) => {
    await withFile(async (path) => {
      const store = createSqliteStore(path, { busyTimeoutMs: 0, lockWaitMs: 50 });
      const t = await createTestApp({ store }, context);
      const k = await t.key();
      const other = new DatabaseSync(path);
      other.exec("BEGIN IMMEDIATE");
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(k)),
        payload: { value: 2 },
      });
      other.exec("ROLLBACK");
      other.close();
      assertProblem(res, 503, "backend_unavailable");
      assert.equal(res.headers["retry-after"], "1");
      const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(k) });
      assert.equal(credits.json().credits_used, 0);
    });
  });
});

describe("plan names that Object.prototype also has", () => {
  const settings: ServiceSettings = {
    plans: DEFAULT_PLANS,
    tools: {},
    metering: true,
    keyPrefix: "tr_live",
    docsUrl: "http://toolrun.test/docs",
    allowedOrigins: [],
    idempotencyTtlS: 86_400,
    publicUrl: "http://toolrun.test",
    captureTtlS: 86_400,
    adminKeyPrefix: "tr_admin",
    adminRpm: 600,
    syncTimeoutS: 120,
    jobTtlS: 86_400,
    alerts: DEFAULT_CREDIT_ALERTS,
  };
  for (const plan of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    it(`"${plan}" is no plan: a key cannot be created on it`, () => {
      assert.throws(
        () => parseKeyCreate({ plan, name: "x" }, settings, () => true),
        (error: unknown) =>
          error instanceof ApiError &&
          error.code === "validation_error" &&
          error.message === "Unknown plan." &&
          !JSON.stringify(error.extras).includes(plan),
      );
    });
  }

  it("a stored key on such a plan is priced and limited as the free plan", () => {
    const key = {
      id: "k",
      name: "",
      accountId: "acc_x",
      accountName: "x",
      plan: "constructor",
      displayPrefix: "tr_live_x",
      monthlyAllowance: null,
      createdAt: "2026-11-01T00:00:00.000Z",
      revokedAt: null,
      expiresAt: null,
      metadata: {},
      previousDisplayPrefix: null,
      previousSecretExpiresAt: null,
      tools: null,
      access: "full" as const,
    };
    assert.deepEqual(planOf(key, settings), DEFAULT_PLANS.free);
  });
});
