/**
 * MCP on the embedded SQLite store: a `tools/call` of the webhook inspector on a GitHub push grown
 * to just under its 1 MiB limit, one call at a time, so its answer (the inspector's outputs, as
 * `structuredContent` and again as text) is the largest MCP answer the built-in tools give. Prices
 * what the MCP transport does to a large answer on top of the tool's own work.
 */
import { join } from "node:path";
import type { BenchCase } from "../lib/context.ts";
import { githubPushNear, INSPECTOR_SLUG } from "../lib/payloads.ts";
import { loadRow, type Target, warmUp } from "../lib/runs.ts";
import { authHeaders, prepareService, SkipCase, serveToolrun } from "../lib/service.ts";

/** A revision served through `initialize`, whose stateless calls need no handshake first. */
const PROTOCOL_VERSION = "2025-11-25";

function toolsCall(argumentsJson: string): string {
  return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${INSPECTOR_SLUG}","arguments":${argumentsJson}}}`;
}

const mcpInspector1MiB: BenchCase = {
  name: "mcp-inspector-1mib",
  title: "MCP tools/call of the webhook inspector on a push just under its 1 MiB limit, one call at a time",
  async run(context, result) {
    const service = await prepareService({
      dir: context.dir,
      database: join(context.dir, "toolrun.db"),
      logLevel: "info",
      cpuProfDir: context.options.cpuProfDir,
      nodeFlags: context.options.nodeFlags,
    });
    const server = await serveToolrun(service, context.serverCpu, "serve");
    try {
      const target: Target = {
        url: `${server.url}/mcp`,
        method: "POST",
        headers: {
          ...authHeaders(service),
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": PROTOCOL_VERSION,
        },
        body: toolsCall(githubPushNear()),
      };
      const response = await fetch(target.url, {
        method: "POST",
        headers: target.headers,
        body: target.body,
      });
      const answer = await response.text();
      if (response.status === 404) throw new SkipCase("no MCP endpoint");
      if (!response.ok || answer.includes('"isError":true'))
        throw new Error(`probe tools/call answered ${response.status}: ${answer.slice(0, 400)}`);
      result.details.requestBytes = Buffer.byteLength(target.body ?? "");
      result.details.answerBytes = Buffer.byteLength(answer);
      await warmUp(target, 1, context.options.warmup);
      context.progress(`${result.name}: ${context.options.duration} s, one call at a time`);
      const serial = await loadRow(
        `${result.name} serial`,
        [server.pid],
        { ...target, connections: 1, duration: context.options.duration },
        context.options.duration + 60,
      );
      result.rows.push(serial.row);
      result.checks.push({
        name: "every call answered 200",
        ok: serial.row.non2xx + serial.row.errors === 0,
        detail: `${serial.load.requests} calls, ${serial.row.non2xx} non-2xx, ${serial.row.errors} errors`,
      });
    } finally {
      await server.stop();
    }
  },
};

export const mcpCases: readonly BenchCase[] = [mcpInspector1MiB];
