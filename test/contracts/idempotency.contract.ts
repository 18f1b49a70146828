/**
 * The contract of idempotent retries (docs/retries.md) every store passes, driven through
 * the real application: a tool call sent with an `Idempotency-Key` is charged once however often it
 * is retried, on one instance or several sharing a database, across restarts. Each adapter's test
 * file calls `describeIdempotencyContract` with a database that instances can open.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { rotateApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { DEFAULT_PLANS } from "../../src/core/kernel/settings.ts";
import type { Store } from "../../src/ports/store.ts";
import type { AnyToolDefinition, ToolDefinition } from "../../src/tools/tool.ts";
import { bearer, createTestApp, json, type TestApp, type TestAppOptions } from "../helpers/app.ts";
import { echoTool, fixtureTools } from "../helpers/fixture-tools.ts";
import { assertProblem } from "../helpers/problem.ts";

export interface SharedDatabase {
  /** A store on the database, as one more instance (or a restarted one) would open it. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

/** The echo tool, counting its runs: how many times a call really ran, whichever instance ran it. */
function countingTools(): { tools: readonly AnyToolDefinition[]; runs: () => number } {
  let runs = 0;
  const counted: ToolDefinition<Parameters<typeof echoTool.run>[0], ReturnType<typeof echoTool.run>> = {
    ...echoTool,
    run(input) {
      runs++;
      return echoTool.run(input);
    },
  };
  return { tools: [counted, ...fixtureTools.filter((tool) => tool.slug !== "echo")], runs: () => runs };
}

export function describeIdempotencyContract(name: string, makeDatabase: () => Promise<SharedDatabase>): void {
  describe(`Idempotency contract: ${name}`, () => {
    /** One instance of the service on the test's database; it closes when the test ends. */
    async function instance(
      t: TestContext,
      db: SharedDatabase,
      options: Omit<TestAppOptions, "store"> = {},
    ): Promise<TestApp> {
      return createTestApp({ ...options, store: await db.open() }, t);
    }

    async function database(t: TestContext): Promise<SharedDatabase> {
      const db = await makeDatabase();
      t.after(() => db.cleanup());
      return db;
    }

    /** POSTs `body` (sent as given when a string) to a tool, with the idempotency key when not null. */
    function call(
      app: TestApp,
      key: string,
      idempotencyKey: string | null,
      body: unknown,
      options: { slug?: string; requestId?: string } = {},
    ): Promise<LightMyRequestResponse> {
      const headers = json(bearer(key));
      if (idempotencyKey !== null) headers["idempotency-key"] = idempotencyKey;
      if (options.requestId !== undefined) headers["x-request-id"] = options.requestId;
      return app.app.inject({
        method: "POST",
        url: `/v1/tool/${options.slug ?? "echo"}`,
        headers,
        payload: typeof body === "string" ? body : JSON.stringify(body),
      });
    }

    async function keyIdOf(app: TestApp, secret: string): Promise<string> {
      const record = (await app.store.listKeys()).find((k) => secret.startsWith(k.displayPrefix));
      assert.ok(record);
      return record.id;
    }

    async function accountIdOf(app: TestApp, secret: string): Promise<string> {
      const record = (await app.store.listKeys()).find((k) => secret.startsWith(k.displayPrefix));
      assert.ok(record);
      return record.accountId;
    }

    async function account(app: TestApp, key: string) {
      const credits = (
        await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
      ).json();
      const usage = (
        await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) })
      ).json();
      return { creditsUsed: credits.credits_used as number, calls: usage.calls as number, usage };
    }

    /** Requests left in the key's window, from the `RateLimit` header. */
    function remaining(response: LightMyRequestResponse): number {
      const match = /;r=(\d+);/.exec(String(response.headers.ratelimit));
      assert.ok(match?.[1], `RateLimit header: ${response.headers.ratelimit}`);
      return Number(match[1]);
    }

    it("replays the first answer to a retry: same status and body, request_id included, charged once, one slot per request", async (t) => {
      const db = await database(t);
      const counted = countingTools();
      const app = await instance(t, db, { tools: counted.tools });
      const key = await app.key();
      const first = await call(app, key, "retry-1", { value: 21 }, { requestId: "first-try" });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers["idempotent-replayed"], undefined);
      assert.equal(first.json().request_id, "first-try");
      const again = await call(app, key, "retry-1", { value: 21 }, { requestId: "second-try" });
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers["idempotent-replayed"], "true");
      assert.equal(again.body, first.body);
      assert.equal(again.headers["x-request-id"], "first-try");
      assert.equal(remaining(again), remaining(first) - 1);
      assert.equal(counted.runs(), 1);
      const { creditsUsed, calls } = await account(app, key);
      assert.equal(creditsUsed, 3);
      assert.equal(calls, 1);
    });

    it("answers 422 idempotency_key_mismatch to the same key with another body or tool, charging nothing", async (t) => {
      const db = await database(t);
      const app = await instance(t, db);
      const key = await app.key();
      assert.equal((await call(app, key, "k", '{"value": 2}')).statusCode, 200);
      // Bytes, not meaning: the same JSON written differently is another body.
      for (const body of ['{"value":2}', '{"value": 3}']) {
        const mismatch = await call(app, key, "k", body);
        assertProblem(mismatch, 422, "idempotency_key_mismatch");
        assert.equal(mismatch.headers["idempotent-replayed"], undefined);
      }
      assertProblem(
        await call(app, key, "k", { text: "abc" }, { slug: "heavy-text" }),
        422,
        "idempotency_key_mismatch",
      );
      assert.equal((await call(app, key, "k", '{"value": 2}')).headers["idempotent-replayed"], "true");
      assert.deepEqual(await account(app, key).then((a) => [a.creditsUsed, a.calls]), [3, 1]);
    });

    it("runs the tool once and charges once for 50 concurrent requests with one key on three instances", async (t) => {
      const db = await database(t);
      const counted = countingTools();
      const apps = [
        await instance(t, db, { tools: counted.tools }),
        await instance(t, db, { tools: counted.tools }),
        await instance(t, db, { tools: counted.tools }),
      ];
      const [first] = apps;
      assert.ok(first);
      const key = await first.key("builder");
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(apps[i % 3] as TestApp, key, "together", { value: 7 }, { requestId: `req-${i}` }),
        ),
      );
      const ok = answers.filter((a) => a.statusCode === 200);
      const inUse = answers.filter((a) => a.statusCode === 409);
      assert.equal(ok.length + inUse.length, 50, answers.map((a) => a.statusCode).join(","));
      for (const answer of inUse) {
        assertProblem(answer, 409, "idempotency_key_in_use");
        assert.equal(answer.headers["retry-after"], "1");
      }
      assert.equal(ok.filter((a) => a.headers["idempotent-replayed"] === undefined).length, 1);
      assert.equal(new Set(ok.map((a) => a.body)).size, 1);
      assert.equal(counted.runs(), 1);
      assert.deepEqual(await account(first, key).then((a) => [a.creditsUsed, a.calls]), [3, 1]);
      // Once the first has finished, every retry gets its answer.
      const late = await call(apps[1] as TestApp, key, "together", { value: 7 });
      assert.equal(late.headers["idempotent-replayed"], "true");
      assert.equal(late.body, ok[0]?.body);
    });

    it("replays a 422, never charging it", async (t) => {
      const db = await database(t);
      const counted = countingTools();
      const app = await instance(t, db, { tools: counted.tools });
      const key = await app.key();
      const body = { value: 1, mode: "unprocessable" };
      const first = await call(app, key, "k-422", body, { requestId: "first-422" });
      const firstProblem = assertProblem(first, 422, "unprocessable_input");
      assert.equal(firstProblem.credits_used, 0);
      const again = await call(app, key, "k-422", body, { requestId: "again-422" });
      assert.deepEqual(assertProblem(again, 422, "unprocessable_input"), firstProblem);
      assert.equal(again.headers["idempotent-replayed"], "true");
      assert.equal(again.headers["x-request-id"], "first-422");
      assert.equal(counted.runs(), 1);
      assert.deepEqual(await account(app, key).then((a) => [a.creditsUsed, a.calls]), [0, 1]);
    });

    it("stores no 500: a retry with the same key after a processing_error runs again, each refunded", async (t) => {
      const db = await database(t);
      const counted = countingTools();
      const app = await instance(t, db, { tools: counted.tools });
      const key = await app.key();
      const body = { value: 1, mode: "crash" };
      const first = assertProblem(
        await call(app, key, "k-500", body, { requestId: "first-500" }),
        500,
        "processing_error",
      );
      assert.equal(first.credits_used, 0);
      const again = await call(app, key, "k-500", body, { requestId: "again-500" });
      assert.equal(assertProblem(again, 500, "processing_error").request_id, "again-500");
      assert.equal(again.headers["idempotent-replayed"], undefined);
      assert.equal(counted.runs(), 2);
      assert.deepEqual(await account(app, key).then((a) => [a.creditsUsed, a.calls]), [0, 2]);
      const usage = (await account(app, key)).usage;
      assert.deepEqual(
        usage.recent.map((c: Record<string, unknown>) => [c.status, c.http_status]),
        [
          ["refunded", 500],
          ["refunded", 500],
        ],
      );
    });

    it("stores no refusal: after a 402, a retry with the same key runs once the credits are there", async (t) => {
      const db = await database(t);
      const counted = countingTools();
      const free = { id: "free", label: "Free", rpm: 60, monthlyCredits: 2, minCredits: 2 };
      const app = await instance(t, db, { tools: counted.tools, plans: { ...DEFAULT_PLANS, free } });
      const key = await app.key("free");
      assertProblem(await call(app, key, "after-top-up", { value: 5 }), 402, "insufficient_credits");
      assertProblem(await call(app, key, "after-top-up", { value: 5 }), 402, "insufficient_credits");
      assert.equal(await app.store.updateAccount(await accountIdOf(app, key), { plan: "builder" }), true);
      const ran = await call(app, key, "after-top-up", { value: 5 });
      assert.equal(ran.statusCode, 200);
      assert.equal(ran.headers["idempotent-replayed"], undefined);
      assert.equal(counted.runs(), 1);
      assert.deepEqual(await account(app, key).then((a) => [a.creditsUsed, a.calls]), [3, 1]);
    });

    it("replays after a restart between the first request and the retry", async (t) => {
      const db = await database(t);
      const before = await instance(t, db);
      const key = await before.key();
      const first = await call(before, key, "across-restart", { value: 9 });
      assert.equal(first.statusCode, 200);
      await before.close();
      const after = await instance(t, db);
      const again = await call(after, key, "across-restart", { value: 9 });
      assert.equal(again.headers["idempotent-replayed"], "true");
      assert.equal(again.body, first.body);
      assert.deepEqual(await account(after, key).then((a) => [a.creditsUsed, a.calls]), [3, 1]);
    });

    it("forgets a key after TOOLRUN_IDEMPOTENCY_TTL_S: the next request with it runs, and the sweep purges it", async (t) => {
      const db = await database(t);
      const app = await instance(t, db, { idempotencyTtlS: 60 });
      const key = await app.key();
      assert.equal((await call(app, key, "short-lived", { value: 1 })).statusCode, 200);
      app.clock.advance(59_000);
      assert.equal(
        (await call(app, key, "short-lived", { value: 1 })).headers["idempotent-replayed"],
        "true",
      );
      assert.equal(await app.store.purgeExpiredAnswers(app.clock.now().toISOString()), 0);
      app.clock.advance(1_000);
      const reused = await call(app, key, "short-lived", { value: 2 });
      assert.equal(reused.statusCode, 200);
      assert.equal(reused.headers["idempotent-replayed"], undefined);
      assert.deepEqual(await account(app, key).then((a) => [a.creditsUsed, a.calls]), [6, 2]);
      app.clock.advance(60_000);
      assert.equal(await app.store.purgeExpiredAnswers(app.clock.now().toISOString()), 1);
      const afterPurge = await call(app, key, "short-lived", { value: 2 });
      assert.equal(afterPurge.headers["idempotent-replayed"], undefined);
      assert.deepEqual(await account(app, key).then((a) => [a.creditsUsed, a.calls]), [9, 3]);
    });

    it("keeps each account's keys apart, and an account's keys through a rotation of its secret", async (t) => {
      const db = await database(t);
      const app = await instance(t, db);
      const alice = await app.key();
      const bob = await app.key();
      const a = await call(app, alice, "shared-name", { value: 1 });
      const b = await call(app, bob, "shared-name", { value: 2 });
      assert.deepEqual([a.statusCode, b.statusCode], [200, 200]);
      assert.equal(b.headers["idempotent-replayed"], undefined);
      assert.equal(b.json().outputs.doubled, 4);
      assert.deepEqual(await account(app, alice).then((x) => [x.creditsUsed, x.calls]), [3, 1]);
      assert.deepEqual(await account(app, bob).then((x) => [x.creditsUsed, x.calls]), [3, 1]);
      const rotated = (await rotateApiKey(app.deps, cliActor("test"), await keyIdOf(app, alice))).key;
      assertProblem(await call(app, alice, "shared-name", { value: 1 }), 401, "invalid_api_key");
      const replay = await call(app, rotated, "shared-name", { value: 1 });
      assert.equal(replay.headers["idempotent-replayed"], "true");
      assert.equal(replay.body, a.body);
    });

    it("keeps the ledger's own call ids: two calls sent with one x-request-id, on two keys, are two calls each", async (t) => {
      const db = await database(t);
      const app = await instance(t, db);
      const keys = [await app.key(), await app.key()];
      for (const key of keys) {
        for (const idempotencyKey of [null, "one", "two"]) {
          const answer = await call(app, key, idempotencyKey, { value: 1 }, { requestId: "same-id" });
          assert.equal(answer.statusCode, 200);
          assert.equal(answer.headers["idempotent-replayed"], undefined);
        }
      }
      for (const key of keys) {
        const { creditsUsed, calls, usage } = await account(app, key);
        assert.deepEqual([creditsUsed, calls], [9, 3]);
        assert.deepEqual(
          usage.recent.map((c: { request_id: string; status: string }) => [c.request_id, c.status]),
          [
            ["same-id", "charged"],
            ["same-id", "charged"],
            ["same-id", "charged"],
          ],
        );
      }
    });
  });
}
