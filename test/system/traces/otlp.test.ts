/**
 * Traces end to end: `toolrun serve` with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a small OTLP/HTTP
 * receiver in this test, an HTTP tool whose upstream is a real server on loopback. An HTTP call
 * and MCP `tools/call`s, each sent inside a trace of the caller's, must come back as spans in that
 * trace, with the upstream seeing the trace too, and no secret in anything exported.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { EXAMPLE_HTTP_TOOLS } from "../../helpers/operator-tools.ts";
import { type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { startUpstream, type TestUpstream, TICKETS_TOKEN } from "../../helpers/upstream.ts";

type Json = Record<string, unknown>;

/** One span as OTLP/HTTP JSON carries it, its attributes flattened. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number };
  links: { traceId: string; spanId: string }[];
}

const SERVER = 2;
const CLIENT = 3;
const STATUS_ERROR = 2;
/** What a caller sends as input, which a GET tool sends upstream in its query string. */
const QUERY_SECRET = "caller-input-must-not-leak";

/** A W3C trace context of the caller's own: a fresh trace and the caller's span in it. */
function callerContext() {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** An OTLP/HTTP receiver: keeps every body posted to /v1/traces, as text and as spans. */
async function startReceiver() {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") bodies.push(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const spans = (): ExportedSpan[] =>
    bodies.flatMap((body) =>
      (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: Json[] }[] }[] }).resourceSpans.flatMap(
        (resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map(flatten)),
      ),
    );
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    spans,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function flatten(span: Json): ExportedSpan {
  const attributes: ExportedSpan["attributes"] = {};
  for (const { key, value } of span.attributes as { key: string; value: Json }[]) {
    const [inner] = Object.values(value);
    attributes[key] = typeof inner === "string" && "intValue" in value ? Number(inner) : (inner as string);
  }
  return {
    ...(span as unknown as ExportedSpan),
    attributes,
    links: (span.links as ExportedSpan["links"] | undefined) ?? [],
  };
}

describe("traces exported over OTLP/HTTP", () => {
  let dir: string;
  let upstream: TestUpstream;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: ServerProcess;
  let key: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "toolrun-traces-"));
    upstream = await startUpstream();
    receiver = await startReceiver();
    const example = JSON.parse(readFileSync(EXAMPLE_HTTP_TOOLS, "utf8")) as { httpTools: Json[] };
    const ticket = example.httpTools[0] as Json;
    const configPath = join(dir, "toolrun.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        httpTools: [
          { ...ticket, url: `${upstream.origin}/tickets` },
          {
            ...ticket,
            slug: "echo-by-get",
            url: `${upstream.origin}/echo`,
            method: "GET",
            outputSchema: { type: "object" },
          },
        ],
      }),
    );
    server = await startServerProcess({
      TOOLRUN_DATABASE: join(dir, "toolrun.db"),
      TOOLRUN_CONFIG: configPath,
      TICKETS_TOKEN,
      LOG_LEVEL: "info",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin,
      OTEL_BSP_SCHEDULE_DELAY: "50",
    });
    const printed = /\n\s+(\S+_\S{32})\n/.exec(server.output());
    assert.ok(printed?.[1], server.output());
    key = printed[1];
  });

  after(async () => {
    await server?.stop();
    await upstream?.close();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    "content-type": "application/json",
    ...extra,
  });

  const mcpCall = async (id: number, name: string, args: Json, traceparent: string) => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: headers({
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      }),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args, _meta: { traceparent } },
      }),
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { result: Json }).result;
  };

  /** The spans of `traceId` once `expected` of them have arrived. */
  const spansOf = async (traceId: string, expected: number): Promise<ExportedSpan[]> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const spans = receiver.spans().filter((span) => span.traceId === traceId);
      if (spans.length >= expected || Date.now() > deadline) return spans;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** The server's log line matching `match`: written after the answer, it may still be in the pipe. */
  const logLine = async (match: (line: string) => boolean): Promise<string | undefined> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const line = server.output().split("\n").find(match);
      if (line !== undefined || Date.now() > deadline) return line;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const named = (spans: ExportedSpan[], name: string): ExportedSpan => {
    const span = spans.find((s) => s.name === name);
    assert.ok(span, `no span "${name}" among ${spans.map((s) => s.name).join(", ")}`);
    return span;
  };

  /** The upstream's requests that came within `traceId`, with the parent span they named. */
  const upstreamParents = (traceId: string): string[] =>
    upstream.requests.flatMap((request) => {
      const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(request.headers.traceparent));
      return match?.[1] === traceId && match[2] ? [match[2]] : [];
    });

  it("an HTTP call is a server span in the caller's trace, with the ledger's and the upstream's spans under it", async () => {
    const caller = callerContext();
    const response = await fetch(`${server.url}/v1/tool/create-ticket`, {
      method: "POST",
      headers: headers({ traceparent: caller.traceparent }),
      body: JSON.stringify({ title: "Printer on fire", priority: "high" }),
    });
    assert.equal(response.status, 200);
    const credits = ((await response.json()) as { credits_used: number }).credits_used;

    const spans = await spansOf(caller.traceId, 4);
    const call = named(spans, "POST /v1/tool/:slug");
    assert.equal(call.kind, SERVER);
    assert.equal(call.parentSpanId, caller.spanId);
    assert.equal(call.attributes["http.route"], "/v1/tool/:slug");
    assert.equal(call.attributes["http.response.status_code"], 200);
    assert.equal(call.attributes["gen_ai.tool.name"], "create-ticket");
    assert.match(String(call.attributes["toolrun.key.id"]), /^key_/);
    assert.equal(call.attributes["toolrun.credits"], credits);
    assert.equal(call.attributes["toolrun.call.outcome"], "charged");
    for (const ledger of ["toolrun.ledger.reserve", "toolrun.ledger.settle"])
      assert.equal(named(spans, ledger).parentSpanId, call.spanId);
    assert.equal(named(spans, "toolrun.ledger.settle").attributes["toolrun.call.outcome"], "charged");
    const outward = named(spans, "POST");
    assert.equal(outward.kind, CLIENT);
    assert.equal(outward.parentSpanId, call.spanId);
    assert.equal(outward.attributes["url.full"], `${upstream.origin}/tickets`);
    assert.equal(outward.attributes["http.response.status_code"], 201);
    assert.deepEqual(upstreamParents(caller.traceId), [outward.spanId]);

    const line = await logLine(
      (text) => text.includes('"request completed"') && text.includes("/v1/tool/create-ticket"),
    );
    assert.ok(line, server.output());
    assert.equal((JSON.parse(line) as { traceId?: string }).traceId, caller.traceId);
  });

  it("an MCP tools/call is a `tools/call {tool}` server span whose parent comes from params._meta", async () => {
    const caller = callerContext();
    const result = await mcpCall(7, "create-ticket", { title: "Paper jam" }, caller.traceparent);
    assert.notEqual(result.isError, true);

    const spans = await spansOf(caller.traceId, 4);
    const call = named(spans, "tools/call create-ticket");
    assert.equal(call.kind, SERVER);
    assert.equal(call.parentSpanId, caller.spanId);
    assert.equal(call.attributes["mcp.method.name"], "tools/call");
    assert.equal(call.attributes["gen_ai.tool.name"], "create-ticket");
    assert.equal(call.attributes["gen_ai.operation.name"], "execute_tool");
    assert.equal(call.attributes["jsonrpc.request.id"], "7");
    assert.equal(call.attributes["toolrun.call.outcome"], "charged");
    assert.equal(call.attributes["error.type"], undefined);
    assert.equal(named(spans, "toolrun.ledger.settle").parentSpanId, call.spanId);
    assert.deepEqual(upstreamParents(caller.traceId), [named(spans, "POST").spanId]);
    // The HTTP request that carried the message is its own trace, linked from the MCP span.
    assert.equal(call.links.length, 1);
    const [link] = call.links;
    const transport = receiver.spans().find((span) => span.spanId === link?.spanId);
    assert.equal(transport?.name, "POST /mcp");
  });

  it("a tools/call answered with isError sets error.type tool_error", async () => {
    const caller = callerContext();
    const result = await mcpCall(8, "create-ticket", { priority: "urgent" }, caller.traceparent);
    assert.equal(result.isError, true);

    const [call] = await spansOf(caller.traceId, 1);
    assert.equal(call?.name, "tools/call create-ticket");
    assert.equal(call.attributes["error.type"], "tool_error");
    assert.equal(call.attributes["toolrun.problem.code"], "validation_error");
    assert.equal(call.status.code, STATUS_ERROR);
  });

  it("exports no secret: neither the API key, nor an upstream's header, nor the input in a query", async () => {
    const caller = callerContext();
    const answer = await fetch(`${server.url}/v1/tool/echo-by-get?api_key=${key}`, {
      method: "POST",
      headers: headers({ traceparent: caller.traceparent }),
      body: JSON.stringify({ title: QUERY_SECRET }),
    });
    assert.equal(answer.status, 200);
    const outward = named(await spansOf(caller.traceId, 3), "GET");
    assert.equal(outward.attributes["url.full"], `${upstream.origin}/echo`);
    // The input did reach the upstream in the query: what the traces lack was there to leak.
    assert.ok(upstream.requests.some((request) => request.url.includes(QUERY_SECRET)));

    // A key sent where a tool's name goes names no span: the span is the method's alone.
    const misnamed = callerContext();
    const refused = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: headers({
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      }),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: key, arguments: {}, _meta: { traceparent: misnamed.traceparent } },
      }),
    });
    assert.equal(((await refused.json()) as { error: { code: number } }).error.code, -32602);
    const [unknown] = await spansOf(misnamed.traceId, 1);
    assert.equal(unknown?.name, "tools/call");
    assert.equal(unknown.attributes["error.type"], "-32602");
    assert.equal(unknown.attributes["gen_ai.tool.name"], undefined);

    const exported = receiver.bodies.join("\n");
    for (const secret of [key, key.slice(-32), TICKETS_TOKEN, QUERY_SECRET, "Bearer"])
      assert.ok(!exported.includes(secret), `an exported span holds "${secret}"`);
  });
});
