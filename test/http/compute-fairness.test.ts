/**
 * What a client hears when the compute offload has no room for its large call: 429
 * `too_many_large_calls` when its key already holds its share, 503 `server_busy` when the queue is
 * full, both at once, with `Retry-After`, charging nothing; and a call the abandon sweep refunded
 * while it waited answers what happened (503 `backend_unavailable` saying so), not that the database is down. The
 * offload runs on the test's thread, its tasks held by the test (test/helpers/offload.ts).
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { setImmediate } from "node:timers/promises";
import { createSameThreadOffload } from "../../src/adapters/compute/same-thread.ts";
import createRunner from "../../src/core/call/compute-runner.ts";
import type { ComputeAnswer, ComputeLimits, ComputeTask } from "../../src/ports/compute-offload.ts";
import type { Store } from "../../src/ports/store.ts";
import { bearer, createTestApp, json, type TestApp } from "../helpers/app.ts";
import { FIXTURE_TOOLS, watchedOffload } from "../helpers/offload.ts";
import { assertProblem } from "../helpers/problem.ts";
import { storesToTest } from "../helpers/stores.ts";

/** Every echo call goes to an offload whose tasks wait for the test to finish them, one by one. */
async function heldApp(t: TestContext, limits: ComputeLimits) {
  const finishers: (() => void)[] = [];
  const runner = await createRunner(FIXTURE_TOOLS);
  const offload = createSameThreadOffload({
    minBytes: 0,
    limits,
    runner: (task) =>
      new Promise<ComputeAnswer>((resolve) => {
        finishers.push(() => resolve(runner(task)));
      }),
  });
  t.after(() => offload.close());
  const app = await createTestApp({ offload }, t);
  return {
    app,
    /** How many tasks have started running, or wait to. */
    started: () => finishers.length,
    finishAll: async () => {
      while (finishers.length > 0) {
        finishers.shift()?.();
        await setImmediate();
      }
    },
  };
}

const echo = (app: TestApp, key: string, value: number) =>
  app.app.inject({
    method: "POST",
    url: "/v1/tool/echo",
    headers: json(bearer(key)),
    payload: JSON.stringify({ value }),
  });

const creditsUsed = async (app: TestApp, key: string) =>
  (await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json().credits_used;

// A refusal that never comes would leave a test waiting: it fails instead.
describe("large calls the compute offload has no room for", { timeout: 30_000 }, () => {
  it("a key past its share answers 429 too_many_large_calls with Retry-After, charged nothing, while another key's call goes on", async (t) => {
    const { app, started, finishAll } = await heldApp(t, {
      perOwner: 2,
      queuedTasks: 8,
      queuedBytes: 1 << 20,
    });
    const greedy = await app.key("builder");
    const other = await app.key("builder");
    const held = [echo(app, greedy, 1), echo(app, greedy, 2)];
    while (started() < 1) await setImmediate();
    const refused = await echo(app, greedy, 3);
    const body = assertProblem(refused, 429, "too_many_large_calls");
    assert.match(String(body.detail), /already has 2 large calls waiting or running/);
    const retryAfter = Number(refused.headers["retry-after"]);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1,
      `Retry-After: ${refused.headers["retry-after"]}`,
    );
    assert.equal(body.retry_after, retryAfter);
    const otherCall = echo(app, other, 4);
    await setImmediate();
    await finishAll();
    for (const res of await Promise.all([...held, otherCall])) assert.equal(res.statusCode, 200, res.body);
    // The two calls that ran, at 3 credits each; the refused one cost nothing.
    assert.equal(await creditsUsed(app, greedy), 6);
  });

  it("fifty retries of a large call still running, with its Idempotency-Key, answer 409 idempotency_key_in_use, not 429, and never queue", async (t) => {
    const { app, started, finishAll } = await heldApp(t, {
      perOwner: 2,
      queuedTasks: 8,
      queuedBytes: 1 << 20,
    });
    /** `answers` once the offload has finished every task it took meanwhile. */
    const finishing = async <T>(answers: Promise<T>): Promise<T> => {
      let settled = false;
      answers.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled) {
        await finishAll();
        await setImmediate();
      }
      return answers;
    };
    const key = await app.key("builder");
    const send = () =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "idempotency-key": "one-large-call" }),
        payload: JSON.stringify({ value: 7 }),
      });
    const first = send();
    while (started() < 1) await setImmediate();
    const retries = Promise.all(Array.from({ length: 50 }, send));
    await setImmediate();
    assert.equal(started(), 1, "no retry reached the offload");
    for (const retry of await finishing(retries)) {
      assertProblem(retry, 409, "idempotency_key_in_use");
      assert.equal(retry.headers["retry-after"], "1");
    }
    const answered = await finishing(first);
    assert.equal(answered.statusCode, 200, answered.body);
    const replay = await finishing(send());
    assert.equal(replay.headers["idempotent-replayed"], "true");
    assert.equal(replay.body, answered.body);
    assert.equal(await creditsUsed(app, key), 3);
  });

  it("a full queue answers 503 server_busy with Retry-After, charged nothing", async (t) => {
    const { app, started, finishAll } = await heldApp(t, {
      perOwner: 2,
      queuedTasks: 1,
      queuedBytes: 1 << 20,
    });
    const keys = await Promise.all([1, 2, 3].map(() => app.key("builder")));
    const [first, second, third] = keys as [string, string, string];
    const held = [echo(app, first, 1), echo(app, second, 2)];
    while (started() < 1) await setImmediate();
    await setImmediate();
    const refused = await echo(app, third, 3);
    const body = assertProblem(refused, 503, "server_busy");
    assert.match(String(body.detail), /As many large calls are waiting as the service queues/);
    assert.ok(Number(refused.headers["retry-after"]) >= 1);
    assert.equal(body.retry_after, undefined);
    await finishAll();
    for (const res of await Promise.all(held)) assert.equal(res.statusCode, 200, res.body);
    assert.equal(await creditsUsed(app, third), 0);
  });
});

describe("a call the abandon sweep refunded while it waited", () => {
  const postgres = storesToTest().find((s) => s.name === "PostgreSQL");
  it("answers 503 backend_unavailable saying it took too long, not that the database is down, and stays refunded (PostgreSQL)", {
    skip: postgres === undefined && "TOOLRUN_TEST_DATABASE_URL is not set",
  }, async (t) => {
    const store: Store = await (postgres as NonNullable<typeof postgres>).make();
    const offload = watchedOffload(t);
    const app = await createTestApp({ store, offload }, t);
    const key = await app.key("builder");
    // With an Idempotency-Key the call is reserved before it runs: its run waits here.
    const run = offload.hold("in-turn", (task: ComputeTask) => task.run);
    const call = app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json({ ...bearer(key), "idempotency-key": "swept-while-waiting" }),
      payload: JSON.stringify({ value: 7 }),
    });
    await run.reached;
    const later = new Date(app.clock.now().getTime() + 60_000).toISOString();
    assert.equal(await store.refundAbandoned?.(later), 1);
    run.open();
    const res = await call;
    const body = assertProblem(res, 503, "backend_unavailable");
    assert.match(String(body.detail), /took longer than the service allows/);
    assert.doesNotMatch(String(body.detail), /database/);
    assert.equal(res.headers["retry-after"], "1");
    assert.equal(await creditsUsed(app, key), 0);
  });
});
