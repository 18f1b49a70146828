/**
 * An operator's tools through the whole service, against a real upstream on loopback: HTTP tools
 * declared as data and module tools loaded from TOOLRUN_TOOLS. What every failure answers (the
 * documented code and detail, never the upstream's body), that it is refunded and the credits stay
 * exact; that a tool with effects outside is reserved before it acts, forwards a derived
 * idempotency key, acts once for concurrent keyed retries, runs to its end (charged) when its client
 * hangs up, and never holds up other calls while it waits.
 */
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, it } from "node:test";
import { runnerToolsOf } from "../../src/core/call/compute-runner.ts";
import { outwardKeyOf } from "../../src/core/call/idempotency.ts";
import { createMetrics } from "../../src/http/metrics.ts";
import { tools as builtIns } from "../../src/tools/index.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { FIXTURE_TOOLS, watchedOffload } from "../helpers/offload.ts";
import { loadOperatorTools } from "../helpers/operator-tools.ts";
import { assertProblem } from "../helpers/problem.ts";
import {
  refusingOrigin,
  startUpstream,
  type TestUpstream,
  UPSTREAM_BODY_SECRET,
} from "../helpers/upstream.ts";

const PLANS = {
  free: { id: "free", label: "Free member", rpm: 10_000, monthlyCredits: 1000, minCredits: 2 },
  builder: { id: "builder", label: "Builder", rpm: 10_000, monthlyCredits: 100_000, minCredits: 1 },
};

describe("operator tools", () => {
  let upstream: TestUpstream;
  let t: TestApp;
  const lifetime = untilSuiteEnds();
  const log = collectLog();
  const metrics = createMetrics();

  before(async () => {
    upstream = await startUpstream();
    const loadedTools = await loadOperatorTools(upstream.origin, await refusingOrigin());
    t = await createTestApp(
      {
        tools: [...builtIns, ...fixtureTools],
        loadedTools,
        plans: PLANS,
        observer: metrics,
        appOptions: { ...log.options.appOptions, metrics: { metrics, token: null } },
      },
      lifetime,
    );
  });
  after(() => upstream.close());

  function post(key: string, slug: string, body: unknown, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: "POST",
      url: `/v1/tool/${slug}`,
      headers: json({ ...bearer(key), ...headers }),
      payload: JSON.stringify(body),
    });
  }

  async function creditsUsed(key: string): Promise<number> {
    return (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json()
      .credits_used;
  }

  /** The key's recorded calls this month, newest first: [tool, status, http status, credits]. */
  async function usageOf(key: string): Promise<{ calls: unknown[][]; creditsUsed: number }> {
    const usage = (await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) })).json();
    return {
      calls: usage.recent.map((c: Record<string, unknown>) => [c.tool, c.status, c.http_status, c.credits]),
      creditsUsed: usage.credits_used,
    };
  }

  describe("an HTTP tool declared as data", () => {
    it("answers the upstream's JSON object as its outputs, charged its weight", async () => {
      const key = await t.key("free");
      const answer = await post(key, "create-ticket", { title: "Printer on fire", priority: "high" });
      assert.equal(answer.statusCode, 200, answer.body);
      const envelope = answer.json();
      assert.equal(envelope.tool, "create-ticket");
      assert.equal(envelope.credits_used, 5);
      assert.deepEqual(Object.keys(envelope.outputs).sort(), ["id", "priority", "status", "title"]);
      assert.equal(envelope.outputs.title, "Printer on fire");
      assert.equal(await creditsUsed(key), 5);
      assert.deepEqual((await usageOf(key)).calls, [["create-ticket", "charged", 200, 5]]);
    });

    const failures: [
      name: string,
      slug: string,
      input: unknown,
      status: number,
      code: string,
      detail: RegExp,
    ][] = [
      [
        "upstream down",
        "upstream-down",
        {},
        500,
        "processing_error",
        /The upstream service refused the connection\./,
      ],
      [
        "upstream slow past the timeout",
        "upstream-slow",
        { ms: 5000 },
        500,
        "processing_error",
        /did not answer within 300 ms\./,
      ],
      [
        "upstream 4xx",
        "upstream-status",
        { code: 404 },
        422,
        "unprocessable_input",
        /^The upstream service refused the input with HTTP 404\.$/,
      ],
      ...[401, 403, 407].map((code): (typeof failures)[number] => [
        `upstream ${code} (the tool's credentials refused)`,
        "upstream-status",
        { code },
        500,
        "processing_error",
        new RegExp(`refused the tool's configured credentials with HTTP ${code}: the operator must fix them`),
      ]),
      ["upstream 5xx", "upstream-status", { code: 503 }, 500, "processing_error", /failed with HTTP 503\./],
      ["upstream non-JSON", "upstream-text", {}, 500, "processing_error", /with a body that is not JSON\./],
      ["upstream JSON that is not an object", "upstream-array", {}, 500, "processing_error", /not an object/],
      [
        "upstream reset",
        "upstream-reset",
        {},
        500,
        "processing_error",
        /closed the connection without a complete answer/,
      ],
      [
        "upstream body past maxResponseBytes",
        "upstream-huge",
        {},
        500,
        "processing_error",
        /larger than 4096/,
      ],
      [
        "upstream answer failing the output schema",
        "upstream-strict",
        {},
        500,
        "processing_error",
        /does not match its output schema/,
      ],
    ];
    for (const [name, slug, input, status, code, detail] of failures) {
      it(`${name}: ${status} ${code} saying what the upstream did, refunded, the credits exact`, async () => {
        const key = await t.key("free");
        const problem = assertProblem(await post(key, slug, input), status, code);
        assert.match(String(problem.detail), detail);
        assert.doesNotMatch(JSON.stringify(problem), new RegExp(`${UPSTREAM_BODY_SECRET}|127\\.0\\.0\\.1`));
        assert.equal(problem.credits_used, 0);
        assert.equal(problem.credits_remaining, 1000);
        assert.equal(await creditsUsed(key), 0);
        assert.deepEqual(await usageOf(key), { calls: [[slug, "refunded", status, 0]], creditsUsed: 0 });
        // The account's next call is charged exactly its own price.
        assert.equal((await post(key, "create-ticket", { title: "After the failure" })).statusCode, 200);
        assert.equal(await creditsUsed(key), 5);
      });
    }

    it("tells the operator of refused credentials: an error line naming the tool and the status, and a counter", async () => {
      const key = await t.key("free");
      const counted = async () =>
        (await metrics.registry.getSingleMetric("toolrun_upstream_failures_total")?.get())?.values.find(
          (v) => v.labels.tool === "upstream-status" && v.labels.status === "401",
        )?.value ?? 0;
      const before = await counted();
      const answer = await post(key, "upstream-status", { code: 401 });
      assert.equal(answer.statusCode, 500);
      const requestId = answer.json().request_id;
      const line = await log.lineWhere((l) => l.reqId === requestId && l.msg === "request failed");
      assert.equal(line.level, 50, "error level");
      const err = line.err as Record<string, unknown>;
      assert.equal(err.tool, "upstream-status");
      assert.equal(err.upstreamStatus, 401);
      assert.equal(await counted(), before + 1);
      // A refusal of the input itself is the client's: no error line, no count.
      const refused = await post(key, "upstream-status", { code: 404 });
      assert.equal(refused.statusCode, 422);
      const refusedId = refused.json().request_id;
      await log.lineWhere((l) => l.reqId === refusedId && l.msg === "request completed");
      assert.ok(!log.lines.some((l) => l.reqId === refusedId && l.level === 50));
      assert.equal(await counted(), before + 1);
    });

    it("refuses a call the key cannot pay for with 402 before anything reaches the upstream", async () => {
      const key = await t.key("free", 4);
      const before = upstream.requests.length;
      const problem = assertProblem(
        await post(key, "create-ticket", { title: "Too dear" }),
        402,
        "insufficient_credits",
      );
      assert.equal(problem.credits_used, 0);
      assert.equal(upstream.requests.length, before);
      assert.deepEqual((await usageOf(key)).calls, []);
    });

    it("sends a key derived from the account and the client's key: the same for a retry, another for another account", async () => {
      const first = await t.key("builder");
      const second = await t.key("builder");
      const sentBy = async (key: string, idempotencyKey?: string) => {
        const answer = await post(
          key,
          "upstream-echo",
          { note: "hello" },
          idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey },
        );
        assert.equal(answer.statusCode, 200, answer.body);
        return answer.json().outputs.headers["idempotency-key"] as string | undefined;
      };
      const derived = await sentBy(first, "order-7");
      assert.equal(derived, outwardKeyOf((await t.recordOf(first)).accountId, "order-7"));
      assert.doesNotMatch(String(derived), /order-7/);
      const other = await sentBy(second, "order-7");
      assert.notEqual(other, derived);
      assert.equal(other, outwardKeyOf((await t.recordOf(second)).accountId, "order-7"));
      assert.equal(await sentBy(first), undefined, "no key, no header");
      // The same derivation for a retry whose first answer was lost: nothing in it is random.
      assert.equal(outwardKeyOf((await t.recordOf(first)).accountId, "order-7"), derived);
    });

    it("stores no 500: a keyed retry after the upstream failed reaches it again, with the same derived key", async () => {
      const key = await t.key("free");
      const derived = outwardKeyOf((await t.recordOf(key)).accountId, "status-retry");
      const sent = () =>
        upstream.requests.filter((r) => r.url === "/status/503" && r.headers["idempotency-key"] === derived)
          .length;
      for (const attempt of [1, 2]) {
        const answer = await post(
          key,
          "upstream-status",
          { code: 503 },
          { "idempotency-key": "status-retry" },
        );
        assertProblem(answer, 500, "processing_error");
        assert.equal(answer.headers["idempotent-replayed"], undefined);
        assert.equal(sent(), attempt);
      }
      assert.equal(await creditsUsed(key), 0);
      assert.deepEqual((await usageOf(key)).calls, [
        ["upstream-status", "refunded", 500, 0],
        ["upstream-status", "refunded", 500, 0],
      ]);
    });

    it("50 concurrent keyed retries of one call reach the upstream once and are charged once", async () => {
      const key = await t.key("free");
      const idempotencyKey = "ticket-retry-50";
      const derived = outwardKeyOf((await t.recordOf(key)).accountId, idempotencyKey);
      const held = upstream.hold();
      const send = () =>
        post(key, "create-ticket", { title: "Once only" }, { "idempotency-key": idempotencyKey });
      const first = send();
      await held.held(1);
      const retries = await Promise.all(Array.from({ length: 49 }, send));
      for (const retry of retries) assertProblem(retry, 409, "idempotency_key_in_use");
      held.release();
      const answer = await first;
      assert.equal(answer.statusCode, 200, answer.body);
      const replay = await send();
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.headers["idempotent-replayed"], "true");
      assert.deepEqual(replay.json(), answer.json());
      assert.equal(upstream.callsFor(derived), 1);
      assert.equal(await creditsUsed(key), 5);
      assert.deepEqual((await usageOf(key)).calls, [["create-ticket", "charged", 200, 5]]);
    });

    it("never holds up other calls, nor their commits, while it waits for its upstream", async () => {
      const key = await t.key("builder");
      const held = upstream.hold();
      const waiting = post(key, "create-ticket", { title: "Slow desk" });
      await held.held(1);
      // Its reservation is committed, and calls of other tools are answered and charged meanwhile.
      assert.deepEqual((await usageOf(key)).calls, [["create-ticket", "pending", null, 5]]);
      for (let i = 0; i < 20; i++) assert.equal((await post(key, "echo", { value: i })).statusCode, 200);
      assert.equal(await creditsUsed(key), 5 + 20 * 3);
      assert.equal(upstream.inFlight(), 1, "the upstream still holds the first call");
      held.release();
      assert.equal((await waiting).statusCode, 200);
      assert.equal(await creditsUsed(key), 5 + 20 * 3);
    });

    it("keeps each input value inside the path segment or query value it fills", async () => {
      const key = await t.key("builder");
      const urlFor = async (id: string, q: string) => {
        const answer = await post(key, "upstream-lookup", { id, q });
        assert.equal(answer.statusCode, 200, answer.body);
        return answer.json().outputs.url as string;
      };
      assert.equal(
        await urlFor("../admin?x=1#top", "a&b=c#d\r\nX-Injected: yes"),
        "/echo/items/..%2Fadmin%3Fx%3D1%23top?q=a%26b%3Dc%23d%0D%0AX-Injected%3A%20yes",
      );
      assert.equal(await urlFor("%2e%2e", "@evil.example"), "/echo/items/%252e%252e?q=%40evil.example");
      assert.equal(await urlFor("user@evil.example:80", "/"), "/echo/items/user%40evil.example%3A80?q=%2F");
      for (const dots of [".", ".."]) {
        const problem = assertProblem(
          await post(key, "upstream-lookup", { id: dots, q: "x" }),
          400,
          "validation_error",
        );
        assert.deepEqual(Object.keys(problem.fields as object), ["id"]);
      }
    });
  });

  describe("the compute offload", () => {
    it("takes the large calls of the tools that only compute, never those of a tool with effects outside", async (context) => {
      const offload = watchedOffload(context);
      const loadedTools = await loadOperatorTools(upstream.origin, await refusingOrigin());
      const app = await createTestApp({ loadedTools, offload, plans: PLANS }, context);
      const key = await app.key("builder");
      const call = (slug: string, body: unknown) =>
        app.app.inject({
          method: "POST",
          url: `/v1/tool/${slug}`,
          headers: json(bearer(key)),
          payload: JSON.stringify(body),
        });
      assert.equal((await call("create-ticket", { title: "Not for the worker" })).statusCode, 200);
      assert.equal((await call("echo", { value: 1 })).statusCode, 200);
      assert.deepEqual(offload.asked, ['run {"value":1}']);
    });

    it("holds a module's answer to its maxOutputBytes on the worker too: 500, refunded", async (context) => {
      const loadedTools = await loadOperatorTools(upstream.origin, await refusingOrigin());
      const offload = watchedOffload(context, runnerToolsOf(loadedTools, FIXTURE_TOOLS));
      const app = await createTestApp({ tools: fixtureTools, loadedTools, offload, plans: PLANS }, context);
      const key = await app.key("builder");
      const answer = await app.app.inject({
        method: "POST",
        url: "/v1/tool/misbehaving",
        headers: json(bearer(key)),
        payload: JSON.stringify({ mode: "too-large" }),
      });
      assert.deepEqual(offload.answered, ['run {"mode":"too-large"}'], "it ran on the worker");
      const problem = assertProblem(answer, 500, "processing_error");
      assert.match(String(problem.detail), /65537 bytes of JSON, more than the 65536 it may give/);
      assert.equal(problem.credits_used, 0);
    });
  });

  describe("a module tool", () => {
    const failures: [name: string, mode: string, detail: RegExp][] = [
      ["that throws", "throw", /^The tool "misbehaving" failed to run\. The call was refunded\.$/],
      ["that never resolves (its timeout)", "hang", /The tool did not finish within 200 ms\./],
      ["that returns a non-object", "not-an-object", /answer is not a JSON object/],
      ["whose answer fails its output schema", "bad-output", /does not match its output schema/],
      [
        "whose answer is larger than its maxOutputBytes",
        "too-large",
        /answer is 65537 bytes of JSON, more than the 65536 it may give/,
      ],
    ];
    for (const [name, mode, detail] of failures) {
      it(`${name}: 500 processing_error, refunded, the credits exact`, async () => {
        const key = await t.key("free");
        const problem = assertProblem(await post(key, "misbehaving", { mode }), 500, "processing_error");
        assert.match(String(problem.detail), detail);
        assert.doesNotMatch(String(problem.detail), /misbehaving-internal-detail/);
        assert.equal(problem.credits_used, 0);
        assert.equal(await creditsUsed(key), 0);
        assert.deepEqual((await usageOf(key)).calls, [["misbehaving", "refunded", 500, 0]]);
      });
    }

    it("whose answer fails its output schema has the validator's reason in the error line", async () => {
      const key = await t.key("free");
      const answer = await post(key, "misbehaving", { mode: "bad-output" });
      const requestId = answer.json().request_id;
      const line = await log.lineWhere((l) => l.reqId === requestId && l.msg === "request failed");
      const err = line.err as Record<string, unknown>;
      assert.match(String(err.message), /does not match its output schema/);
      assert.match(String(err.reason), /must have required property|must be/);
    });

    it("whose answer is too large is refunded with an Idempotency-Key too, and its retry runs no larger", async () => {
      const key = await t.key("free");
      const headers = { "idempotency-key": "too-large-1" };
      const first = await post(key, "misbehaving", { mode: "too-large" }, headers);
      assertProblem(first, 500, "processing_error");
      const retry = await post(key, "misbehaving", { mode: "too-large" }, headers);
      assertProblem(retry, 500, "processing_error");
      assert.ok(retry.body.length < 4096, "no answer past the cap is served");
      assert.equal(await creditsUsed(key), 0);
    });

    it("that never resolves has its signal fired at the timeout", async () => {
      const key = await t.key("free");
      const { latest } = await import("../fixtures/operator-tools/misbehaving.ts");
      await post(key, "misbehaving", { mode: "hang" });
      assert.equal(latest.signal?.aborted, true);
    });

    it("answers, asynchronously or at once, charged its weight; its own 422 is refunded with its message", async () => {
      const key = await t.key("free");
      for (const mode of ["ok", "at-once"]) {
        const answer = await post(key, "misbehaving", { mode });
        assert.equal(answer.statusCode, 200, answer.body);
        assert.deepEqual(answer.json().outputs, { mode });
      }
      const problem = assertProblem(
        await post(key, "misbehaving", { mode: "unprocessable" }),
        422,
        "unprocessable_input",
      );
      assert.equal(problem.detail, "This mode has no answer.");
      assert.equal(await creditsUsed(key), 6);
    });

    it("with effects outside gets its secrets and the derived key, and is reserved like an HTTP tool", async () => {
      const key = await t.key("free");
      const held = upstream.hold();
      const call = post(key, "remember-note", { text: "milk" }, { "idempotency-key": "note-1" });
      await held.held(1);
      assert.deepEqual((await usageOf(key)).calls, [["remember-note", "pending", null, 4]]);
      held.release();
      const answer = await call;
      assert.equal(answer.statusCode, 200, answer.body);
      const derived = outwardKeyOf((await t.recordOf(key)).accountId, "note-1");
      assert.deepEqual(answer.json().outputs, { key: derived, calls: 1 });
      assert.equal(await creditsUsed(key), 4);
    });
  });

  describe("a client that hangs up", () => {
    let base: URL | undefined;
    /** Posts a ticket over a real connection, and closes it once the upstream holds the call. */
    const hangUpDuring = async (headers: Record<string, string>, title: string) => {
      base ??= new URL(await t.app.listen({ host: "127.0.0.1", port: 0 }));
      const held = upstream.hold();
      const request = httpRequest({
        host: base.hostname,
        port: base.port,
        method: "POST",
        path: "/v1/tool/create-ticket",
        headers: { ...json(), ...headers },
      });
      request.on("error", () => {});
      request.end(JSON.stringify({ title }));
      await held.held(1);
      request.destroy();
      return held;
    };
    it("runs a tool with effects outside to its end: the upstream answers, and the call is charged", async () => {
      const key = await t.key("free");
      const abandonedBefore = upstream.abandoned();
      const held = await hangUpDuring(bearer(key), "Never mind");
      held.release();
      let calls: unknown[][] = [];
      while (calls[0]?.[1] !== "charged") {
        calls = (await usageOf(key)).calls;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.deepEqual(calls, [["create-ticket", "charged", 200, 5]]);
      assert.equal(await creditsUsed(key), 5);
      assert.equal(upstream.abandoned(), abandonedBefore, "the upstream request was cut");
    });

    it("lets a call with an idempotency key run to its end: the retry gets its answer, and it acted once", async () => {
      const key = await t.key("free");
      const held = await hangUpDuring({ ...bearer(key), "idempotency-key": "hung-up" }, "Keep going");
      held.release();
      let retry = await post(key, "create-ticket", { title: "Keep going" }, { "idempotency-key": "hung-up" });
      while (retry.statusCode === 409) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        retry = await post(key, "create-ticket", { title: "Keep going" }, { "idempotency-key": "hung-up" });
      }
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.headers["idempotent-replayed"], "true");
      assert.equal(upstream.callsFor(outwardKeyOf((await t.recordOf(key)).accountId, "hung-up")), 1);
      assert.equal(await creditsUsed(key), 5);
    });
  });
});
