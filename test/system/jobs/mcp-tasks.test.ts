/**
 * MCP tasks against a slow local upstream, started as operators start toolrun (two instances of one
 * PostgreSQL database, the example's `build-report` against the report service of
 * examples/reports): an MCP client with the tasks extension (the extension's own client, on the
 * SDK's 2026-07-28 client) calls it, gets a task, and polls it to the report, charged once, while
 * the other instance answers `tasks/get` for the same task; a client without the extension gets the
 * synchronous answer of an `optional` variant, and the missing-capability error for the
 * `required` one.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { ProtocolError } from "@modelcontextprotocol/client";
import type { TaskExecutionEvent } from "@modelcontextprotocol/ext-tasks/client";
import { resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { createReportService } from "../../../examples/reports/server.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { connect, postRpc, tasksSession } from "../../mcp/helpers.ts";
import { type Cluster, createCluster } from "../scale-out/cluster.ts";

const database = testDatabaseUrl();
const REPORT_MS = 1500;
const PRICE = 10;
const TASKS = "io.modelcontextprotocol/tasks";

describe("MCP tasks for jobs, against a slow upstream", { skip: database.skip }, () => {
  const reports = createReportService(REPORT_MS);
  let cluster: Cluster;

  before(async () => {
    reports.server.listen(0, "127.0.0.1");
    await once(reports.server, "listening");
    const origin = `http://127.0.0.1:${(reports.server.address() as AddressInfo).port}`;
    const example = JSON.parse(
      readFileSync(new URL("../../../examples/tools/job-tools.json", import.meta.url), "utf8"),
    ) as { httpTools: Record<string, unknown>[] };
    const [report] = example.httpTools;
    assert.ok(report);
    const url = String(report.url).replace("http://127.0.0.1:8788", origin);
    cluster = await createCluster({
      databaseUrl: database.url ?? "",
      redisUrl: null,
      config: {
        httpTools: [
          { ...report, url },
          // The same report, answered synchronously unless the call runs as a job.
          { ...report, slug: "quick-report", url, jobs: "optional", timeoutMs: 60_000 },
        ],
      },
    });
  });
  after(async () => {
    await cluster?.cleanup();
    reports.server.close();
  });

  async function creditsUsed(base: string, key: string): Promise<number> {
    const answer = await fetch(`${base}/v1/me/credits`, { headers: { authorization: `Bearer ${key}` } });
    return ((await answer.json()) as { credits_used: number }).credits_used;
  }

  it("gives a client with the extension a task it polls to the report, charged once, on either instance", async () => {
    const [a, b] = await cluster.start(2);
    assert.ok(a && b);
    const { key } = await cluster.createKey("builder", 1000);
    const client = await connect(`${a.url}/mcp`, key, "2026-07-28");
    const session = tasksSession(client, `${a.url}/mcp`, key);
    try {
      const execution = await session.callTool("build-report", { period: "2026-10" });
      assert.equal(execution.kind, "task");
      assert.ok(execution.handle);
      const { taskId } = execution.handle;
      assert.match(taskId, /^job_[0-9a-f]{32}$/);

      // The other instance knows the task: the job is in the database.
      const elsewhere = await postRpc(
        `${b.url}/mcp`,
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tasks/get",
          params: {
            taskId,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
            },
          },
        },
        {
          authorization: `Bearer ${key}`,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tasks/get",
          "mcp-name": taskId,
        },
      );
      assert.equal((elsewhere.body as { result: { status: string } }).result.status, "working");

      const seen: string[] = [];
      const { outcome } = await execution.settle({
        onEvent: (event: TaskExecutionEvent<unknown>) => {
          if (event.type === "task") seen.push(event.task.status);
        },
      });
      assert.equal(outcome.status, "completed", JSON.stringify(outcome));
      assert.ok(seen.includes("working"), `polled while it ran: ${seen.join(", ")}`);
      const result = resultFromTaskOutcome(outcome);
      const envelope = result.structuredContent as { outputs: { period: string }; credits_used: number };
      assert.equal(envelope.outputs.period, "2026-10");
      assert.equal(envelope.credits_used, PRICE);
      assert.equal(await creditsUsed(b.url, key), PRICE);
      assert.equal(reports.counts.made, 1);
    } finally {
      await session.close();
      await client.close();
      await a.stop();
      await b.stop();
    }
  });

  it("gives a client without it the synchronous answer, and the missing-capability error for a required tool", async () => {
    const [server] = await cluster.start(1);
    assert.ok(server);
    const { key } = await cluster.createKey("builder", 1000);
    const client = await connect(`${server.url}/mcp`, key, "2026-07-28");
    try {
      const answer = await client.callTool({ name: "quick-report", arguments: { period: "2026-09" } });
      assert.equal(answer.isError, undefined, JSON.stringify(answer));
      assert.equal((answer.structuredContent as { outputs: { period: string } }).outputs.period, "2026-09");
      assert.equal(await creditsUsed(server.url, key), PRICE);

      await assert.rejects(
        client.callTool({ name: "build-report", arguments: { period: "2026-09" } }),
        (error: unknown) => error instanceof ProtocolError && error.code === -32021,
      );
      assert.equal(await creditsUsed(server.url, key), PRICE);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
