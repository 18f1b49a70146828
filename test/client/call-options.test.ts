/**
 * The client's per-call options (clients/typescript, as built): the `idempotencyKey` given is the
 * one sent, on the first attempt and on every retry, and the one the service keeps; a `signal`
 * aborts the call wherever it is (before sending, in flight, waiting to retry); `timeoutMs` ends the
 * whole call with a `ToolrunTimeoutError`. Answers that never come are a fetch that waits for its
 * request's signal, so nothing here depends on how fast the machine is.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import {
  createToolrunClient,
  type ToolrunClientOptions,
  ToolrunError,
  ToolrunTimeoutError,
} from "@toolrun/client";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";

const BASE = "http://toolrun.test";
const INPUT = { value: 1 };

/** A fetch that never answers: it rejects with the request's abort reason once that comes. */
function silent(sent: Request[]): (request: Request) => Promise<Response> {
  return (request) => {
    sent.push(request);
    return new Promise((_, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
    });
  };
}

/** A 503 asking for a retry in 30 s: the call then waits, where only its signal can end it early. */
function unavailable(sent: Request[], onAnswer: () => void = () => {}) {
  return async (request: Request) => {
    sent.push(request);
    onAnswer();
    return Response.json(
      { type: "about:blank", title: "Unavailable", status: 503, code: "backend_unavailable" },
      { status: 503, headers: { "retry-after": "30", "content-type": "application/problem+json" } },
    );
  };
}

const offline = (options: Partial<ToolrunClientOptions>) =>
  createToolrunClient({ baseUrl: BASE, apiKey: "tr_live_x", ...options });

describe("TypeScript client: the idempotency key of a call", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let base: string;

  before(async () => {
    t = await createTestApp(
      {
        tools: [...tools, ...fixtureTools],
        plans: { slow: { id: "slow", label: "Slow", rpm: 1, monthlyCredits: 1000, minCredits: 2 } },
      },
      suite,
    );
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  it("sends the key given on the first attempt and on each retry, and the service keeps the call under it", async () => {
    const sent: (string | null)[] = [];
    const api = createToolrunClient({
      baseUrl: base,
      apiKey: await t.key("slow"),
      fetch: (request) => {
        if (request.url.endsWith("/v1/tool/echo")) sent.push(request.headers.get("idempotency-key"));
        return fetch(request);
      },
      // The window's wait moves the server's clock, not the wall clock.
      sleep: async (ms) => t.clock.advance(ms),
      idempotencyKey: () => "the-client-default",
    });
    await api.callTool("echo", INPUT, { idempotencyKey: "order-1042-first" });
    // The minute's one request is spent: the next call is answered 429 and retried after the window.
    const first = await api.callTool("echo", INPUT, {
      idempotencyKey: "order-1042-second",
    });
    assert.deepEqual(sent, ["order-1042-first", "order-1042-second", "order-1042-second"]);

    // Sent again under its key, the call is not run again: the service answers the stored answer.
    t.clock.advance(60_000);
    const again = await api.callTool("echo", INPUT, {
      idempotencyKey: "order-1042-second",
    });
    assert.equal(again.request_id, first.request_id);
    assert.equal(again.credits_remaining, first.credits_remaining);
  });
});

describe("TypeScript client: signal and timeoutMs", { timeout: 30_000 }, () => {
  it("does not send a call whose signal has already aborted", async () => {
    const sent: Request[] = [];
    const reason = new Error("the user left");
    await assert.rejects(
      offline({ fetch: silent(sent) }).callTool("echo", INPUT, {
        signal: AbortSignal.abort(reason),
      }),
      (error) => error === reason,
    );
    assert.equal(sent.length, 0);
  });

  it("aborts a call in flight with the signal's reason, and does not retry it", async () => {
    const sent: Request[] = [];
    const controller = new AbortController();
    const call = offline({ fetch: silent(sent) }).callTool("echo", INPUT, {
      signal: controller.signal,
    });
    while (sent.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await assert.rejects(call, { name: "AbortError" });
    assert.equal(sent.length, 1);
  });

  it("aborts a call waiting to retry, without waiting out the Retry-After", async () => {
    const sent: Request[] = [];
    const controller = new AbortController();
    const api = offline({ fetch: unavailable(sent, () => controller.abort()), maxRetries: 1 });
    await assert.rejects(api.callTool("echo", INPUT, { signal: controller.signal }), {
      name: "AbortError",
    });
    assert.equal(sent.length, 1);
  });

  it("ends a call that gets no answer within timeoutMs with a ToolrunTimeoutError", async () => {
    const sent: Request[] = [];
    await assert.rejects(
      offline({ fetch: silent(sent) }).callTool("echo", INPUT, { timeoutMs: 20 }),
      (error) => {
        assert.ok(error instanceof ToolrunTimeoutError);
        assert.equal(error.timeoutMs, 20);
        assert.match(error.message, /same idempotencyKey/);
        return true;
      },
    );
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.signal.aborted, true, "the request itself was aborted, not left running");
  });

  it("counts the waits between retries in timeoutMs", async () => {
    const sent: Request[] = [];
    const api = offline({ fetch: unavailable(sent), maxRetries: 3 });
    await assert.rejects(api.callTool("echo", INPUT, { timeoutMs: 20 }), ToolrunTimeoutError);
    assert.equal(sent.length, 1, "the 30 s Retry-After was not waited out");
  });

  it("gives the caller's own abort, not a timeout, when the signal aborts first", async () => {
    const sent: Request[] = [];
    const controller = new AbortController();
    const call = offline({ fetch: silent(sent) }).callTool("echo", INPUT, {
      signal: controller.signal,
      timeoutMs: 2_000_000_000,
    });
    while (sent.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await assert.rejects(call, { name: "AbortError" });
  });

  it("answers within timeoutMs as without it, and a refusal still as a ToolrunError", async () => {
    const api = offline({
      fetch: async () =>
        Response.json(
          { type: "about:blank", title: "Not found", status: 404, code: "tool_not_found" },
          { status: 404, headers: { "content-type": "application/problem+json" } },
        ),
    });
    await assert.rejects(api.callTool("echo", INPUT, { timeoutMs: 60_000 }), (error) => {
      assert.ok(error instanceof ToolrunError);
      assert.equal(error.code, "tool_not_found");
      return true;
    });
  });

  it("refuses a timeoutMs that is not a usable number of milliseconds", async () => {
    const sent: Request[] = [];
    for (const timeoutMs of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])
      await assert.rejects(
        offline({ fetch: silent(sent) }).callTool("echo", INPUT, { timeoutMs }),
        RangeError,
      );
    assert.equal(sent.length, 0);
  });
});
