/**
 * MCP tasks over jobs (the `io.modelcontextprotocol/tasks` extension, protocol 2026-07-28), on the
 * wire as a client sends it, each answer checked against the extension's own schemas
 * (@modelcontextprotocol/ext-tasks): a client that declares the extension gets a task for a tool
 * that may run as a job, polls it with `tasks/get` to the tool's result, cancels it with
 * `tasks/cancel` (refunded), and finds another account's task not found; a client that does not
 * gets the synchronous answer, and cannot call the task methods. The extension's own client drives
 * a task to its result. This also pins what toolrun relies on in the SDK: that its 2026-07-28
 * route lets `resultType: "task"` through on `tools/call` and hands `tasks/get` and `tasks/cancel`
 * to custom handlers.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import {
  CallToolResultV2Schema,
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import type { AnyToolDefinition } from "../../src/tools/tool.ts";
import { bearer } from "../helpers/app.ts";
import { connect, type ListeningApp, postRpc, startMcpApp, tasksSession } from "./helpers.ts";

const TASKS = "io.modelcontextprotocol/tasks";

/** A tool whose each run waits for the test to open or fail it, and hears its signal. */
function gatedTool(slug: string, jobs: "optional" | "required") {
  const runs: { open(): void; fail(message: string): void; aborted: Promise<unknown> }[] = [];
  const definition = {
    slug,
    name: slug,
    description: "Waits for the test, as a slow upstream would.",
    keywords: [],
    version: "1.0.0",
    defaults: { weight: 3, maxBodyBytes: 1024 },
    inputSchema: { type: "object", properties: { n: { type: "integer" } } },
    outputSchema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
    examples: [],
    effects: "external",
    jobs,
    timeoutMs: 600_000,
    run(input: { n?: number }, context: { signal: AbortSignal }) {
      return new Promise((resolve, reject) => {
        const aborted = new Promise((heard) =>
          context.signal.addEventListener("abort", heard, { once: true }),
        );
        runs.push({ open: () => resolve({ n: input.n ?? 0 }), fail: (m) => reject(new Error(m)), aborted });
      });
    },
  } as unknown as AnyToolDefinition;
  return { definition, runs };
}

async function appWithJobTools(t: TestContext) {
  const required = gatedTool("slow-report", "required");
  const optional = gatedTool("maybe-slow", "optional");
  const lifetime = {
    after: (close: () => Promise<void>) =>
      t.after(async () => {
        for (const run of [...required.runs, ...optional.runs]) run.open();
        await app.deps.jobs.idle();
        await close();
      }),
  };
  const app = await startMcpApp({ tools: [required.definition, optional.definition] }, lifetime);
  return { app, required, optional };
}

let nextId = 1;

/** One 2026-07-28 request, with its `_meta` envelope and headers; `tasks` declares the extension. */
async function rpc(
  app: ListeningApp,
  key: string,
  method: string,
  params: Record<string, unknown>,
  tasks = true,
) {
  const name = typeof params.name === "string" ? params.name : params.taskId;
  const response = await postRpc(
    app.mcp,
    {
      jsonrpc: "2.0",
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          ...(params._meta as object | undefined),
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": tasks ? { extensions: { [TASKS]: {} } } : {},
        },
      },
    },
    {
      ...bearer(key),
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" && { "mcp-name": name }),
    },
  );
  return response.body as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

function callTool(app: ListeningApp, key: string, name: string, args: unknown, tasks = true) {
  return rpc(app, key, "tools/call", { name, arguments: args }, tasks);
}

async function creditsUsed(app: ListeningApp, key: string): Promise<number> {
  const usage = await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
  return usage.json().credits_used as number;
}

async function runsStarted(runs: readonly unknown[], count: number): Promise<void> {
  while (runs.length < count) await new Promise((resolve) => setImmediate(resolve));
}

/** The task the call answered, checked as the extension's CreateTaskResult. */
function taskOf(answer: { result?: Record<string, unknown> }) {
  assert.ok(answer.result, JSON.stringify(answer));
  const parsed = CreateTaskResultV2Schema.safeParse(answer.result);
  assert.ok(parsed.success, JSON.stringify(answer.result));
  return parsed.data;
}

function detailedTask(answer: { result?: Record<string, unknown> }) {
  assert.ok(answer.result, JSON.stringify(answer));
  const parsed = GetTaskResultV2Schema.safeParse(answer.result);
  assert.ok(parsed.success, JSON.stringify(answer.result));
  return answer.result;
}

describe("MCP tasks: a client with the tasks extension", () => {
  it("gets a task for a required tool, and polls it with tasks/get to the tool's result, charged once", async (t) => {
    const { app, required } = await appWithJobTools(t);
    const key = await app.key("builder");
    const answer = await callTool(app, key, "slow-report", { n: 7 });
    const task = taskOf(answer);
    assert.equal(task.resultType, "task");
    // The SDK's tools/call step gives any answer without `content` an empty one; a Result is open.
    assert.deepEqual(answer.result?.content, []);
    assert.match(task.taskId, /^job_[0-9a-f]{32}$/);
    assert.equal(task.status, "working");
    assert.equal(task.pollIntervalMs, 1000);
    // Its credits are held while it runs; the job is the task.
    const price = await creditsUsed(app, key);
    assert.ok(price > 0);
    const job = await app.app.inject({ method: "GET", url: `/v1/jobs/${task.taskId}`, headers: bearer(key) });
    assert.equal(job.json().status, "running");

    const working = detailedTask(await rpc(app, key, "tasks/get", { taskId: task.taskId }));
    assert.equal(working.status, "working");
    assert.equal(working.resultType, "complete");

    await runsStarted(required.runs, 1);
    required.runs[0]?.open();
    await app.deps.jobs.idle();
    const done = detailedTask(await rpc(app, key, "tasks/get", { taskId: task.taskId }));
    assert.equal(done.status, "completed");
    assert.ok(CallToolResultV2Schema.safeParse(done.result).success, JSON.stringify(done.result));
    const result = done.result as {
      structuredContent: { outputs: unknown; credits_used: number };
      isError?: boolean;
    };
    assert.deepEqual(result.structuredContent.outputs, { n: 7 });
    assert.equal(result.structuredContent.credits_used, price);
    assert.equal(result.isError, undefined);
    assert.equal(await creditsUsed(app, key), price);
  });

  it("gets a task for an optional tool too", async (t) => {
    const { app, optional } = await appWithJobTools(t);
    const key = await app.key("builder");
    const task = taskOf(await callTool(app, key, "maybe-slow", { n: 2 }));
    await runsStarted(optional.runs, 1);
    optional.runs[0]?.open();
    await app.deps.jobs.idle();
    const done = detailedTask(await rpc(app, key, "tasks/get", { taskId: task.taskId }));
    assert.equal(done.status, "completed");
    assert.deepEqual((done.result as { structuredContent: { outputs: unknown } }).structuredContent.outputs, {
      n: 2,
    });
  });

  it("sees a tool that failed as completed with the isError result a synchronous call answers, refunded", async (t) => {
    const { app, required } = await appWithJobTools(t);
    const key = await app.key("builder");
    const task = taskOf(await callTool(app, key, "slow-report", {}));
    await runsStarted(required.runs, 1);
    required.runs[0]?.fail("the report service broke");
    await app.deps.jobs.idle();
    const done = detailedTask(await rpc(app, key, "tasks/get", { taskId: task.taskId }));
    // The extension keeps `failed` for JSON-RPC errors; a tool's own failure is a completed call.
    assert.equal(done.status, "completed");
    const result = done.result as { isError: boolean; _meta: Record<string, { code: string }> };
    assert.equal(result.isError, true);
    assert.equal(result._meta["toolrun/problem"]?.code, "processing_error");
    assert.equal(typeof done.statusMessage, "string");
    assert.equal(await creditsUsed(app, key), 0);
  });

  it("cancels a task with tasks/cancel: its signal fires, it ends cancelled and nothing is charged", async (t) => {
    const { app, required } = await appWithJobTools(t);
    const key = await app.key("builder");
    const task = taskOf(await callTool(app, key, "slow-report", {}));
    await runsStarted(required.runs, 1);
    const ack = await rpc(app, key, "tasks/cancel", { taskId: task.taskId });
    assert.ok(CancelTaskResultV2Schema.safeParse(ack.result).success, JSON.stringify(ack));
    await required.runs[0]?.aborted;
    await app.deps.jobs.idle();
    const ended = detailedTask(await rpc(app, key, "tasks/get", { taskId: task.taskId }));
    assert.equal(ended.status, "cancelled");
    assert.equal(await creditsUsed(app, key), 0);
  });

  it("finds another account's task, and an unknown one, not found (-32602), for get and cancel", async (t) => {
    const { app } = await appWithJobTools(t);
    const owner = await app.key("builder");
    const stranger = await app.key("builder");
    const task = taskOf(await callTool(app, owner, "slow-report", {}));
    for (const [key, taskId] of [
      [stranger, task.taskId],
      [owner, "job_00000000000000000000000000000000"],
    ] as const) {
      for (const method of ["tasks/get", "tasks/cancel"]) {
        const answer = await rpc(app, key, method, { taskId });
        assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
        assert.match(answer.error?.message ?? "", /Task not found/);
      }
    }
    // The stranger's cancel did nothing to it.
    const still = detailedTask(await rpc(app, owner, "tasks/get", { taskId: task.taskId }));
    assert.equal(still.status, "working");
  });

  it("gives the same task for the same idempotency key, marked replayed, running the tool once", async (t) => {
    const { app, required } = await appWithJobTools(t);
    const key = await app.key("builder");
    const meta = { _meta: { "toolrun/idempotency-key": "report-2026-10" } };
    const first = taskOf(
      await rpc(app, key, "tools/call", { name: "slow-report", arguments: { n: 1 }, ...meta }),
    );
    const again = await rpc(app, key, "tools/call", { name: "slow-report", arguments: { n: 1 }, ...meta });
    assert.equal(taskOf(again).taskId, first.taskId);
    assert.deepEqual(again.result?._meta?.["toolrun/idempotent-replayed" as never], true);
    await runsStarted(required.runs, 1);
    assert.equal(required.runs.length, 1);
  });

  it("refuses a task past the account's live jobs as the call's isError result, too_many_jobs", async (t) => {
    const { app } = await appWithJobTools(t);
    const key = await app.key("free");
    taskOf(await callTool(app, key, "slow-report", {}));
    const refused = await callTool(app, key, "slow-report", {});
    const result = refused.result;
    assert.ok(result, JSON.stringify(refused));
    assert.equal(result.resultType, "complete");
    assert.equal(
      (result._meta as Record<string, { code: string }>)["toolrun/problem"]?.code,
      "too_many_jobs",
    );
  });

  it("answers a store that fails under tasks/get with -32603 naming backend_unavailable, nothing internal", async (t) => {
    const { app } = await appWithJobTools(t);
    const key = await app.key("builder");
    const task = taskOf(await callTool(app, key, "slow-report", {}));
    const getJob = app.store.getJob;
    app.store.getJob = async () => {
      throw new BackendUnavailableError("database", new Error("connect ECONNREFUSED 10.1.2.3:5432"));
    };
    try {
      const answer = await rpc(app, key, "tasks/get", { taskId: task.taskId });
      assert.equal(answer.error?.code, -32603, JSON.stringify(answer));
      assert.deepEqual(answer.error?.data, { code: "backend_unavailable" });
      assert.doesNotMatch(JSON.stringify(answer), /ECONNREFUSED|10\.1\.2\.3/);
    } finally {
      app.store.getJob = getJob;
    }
  });

  it("names the missing taskId as invalid params", async (t) => {
    const { app } = await appWithJobTools(t);
    const key = await app.key("builder");
    const answer = await rpc(app, key, "tasks/get", {});
    assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
    assert.match(JSON.stringify(answer.error), /taskId/);
  });

  it("gets a call the account cannot pay for refused as its isError result before anything runs, no task", async (t) => {
    const { app, required } = await appWithJobTools(t);
    const key = await app.key("builder", 0);
    const answer = await callTool(app, key, "slow-report", {});
    const result = answer.result;
    assert.ok(result, JSON.stringify(answer));
    assert.equal(result.resultType, "complete");
    assert.equal(result.isError, true);
    const problem = (result._meta as Record<string, { code: string }>)["toolrun/problem"];
    assert.equal(problem?.code, "insufficient_credits");
    assert.equal(required.runs.length, 0);
  });
});

describe("MCP tasks: the extension's own client", () => {
  it("calls a tool that runs as a job, follows its task and reads its result", async (t) => {
    const { app, required } = await appWithJobTools(t);
    const key = await app.key("builder");
    const client = await connect(app.mcp, key, "2026-07-28");
    const session = tasksSession(client, app.mcp, key);
    t.after(async () => {
      await session.close();
      await client.close();
    });
    const execution = await session.callTool("slow-report", { n: 5 });
    assert.equal(execution.kind, "task");
    await runsStarted(required.runs, 1);
    required.runs[0]?.open();
    const { outcome } = await execution.settle();
    assert.equal(outcome.status, "completed");
    const result = resultFromTaskOutcome(outcome);
    assert.equal(result.resultType, "complete");
    assert.deepEqual((result.structuredContent as { outputs: unknown }).outputs, { n: 5 });
  });
});

describe("MCP tasks: a client without the extension", () => {
  it("gets the synchronous answer of an optional tool", async (t) => {
    const { app, optional } = await appWithJobTools(t);
    const key = await app.key("builder");
    const answering = callTool(app, key, "maybe-slow", { n: 4 }, false);
    await runsStarted(optional.runs, 1);
    optional.runs[0]?.open();
    const answer = await answering;
    const result = answer.result;
    assert.ok(result, JSON.stringify(answer));
    assert.equal(result.resultType, "complete");
    assert.deepEqual((result.structuredContent as { outputs: unknown }).outputs, { n: 4 });
  });

  it("is refused a required tool with the missing-capability error naming the extension, charging nothing", async (t) => {
    const { app } = await appWithJobTools(t);
    const key = await app.key("builder");
    const answer = await callTool(app, key, "slow-report", {}, false);
    assert.equal(answer.error?.code, -32021, JSON.stringify(answer));
    assert.deepEqual(answer.error?.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
    assert.equal(await creditsUsed(app, key), 0);
  });

  it("is refused tasks/get and tasks/cancel with the missing-capability error", async (t) => {
    const { app } = await appWithJobTools(t);
    const key = await app.key("builder");
    const task = taskOf(await callTool(app, key, "slow-report", {}));
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const answer = await rpc(app, key, method, { taskId: task.taskId }, false);
      assert.equal(answer.error?.code, -32021, JSON.stringify(answer));
    }
  });
});

describe("MCP tasks: the server says it serves the extension", () => {
  it("declares it in server/discover", async (t) => {
    const { app } = await appWithJobTools(t);
    const key = await app.key("builder");
    const answer = await rpc(app, key, "server/discover", {});
    const capabilities = answer.result?.capabilities as { extensions?: Record<string, unknown> };
    assert.deepEqual(capabilities.extensions?.[TASKS], {});
  });
});
