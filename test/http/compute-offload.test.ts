/**
 * Large calls computed on a worker thread (src/compute/) answer exactly what the main thread
 * answers: the same envelope byte for byte, the same 400s, 402, 422 and 500 with the same refunds,
 * in the same order of checks; and the pool closes without hanging.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { getPriority } from "node:os";
import { describe, it, type TestContext } from "node:test";
import { setTimeout } from "node:timers/promises";
import { githubPushNear } from "../../bench/lib/payloads.ts";
import { createComputePool } from "../../src/compute/pool.ts";
import type { ApiError } from "../../src/core/errors.ts";
import type { ComputeOffload } from "../../src/core/offload.ts";
import { tools } from "../../src/tools/index.ts";
import { bearer, createTestApp, json, type TestApp, type TestAppOptions } from "../helpers/app.ts";
import { echoTool, heavyTool } from "../helpers/fixture-tools.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { assertProblem } from "../helpers/problem.ts";

const FIXTURES = {
  toolsModule: new URL("../helpers/fixture-tools.ts", import.meta.url).href,
  toolsExport: "fixtureTools",
};

/** A pool of the fixture tools that takes every call, however small. */
function fixturePool(t: TestContext): ComputeOffload {
  const pool = createComputePool({ tools: FIXTURES, minBytes: 0 });
  t.after(() => pool.close());
  return pool;
}

/**
 * An app whose large calls go to the fixture pool, recording what the worker is asked to do
 * (validate or run) and how many times the echo tool ran on the main thread.
 */
async function watchedApp(t: TestContext) {
  const pool = fixturePool(t);
  const asked: string[] = [];
  const recording: ComputeOffload = {
    minBytes: pool.minBytes,
    call(slug, raw, run, signal) {
      asked.push(run ? "run" : "validate");
      return pool.call(slug, raw, run, signal);
    },
    close: () => pool.close(),
  };
  let runs = 0;
  const echo = {
    ...echoTool,
    run: (input: Parameters<typeof echoTool.run>[0]) => {
      runs++;
      return echoTool.run(input);
    },
  };
  const app = await createTestApp({ offload: recording, tools: [echo, heavyTool] }, t);
  return { app, asked, mainThreadRuns: () => runs };
}

/** Sends echo calls to the app over a real connection, which a test can cut. */
async function echoOverHttp(app: TestApp, key: string): Promise<(body: string) => ClientRequest> {
  const url = await app.app.listen({ host: "127.0.0.1", port: 0 });
  return (body) =>
    request(`${url}/v1/tool/echo`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    }).end(body);
}

/**
 * The balance read before running says the month is spent (as if another process had spent it
 * and refunded it since): large calls are then validated first and run once the ledger, which
 * decides, admits them.
 */
function readsMonthAsSpent(app: TestApp): void {
  const store = app.store as { -readonly [K in keyof typeof app.store]: (typeof app.store)[K] };
  store.creditsUsed = async () => 1_000_000_000;
}

/** The same call on an app computing on the main thread and on one computing on the pool. */
async function bothWays(t: TestContext, offload: ComputeOffload, options: TestAppOptions = {}) {
  const inline = await createTestApp(options, t);
  const pooled = await createTestApp({ ...options, offload }, t);
  return { inline, pooled };
}

async function post(app: TestApp, key: string, slug: string, payload: string, requestId: string) {
  return app.app.inject({
    method: "POST",
    url: `/v1/tool/${slug}`,
    headers: json({ ...bearer(key), "x-request-id": requestId }),
    payload,
  });
}

async function creditsUsed(app: TestApp, key: string): Promise<number> {
  return (await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json()
    .credits_used;
}

describe("tool calls computed on a worker thread", () => {
  it("answer every outcome as the main thread does, charging and refunding alike", async (t) => {
    const { inline, pooled } = await bothWays(t, fixturePool(t));
    const keys = { inline: await inline.key("builder"), pooled: await pooled.key("builder") };
    const bodies: [string, number][] = [
      ['{"value":21}', 200],
      ['{"value":"7.5","note":"a string number"}', 200],
      ['{"value":1,"mode":"unprocessable"}', 422],
      ['{"value":1,"mode":"crash"}', 500],
      ['{"value":500}', 400],
      ['{"value":1,"extra":true}', 400],
      ['{"value":1,', 400],
      ["", 400],
    ];
    for (const [i, [body, status]] of bodies.entries()) {
      const expected = await post(inline, keys.inline, "echo", body, `req-${i}`);
      const actual = await post(pooled, keys.pooled, "echo", body, `req-${i}`);
      assert.equal(expected.statusCode, status, expected.body);
      assert.equal(actual.statusCode, status, actual.body);
      assert.equal(actual.headers["content-type"], expected.headers["content-type"]);
      assert.equal(actual.body, expected.body);
    }
    assert.equal(await creditsUsed(pooled, keys.pooled), 6);
    assert.equal(await creditsUsed(inline, keys.inline), 6);
  });

  it("keeps the order of checks: a malformed body before a switched-off tool, a field error before a 402", async (t) => {
    const { inline, pooled } = await bothWays(t, fixturePool(t));
    for (const app of [inline, pooled]) {
      const poor = await app.key("builder", 2);
      const broke = await post(app, poor, "echo", '{"value":1}', "req-poor");
      assert.equal(broke.statusCode, 402, broke.body);
      assert.equal(broke.json().code, "insufficient_credits");
      assert.equal((await post(app, poor, "echo", '{"value":-1}', "req-poor-invalid")).statusCode, 400);

      const key = await app.key("builder");
      await app.store.setSwitch("echo", { enabled: false });
      assert.equal((await post(app, key, "echo", '{"value":1', "req-off-malformed")).statusCode, 400);
      const off = await post(app, key, "echo", '{"value":1}', "req-off");
      assert.equal(off.statusCode, 503, off.body);
      assert.equal(off.json().code, "tool_disabled");
      assert.equal(await creditsUsed(app, key), 0);
    }
  });

  it("answer 500 internal_error and charge nothing when the worker itself fails (a dead thread, a closed pool)", async (t) => {
    const dead: ComputeOffload = {
      minBytes: 0,
      call: async () => {
        throw new Error("worker exited with code 1");
      },
      close: async () => {},
    };
    const app = await createTestApp({ offload: dead }, t);
    const key = await app.key("builder");
    const res = await post(app, key, "echo", '{"value":21}', "req-dead");
    assertProblem(res, 500, "internal_error");
    assert.doesNotMatch(res.body, /worker exited/);
    assert.equal(await creditsUsed(app, key), 0);
  });

  it("answer a 1 MiB inspector call with the same bytes as the main thread, from the default pool", async (t) => {
    const pool = createComputePool();
    t.after(() => pool.close());
    const body = githubPushNear();
    assert.ok(Buffer.byteLength(body) >= pool.minBytes);
    const { inline, pooled } = await bothWays(t, pool, { tools });
    const expected = await post(
      inline,
      await inline.key("builder"),
      "webhook-payload-inspector",
      body,
      "req-big",
    );
    const actual = await post(
      pooled,
      await pooled.key("builder"),
      "webhook-payload-inspector",
      body,
      "req-big",
    );
    assert.equal(expected.statusCode, 200);
    assert.equal(actual.statusCode, 200);
    assert.equal(actual.body, expected.body);
  });

  it("runs a large call with an Idempotency-Key on the worker once, after its key is claimed, and replays it", async (t) => {
    const { app, asked, mainThreadRuns } = await watchedApp(t);
    const key = await app.key("builder");
    const send = (requestId: string) =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "x-request-id": requestId, "idempotency-key": "big-1" }),
        payload: '{"value":20,"mode":"slow"}',
      });
    const [first, together] = await Promise.all([send("first"), send("together")]);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().outputs.doubled, 40);
    // Sent while the first ran: told so, not run again.
    assertProblem(together, 409, "idempotency_key_in_use");
    const retry = await send("retry");
    assert.equal(retry.headers["idempotent-replayed"], "true");
    assert.equal(retry.body, first.body);
    assert.equal(mainThreadRuns(), 0);
    assert.deepEqual(
      asked.filter((a) => a === "run"),
      ["run"],
    );
    assert.equal(await creditsUsed(app, key), 3);
    // A body the worker refuses is answered before any claim: the key stays free.
    const invalid = await app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json({ ...bearer(key), "idempotency-key": "big-2" }),
      payload: '{"value":-1}',
    });
    assertProblem(invalid, 400, "validation_error");
    const valid = await app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json({ ...bearer(key), "idempotency-key": "big-2" }),
      payload: '{"value":2}',
    });
    assert.equal(valid.statusCode, 200, valid.body);
    assert.equal(valid.headers["idempotent-replayed"], undefined);
  });

  it("runs a large call on the worker when the ledger admits it after a balance read that said it could not pay", async (t) => {
    const { app, asked, mainThreadRuns } = await watchedApp(t);
    const key = await app.key("builder");
    readsMonthAsSpent(app);
    const res = await post(app, key, "echo", '{"value":4}', "req-admitted");
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().outputs.doubled, 8);
    assert.deepEqual(asked, ["validate", "run"]);
    assert.equal(mainThreadRuns(), 0);
  });

  it("runs queued calls in the order they came, so a call never waits behind later ones", async (t) => {
    const pool = fixturePool(t);
    const finished: number[] = [];
    const calls = Array.from({ length: 8 }, (_, i) =>
      pool.call("echo", Buffer.from(`{"value":${i}}`), true).then(() => finished.push(i)),
    );
    await Promise.all(calls);
    assert.deepEqual(finished, [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("drops a waiting call whose client has gone, without running it, and serves the rest in order", async (t) => {
    const pool = fixturePool(t);
    const finished: string[] = [];
    const busy = pool
      .call("echo", Buffer.from('{"value":30,"mode":"slow"}'), true)
      .then(() => finished.push("busy"));
    const left = new AbortController();
    const dropped = pool.call("echo", Buffer.from('{"value":1}'), true, left.signal);
    const next = pool.call("echo", Buffer.from('{"value":2}'), true).then(() => finished.push("next"));
    left.abort();
    await assert.rejects(dropped, (error: ApiError) => error.code === "client_closed_request");
    // Dropped while the worker was still busy with the first call.
    assert.deepEqual(finished, []);
    await Promise.all([busy, next]);
    assert.deepEqual(finished, ["busy", "next"]);
    const gone = new AbortController();
    gone.abort();
    await assert.rejects(
      pool.call("echo", Buffer.from('{"value":3}'), true, gone.signal),
      /closed the connection/,
    );
  });

  it("charges nothing for a large call whose client hung up while it waited for the worker, and logs it as such", async (t) => {
    const log = collectLog();
    const app = await createTestApp({ offload: fixturePool(t), ...log.options }, t);
    const key = await app.key("builder");
    const send = await echoOverHttp(app, key);
    const busy = once(send('{"value":40,"mode":"slow"}'), "response");
    await setTimeout(100);
    // Sent whole, then given up on while the slow call holds the worker.
    const quitter = send('{"value":5}');
    quitter.on("error", () => {});
    await setTimeout(100);
    quitter.destroy();
    const [response] = (await busy) as [IncomingMessage];
    assert.equal(response.statusCode, 200);
    response.resume();
    // Give the dropped call the time it would have taken to run and be charged.
    await setTimeout(200);
    assert.equal(await creditsUsed(app, key), 3);
    const usage = await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
    assert.equal(usage.json().calls, 1, usage.body);
    const dropped = log.lines.filter((l) => l.msg === "client closed the connection before the answer");
    assert.deepEqual(
      dropped.map((l) => [l.code, l.answerStatus, l.creditsCharged]),
      [["client_closed_request", 499, undefined]],
    );
  });

  it("charges nothing for an admitted large call whose client hung up while its run waited for the worker", async (t) => {
    const app = await createTestApp({ offload: fixturePool(t) }, t);
    const key = await app.key("builder");
    readsMonthAsSpent(app);
    const send = await echoOverHttp(app, key);
    const busy = once(send('{"value":40,"mode":"slow"}'), "response");
    const quitter = send('{"value":5}');
    quitter.on("error", () => {});
    // Both validated by now; the slow run holds the worker and the quitter's run waits behind it.
    await setTimeout(150);
    quitter.destroy();
    const [response] = (await busy) as [IncomingMessage];
    assert.equal(response.statusCode, 200);
    response.resume();
    await setTimeout(200);
    const usage = await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
    assert.equal(usage.json().calls, 1, usage.body);
    assert.equal(usage.json().credits_used, 3, usage.body);
  });

  it("closes without hanging, whether it ever started a worker or not, and refuses calls after", async () => {
    const unused = createComputePool({ tools: FIXTURES, minBytes: 0 });
    await unused.close();
    const used = createComputePool({ tools: FIXTURES, minBytes: 0 });
    const ran = await used.call("echo", Buffer.from('{"value":2}'), true);
    assert.equal(ran.kind, "ran");
    await used.close();
    await assert.rejects(used.call("echo", Buffer.from('{"value":2}'), true), /closed/);
  });

  it("lowers V8's helper threads to the worker's priority once it starts (Linux)", {
    skip: !existsSync("/proc/self/task"),
  }, async () => {
    const helpers = () =>
      readdirSync("/proc/self/task")
        .filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === "V8Worker")
        .map(Number);
    const pool = createComputePool({ tools: FIXTURES, minBytes: 0 });
    try {
      await pool.call("echo", Buffer.from('{"value":2}'), true);
      assert.ok(helpers().length > 0);
      for (const tid of helpers()) assert.ok(getPriority(tid) > getPriority(process.pid), `thread ${tid}`);
    } finally {
      await pool.close();
    }
  });
});
