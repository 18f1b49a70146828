/**
 * The TypeScript client (clients/typescript, as built) against a started server: typed success,
 * typed errors by code, retries that honour Retry-After or back off with jitter, and one
 * Idempotency-Key per tool call reused by every retry of it. Waiting is the test's own `sleep`,
 * which moves the server's clock instead of the wall clock.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createToolrunClient, type ToolrunClientOptions, ToolrunError } from "@toolrun/client";
import { tools } from "../../src/tools/index.ts";
import { retainingWallPressureCalculator } from "../../src/tools/retaining-wall-pressure-calculator/index.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";

describe("TypeScript client", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let base: string;
  const sent: { url: string; idempotencyKey: string | null }[] = [];
  const slept: number[] = [];

  const client = (apiKey: string, options: Partial<ToolrunClientOptions> = {}) =>
    createToolrunClient({
      baseUrl: base,
      apiKey,
      fetch: (request) => {
        sent.push({ url: request.url, idempotencyKey: request.headers.get("idempotency-key") });
        return fetch(request);
      },
      sleep: async (ms) => {
        slept.push(ms);
        t.clock.advance(ms);
      },
      ...options,
    });

  before(async () => {
    t = await createTestApp(
      {
        tools: [...tools, ...fixtureTools],
        plans: {
          free: { id: "free", label: "Free", rpm: 1000, monthlyCredits: 1000, minCredits: 2 },
          slow: { id: "slow", label: "Slow", rpm: 1, monthlyCredits: 1000, minCredits: 2 },
        },
      },
      suite,
    );
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  const reset = () => {
    sent.length = 0;
    slept.length = 0;
  };

  it("runs a tool and reads the account, typed from the document", async () => {
    const api = client(await t.key("free"));
    const example = retainingWallPressureCalculator.examples[0];
    assert.ok(example);
    const envelope = await api.callTool("retaining-wall-pressure-calculator", example.input as never);
    assert.equal(envelope.tool, "retaining-wall-pressure-calculator");
    assert.ok(envelope.credits_used > 0);
    const credits = await api.getCredits();
    assert.equal(credits.credits_used, envelope.credits_used);
    const found = await api.searchTools("retaining wall", 1);
    assert.equal(found.tools[0]?.slug, "retaining-wall-pressure-calculator");
    const usage = await api.getUsage({ limit: 1 });
    assert.equal(usage.calls, 1);
  });

  it("throws a ToolrunError carrying the problem's code, and does not retry a refusal", async () => {
    reset();
    const api = client(await t.key("free"));
    await assert.rejects(
      api.callTool("retaining-wall-pressure-calculator", { height: -1 } as never),
      (error) => {
        assert.ok(error instanceof ToolrunError);
        assert.equal(error.code, "validation_error");
        assert.equal(error.status, 400);
        assert.equal(typeof error.problem.fields, "object");
        return true;
      },
    );
    await assert.rejects(client(`tr_live_${"A".repeat(32)}`).getCredits(), { code: "invalid_api_key" });
    assert.equal(sent.length, 2);
    assert.deepEqual(slept, []);
  });

  it("waits what Retry-After says after a 429, then succeeds with the same Idempotency-Key", async () => {
    const api = client(await t.key("slow"));
    await api.callTool("echo", { value: 1 });
    reset();
    const envelope = await api.callTool("echo", { value: 2 });
    assert.deepEqual((envelope as { outputs: unknown }).outputs, { value: 2, doubled: 4 });
    // The clock stands at hh:mm:10, so the window has 50 s left: Retry-After 50.
    assert.deepEqual(slept, [50_000]);
    assert.equal(sent.length, 2);
    assert.ok(sent[0]?.idempotencyKey);
    assert.equal(sent[1]?.idempotencyKey, sent[0]?.idempotencyKey);
  });

  it("backs off exponentially with jitter on a 5xx, reusing the call's key, then throws its code", async () => {
    reset();
    const key = await t.key("free");
    const api = client(key, { random: () => 0.5, baseDelayMs: 100, maxRetries: 3 });
    const before = await api.getCredits();
    await t.store.setSwitch("echo", { enabled: false });
    try {
      await assert.rejects(api.callTool("echo", { value: 1 }), {
        code: "tool_disabled",
        status: 503,
      });
    } finally {
      await t.store.setSwitch("echo", { enabled: true });
    }
    // Full jitter: half of 100, 200, 400 ms.
    assert.deepEqual(slept, [50, 100, 200]);
    const calls = sent.filter((s) => s.url.endsWith("/v1/tool/echo"));
    assert.equal(calls.length, 4);
    assert.equal(new Set(calls.map((c) => c.idempotencyKey)).size, 1);
    assert.equal((await api.getCredits()).credits_used, before.credits_used, "nothing was charged");
  });

  it("retries a 500 processing_error with the call's key, each retry running the tool again, none charged", async () => {
    reset();
    const key = await t.key("free");
    const api = client(key, { random: () => 0.5, baseDelayMs: 100, maxRetries: 3 });
    await assert.rejects(api.callTool("echo", { value: 1, mode: "crash" }), {
      code: "processing_error",
      status: 500,
    });
    assert.deepEqual(slept, [50, 100, 200]);
    const calls = sent.filter((s) => s.url.endsWith("/v1/tool/echo"));
    assert.equal(calls.length, 4);
    assert.equal(new Set(calls.map((c) => c.idempotencyKey)).size, 1);
    const usage = await api.getUsage();
    assert.equal(usage.credits_used, 0);
    assert.deepEqual(
      usage.recent.map((c) => [c.status, c.http_status]),
      Array.from({ length: 4 }, () => ["refunded", 500]),
    );
  });

  it("gives each tool call its own key", async () => {
    reset();
    const api = client(await t.key("free"));
    await api.callTool("echo", { value: 1 });
    await api.callTool("echo", { value: 1 });
    assert.equal(sent.length, 2);
    assert.notEqual(sent[0]?.idempotencyKey, sent[1]?.idempotencyKey);
  });
});
