/**
 * Large calls computed through the compute offload answer exactly what the main thread answers:
 * the same envelope byte for byte, the same 400s, 402, 422 and 500 with the same refunds, in the
 * same order of checks; a call whose client goes while it waits for its turn is dropped, charging
 * nothing. The offload here runs the worker's runner on the test's thread (the same-thread
 * adapter); test/system/compute/worker-pool.test.ts runs it on a real worker thread.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { type ClientRequest, type IncomingMessage, request } from "node:http";
import { describe, it, type TestContext } from "node:test";
import { setImmediate } from "node:timers/promises";
import { githubPushNear } from "../../bench/lib/payloads.ts";
import { createSameThreadOffload } from "../../src/adapters/compute/same-thread.ts";
import { computeRunner } from "../../src/core/call/compute-runner.ts";
import {
  ComputeDroppedError,
  type ComputeOffload,
  type ComputeTask,
} from "../../src/ports/compute-offload.ts";
import { tools } from "../../src/tools/index.ts";
import { bearer, createTestApp, json, type TestApp, type TestAppOptions } from "../helpers/app.ts";
import { echoTool, heavyTool } from "../helpers/fixture-tools.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { fixtureRunner, watchedOffload } from "../helpers/offload.ts";
import { assertProblem } from "../helpers/problem.ts";

/** The fixture tools' offload, loaded by module as the worker pool loads it, taking every call however small. */
function fixtureOffload(t: TestContext): ComputeOffload {
  const offload = createSameThreadOffload({ runner: fixtureRunner, minBytes: 0 });
  t.after(() => offload.close());
  return offload;
}

/** An app whose calls all go to a watched offload, counting the echo tool's runs on the main thread. */
async function watchedApp(t: TestContext, options: TestAppOptions = {}) {
  const offload = watchedOffload(t);
  let runs = 0;
  const echo = {
    ...echoTool,
    run: (input: Parameters<typeof echoTool.run>[0]) => {
      runs++;
      return echoTool.run(input);
    },
  };
  const app = await createTestApp({ ...options, offload, tools: [echo, heavyTool] }, t);
  return { app, offload, mainThreadRuns: () => runs };
}

const echoBody = (body: string) => (task: ComputeTask) => Buffer.from(task.raw).toString("utf8") === body;

/** Sends echo calls to the app over a real connection, which a test can cut. */
async function echoOverHttp(app: TestApp, key: string): Promise<(body: string) => ClientRequest> {
  const url = await app.app.listen({ host: "127.0.0.1", port: 0 });
  return (body) => {
    const sent = request(`${url}/v1/tool/echo`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });
    sent.on("error", () => {});
    return sent.end(body);
  };
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

/** The same call on an app computing on the main thread and on one computing through `offload`. */
async function bothWays(t: TestContext, offload: ComputeOffload, options: TestAppOptions = {}) {
  const inline = await createTestApp(options, t);
  const offloaded = await createTestApp({ ...options, offload }, t);
  return { inline, offloaded };
}

async function post(app: TestApp, key: string, slug: string, payload: string, requestId: string) {
  return app.app.inject({
    method: "POST",
    url: `/v1/tool/${slug}`,
    headers: json({ ...bearer(key), "x-request-id": requestId }),
    payload,
  });
}

async function usage(app: TestApp, key: string): Promise<{ calls: number; credits_used: number }> {
  return (await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) })).json();
}

describe("tool calls computed through the compute offload", () => {
  it("answer every outcome as the main thread does, charging and refunding alike", async (t) => {
    const { inline, offloaded } = await bothWays(t, fixtureOffload(t));
    const keys = { inline: await inline.key("builder"), offloaded: await offloaded.key("builder") };
    const bodies: [string, number][] = [
      ['{"value":21}', 200],
      ['{"value":"7.5","note":"a string number"}', 200],
      ['{"value":1,"mode":"unprocessable"}', 422],
      ['{"value":1,"mode":"crash"}', 500],
      ['{"value":500}', 400],
      ['{"value":1,"extra":true}', 400],
      ['{"value":1,', 400],
      ["", 400],
      ["  \n", 400],
    ];
    for (const [i, [body, status]] of bodies.entries()) {
      const expected = await post(inline, keys.inline, "echo", body, `req-${i}`);
      const actual = await post(offloaded, keys.offloaded, "echo", body, `req-${i}`);
      assert.equal(expected.statusCode, status, expected.body);
      assert.equal(actual.statusCode, status, actual.body);
      assert.equal(actual.headers["content-type"], expected.headers["content-type"]);
      assert.equal(actual.body, expected.body);
    }
    assert.equal((await usage(offloaded, keys.offloaded)).credits_used, 6);
    assert.equal((await usage(inline, keys.inline)).credits_used, 6);
  });

  it("keeps the order of checks: a malformed body before a switched-off tool, a field error before a 402", async (t) => {
    const { inline, offloaded } = await bothWays(t, fixtureOffload(t));
    for (const app of [inline, offloaded]) {
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
      assert.equal((await usage(app, key)).credits_used, 0);
    }
  });

  it("answer 500 internal_error and charge nothing when the offload itself fails (a dead thread, a closed pool)", async (t) => {
    const dead: ComputeOffload = {
      minBytes: 0,
      compute: async () => {
        throw new Error("worker exited with code 1");
      },
      close: async () => {},
    };
    const app = await createTestApp({ offload: dead }, t);
    const key = await app.key("builder");
    const res = await post(app, key, "echo", '{"value":21}', "req-dead");
    assertProblem(res, 500, "internal_error");
    assert.doesNotMatch(res.body, /worker exited/);
    assert.equal((await usage(app, key)).credits_used, 0);
  });

  it("answer an inspector call over the offload's threshold with the same bytes as the main thread, with the service's own runner", async (t) => {
    const offload = createSameThreadOffload({ runner: computeRunner() });
    t.after(() => offload.close());
    // 96 KiB: over the default threshold; the system test sends the inspector's 1 MiB limit.
    const body = githubPushNear(96 * 1024);
    assert.ok(Buffer.byteLength(body) >= offload.minBytes);
    const { inline, offloaded } = await bothWays(t, offload, { tools });
    const slug = "webhook-payload-inspector";
    const expected = await post(inline, await inline.key("builder"), slug, body, "req-big");
    const actual = await post(offloaded, await offloaded.key("builder"), slug, body, "req-big");
    assert.equal(expected.statusCode, 200);
    assert.equal(actual.statusCode, 200);
    assert.equal(actual.body, expected.body);
  });

  it("runs a large call with an Idempotency-Key once, after its key is claimed, and replays it", async (t) => {
    const { app, offload, mainThreadRuns } = await watchedApp(t);
    const key = await app.key("builder");
    const send = (requestId: string, idempotencyKey: string, payload: string) =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "x-request-id": requestId, "idempotency-key": idempotencyKey }),
        payload,
      });
    const firstRun = offload.hold("before-turn", (task) => task.run);
    const first = send("first", "big-1", '{"value":20}');
    await firstRun.reached;
    // Sent while the first runs: told so, not run again.
    assertProblem(await send("together", "big-1", '{"value":20}'), 409, "idempotency_key_in_use");
    firstRun.open();
    const answered = await first;
    assert.equal(answered.statusCode, 200, answered.body);
    assert.equal(answered.json().outputs.doubled, 40);
    const retry = await send("retry", "big-1", '{"value":20}');
    assert.equal(retry.headers["idempotent-replayed"], "true");
    assert.equal(retry.body, answered.body);
    assert.equal(mainThreadRuns(), 0);
    // Only the first's call ran; the request sent while it ran never reached the offload, and the
    // retry after it was validated before its replay.
    assert.deepEqual(offload.asked, ['validate {"value":20}', 'run {"value":20}', 'validate {"value":20}']);
    assert.equal((await usage(app, key)).credits_used, 3);
    // A body the offload refuses is answered before any claim: the key stays free.
    assertProblem(await send("invalid", "big-2", '{"value":-1}'), 400, "validation_error");
    const valid = await send("valid", "big-2", '{"value":2}');
    assert.equal(valid.statusCode, 200, valid.body);
    assert.equal(valid.headers["idempotent-replayed"], undefined);
  });

  it("runs a large call through the offload when the ledger admits it after a balance read that said it could not pay", async (t) => {
    const { app, offload, mainThreadRuns } = await watchedApp(t);
    const key = await app.key("builder");
    readsMonthAsSpent(app);
    const res = await post(app, key, "echo", '{"value":4}', "req-admitted");
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().outputs.doubled, 8);
    assert.deepEqual(offload.answered, ['validate {"value":4}', 'run {"value":4}']);
    assert.equal(mainThreadRuns(), 0);
  });

  it("runs the tasks in the order they came, so a call never waits behind later ones", async (t) => {
    const offload = watchedOffload(t);
    const raw = (i: number) => Buffer.from(`{"value":${i}}`);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        offload.compute({ slug: "echo", raw: raw(i), run: true, owner: `key-${i}` }),
      ),
    );
    assert.deepEqual(
      offload.answered,
      Array.from({ length: 8 }, (_, i) => `run {"value":${i}}`),
    );
  });

  it("drops a waiting task whose client has gone, without running it, and serves the rest in order", async (t) => {
    const offload = watchedOffload(t);
    const task = (body: string, owner = "key") => ({
      slug: "echo",
      raw: Buffer.from(body),
      run: true,
      owner,
    });
    const busyTurn = offload.hold("in-turn", echoBody('{"value":30}'));
    const finished: string[] = [];
    const busy = offload.compute(task('{"value":30}')).then(() => finished.push("busy"));
    await busyTurn.reached;
    const left = new AbortController();
    const dropped = offload.compute(task('{"value":1}', "leaving"), left.signal);
    const next = offload.compute(task('{"value":2}', "next")).then(() => finished.push("next"));
    await setImmediate();
    left.abort();
    await assert.rejects(dropped, ComputeDroppedError);
    // Dropped while the busy task still held its turn.
    assert.deepEqual(finished, []);
    busyTurn.open();
    await Promise.all([busy, next]);
    assert.deepEqual(finished, ["busy", "next"]);
    assert.deepEqual(offload.answered, ['run {"value":30}', 'run {"value":2}']);
    const gone = new AbortController();
    gone.abort();
    await assert.rejects(offload.compute(task('{"value":3}'), gone.signal), ComputeDroppedError);
  });

  it("charges nothing for a large call whose client hung up while it waited for its turn, and logs it as such", async (t) => {
    const log = collectLog();
    const { app, offload } = await watchedApp(t, log.options);
    const key = await app.key("builder");
    const send = await echoOverHttp(app, key);
    const busyTurn = offload.hold("in-turn", echoBody('{"value":40}'));
    const busy = once(send('{"value":40}'), "response");
    await busyTurn.reached;
    const quitterAsked = offload.hold("before-turn", echoBody('{"value":5}'));
    const quitter = send('{"value":5}');
    await quitterAsked.reached;
    quitterAsked.open();
    await setImmediate();
    // Sent whole, then given up on while the busy call holds the offload.
    quitter.destroy();
    await offload.dropped;
    busyTurn.open();
    const [response] = (await busy) as [IncomingMessage];
    assert.equal(response.statusCode, 200);
    response.resume();
    const line = await log.lineWhere((l) => l.msg === "client closed the connection before the answer");
    assert.deepEqual(
      [line.code, line.answerStatus, line.creditsCharged],
      ["client_closed_request", 499, undefined],
    );
    const spent = await usage(app, key);
    assert.deepEqual([spent.calls, spent.credits_used], [1, 3]);
    assert.deepEqual(offload.answered, ['run {"value":40}']);
  });

  it("charges nothing for an admitted large call whose client hung up while its run waited for its turn", async (t) => {
    const { app, offload } = await watchedApp(t);
    const key = await app.key("builder");
    readsMonthAsSpent(app);
    const send = await echoOverHttp(app, key);
    // The quitter is validated and admitted; its run is held until the busy call's run holds the turn.
    const quitterRun = offload.hold("before-turn", (task) => task.run && echoBody('{"value":5}')(task));
    const quitter = send('{"value":5}');
    await quitterRun.reached;
    const busyRun = offload.hold("in-turn", (task) => task.run && echoBody('{"value":40}')(task));
    const busy = once(send('{"value":40}'), "response");
    await busyRun.reached;
    quitterRun.open();
    await setImmediate();
    quitter.destroy();
    await offload.dropped;
    busyRun.open();
    const [response] = (await busy) as [IncomingMessage];
    assert.equal(response.statusCode, 200);
    response.resume();
    const spent = await usage(app, key);
    assert.equal(spent.calls, 1, JSON.stringify(spent));
    assert.equal(spent.credits_used, 3, JSON.stringify(spent));
    assert.deepEqual(offload.answered, ['validate {"value":5}', 'validate {"value":40}', 'run {"value":40}']);
  });
});
