/**
 * One run of a tool: what it gets on its context, and the status each way of failing ends the
 * (refunded) call with: 422 for the contract's error, 500 for a throw, a timeout, a non-object or
 * an answer outside the output schema, 499 when the client went away (before a tool with effects
 * outside started, or any time during one without).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CheckedTool, checkDefinition } from "../../src/core/tools/check-definition.ts";
import { CLIENT_GONE_STATUS, runToolCall, type ToolRunResult } from "../../src/core/tools/run.ts";
import { ToolFailure } from "../../src/core/tools/tool-failure.ts";
import { type ToolContext, UnprocessableInputError } from "../../src/tools/tool.ts";

function toolWith(
  run: (input: Record<string, unknown>, context: ToolContext) => unknown,
  timeoutMs = 30_000,
  effects: "none" | "external" = "none",
): CheckedTool {
  const check = checkDefinition({
    slug: "under-test",
    name: "Under test",
    description: "A tool whose run the test chooses.",
    keywords: [],
    version: "1.0.0",
    defaults: { weight: 1, maxBodyBytes: 1024 },
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { n: { type: "number" } } },
    examples: [],
    effects,
    timeoutMs,
    run,
  });
  assert.ok(check.ok);
  return check.tool;
}

async function failureOf(result: ToolRunResult | Promise<ToolRunResult>): Promise<[number, unknown]> {
  const ended = await result;
  assert.ok(!ended.ok, `expected a failure, got ${JSON.stringify(ended)}`);
  return [ended.httpStatus, ended.error];
}

describe("running a tool", () => {
  it("answers a synchronous tool synchronously", () => {
    const result = runToolCall(
      toolWith(() => ({ n: 1 })),
      {},
      { requestId: "r" },
    );
    assert.deepEqual(result, { ok: true, value: { n: 1 } });
  });

  it("awaits an asynchronous tool", async () => {
    const tool = toolWith(async (input) => ({ n: (input.n as number) * 2 }));
    const result = runToolCall(tool, { n: 21 }, { requestId: "r" });
    assert.ok(result instanceof Promise);
    assert.deepEqual(await result, { ok: true, value: { n: 42 } });
  });

  it("gives the tool its request id, secrets, idempotency key, signal and the 422 error", async () => {
    let seen: ToolContext | undefined;
    const tool = toolWith((_, context) => {
      seen = context;
      return {};
    });
    runToolCall(tool, {}, { requestId: "req_9", idempotencyKey: "idem", secrets: { token: "t" } });
    assert.ok(seen);
    assert.equal(seen.requestId, "req_9");
    assert.equal(seen.idempotencyKey, "idem");
    assert.deepEqual(seen.secrets, { token: "t" });
    assert.ok(seen.signal instanceof AbortSignal);
    assert.equal(seen.signal.aborted, false);
    assert.equal(seen.UnprocessableInputError, UnprocessableInputError);
    runToolCall(tool, {}, { requestId: "r" });
    assert.deepEqual(seen.secrets, {});
    assert.equal(seen.idempotencyKey, undefined);
  });

  it("ends with 422 when the tool throws the contract's error, sync or async", async () => {
    for (const run of [
      () => {
        throw new UnprocessableInputError("No answer.");
      },
      async (_: unknown, context: ToolContext) => {
        throw new context.UnprocessableInputError("No answer.");
      },
    ]) {
      const [status, error] = await failureOf(runToolCall(toolWith(run), {}, { requestId: "r" }));
      assert.equal(status, 422);
      assert.equal((error as Error).message, "No answer.");
    }
  });

  it("ends with 500 when the tool throws anything else, keeping the error for the logs", async () => {
    const thrown = new TypeError("secret internal detail");
    for (const run of [
      () => {
        throw thrown;
      },
      async () => Promise.reject(thrown),
    ]) {
      assert.deepEqual(await failureOf(runToolCall(toolWith(run), {}, { requestId: "r" })), [500, thrown]);
    }
  });

  it("ends with 500 when the answer is not an object or breaks the output schema", async () => {
    for (const value of [null, 42, "text", [1], undefined]) {
      for (const run of [() => value, async () => value]) {
        const [status, error] = await failureOf(runToolCall(toolWith(run), {}, { requestId: "r" }));
        assert.equal(status, 500);
        assert.ok(error instanceof ToolFailure);
        assert.equal(error.message, "The tool's answer is not a JSON object.");
      }
    }
    const [status, error] = await failureOf(
      runToolCall(
        toolWith(async () => ({ n: "one" })),
        {},
        { requestId: "r" },
      ),
    );
    assert.equal(status, 500);
    assert.ok(error instanceof ToolFailure);
    assert.equal(error.message, "The tool's answer does not match its output schema.");
    assert.match(String(error.reason), /must be number/);
  });

  it("ends a tool that never answers at its timeout, and fires its signal", async () => {
    let signal: AbortSignal | undefined;
    const tool = toolWith((_, context) => {
      signal = context.signal;
      return new Promise(() => {});
    }, 50);
    const [status, error] = await failureOf(runToolCall(tool, {}, { requestId: "r" }));
    assert.equal(status, 500);
    assert.ok(error instanceof ToolFailure);
    assert.equal(error.message, "The tool did not finish within 50 ms.");
    assert.equal(signal?.aborted, true);
    assert.equal(signal?.reason, error);
  });

  it("ignores what a tool does after its timeout", async () => {
    let late: ((value: unknown) => void) | undefined;
    let fail: ((error: unknown) => void) | undefined;
    const tool = toolWith(
      () =>
        new Promise((resolve, reject) => {
          late = resolve;
          fail = reject;
        }),
      20,
    );
    const [status] = await failureOf(runToolCall(tool, {}, { requestId: "r" }));
    assert.equal(status, 500);
    late?.({ n: 1 });
    fail?.(new Error("too late"));
  });

  it("ends with 499 when the client goes away, firing the tool's signal, and does not start a tool with effects outside whose client is gone", async () => {
    let signal: AbortSignal | undefined;
    const tool = toolWith((_, context) => {
      signal = context.signal;
      return new Promise(() => {});
    });
    const clientGone = new AbortController();
    const pending = runToolCall(tool, {}, { requestId: "r", clientGone: () => clientGone.signal });
    clientGone.abort();
    const [status] = await failureOf(pending);
    assert.equal(status, CLIENT_GONE_STATUS);
    assert.equal(signal?.aborted, true);

    let ran = false;
    const never = toolWith(
      () => {
        ran = true;
        return {};
      },
      30_000,
      "external",
    );
    const [goneStatus] = await failureOf(
      runToolCall(never, {}, { requestId: "r", clientGone: () => clientGone.signal }),
    );
    assert.equal(goneStatus, CLIENT_GONE_STATUS);
    assert.equal(ran, false);
  });

  it("runs a started tool with effects outside to its end when the client goes away: its effect may have happened", async () => {
    let signal: AbortSignal | undefined;
    const finish = Promise.withResolvers<{ n: number }>();
    const tool = toolWith(
      (_, context) => {
        signal = context.signal;
        return finish.promise;
      },
      30_000,
      "external",
    );
    const clientGone = new AbortController();
    const pending = runToolCall(tool, {}, { requestId: "r", clientGone: () => clientGone.signal });
    clientGone.abort();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(signal?.aborted, false);
    finish.resolve({ n: 1 });
    assert.deepEqual(await pending, { ok: true, value: { n: 1 } });
  });

  it("never asks for the client's signal for a tool that answers at once", () => {
    let asked = 0;
    const tool = toolWith(() => ({ n: 1 }));
    const clientGone = () => {
      asked++;
      return new AbortController().signal;
    };
    const result = runToolCall(tool, {}, { requestId: "r", clientGone });
    assert.deepEqual(result, { ok: true, value: { n: 1 } });
    assert.equal(asked, 0);
  });
});
