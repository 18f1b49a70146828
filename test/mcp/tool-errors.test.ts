/**
 * A tool that ran and failed is an `isError` result whose text (and `_meta["toolrun/problem"]`) is
 * the problem document HTTP would send, with its code and members, and which has no
 * structuredContent; only a tool name we do not have is a JSON-RPC error. Refused and failed calls
 * leave the balance exactly where it was.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Client, ProtocolError } from "@modelcontextprotocol/client";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import { tools } from "../../src/tools/index.ts";
import { bearer, DOCS_URL, json, untilSuiteEnds } from "../helpers/app.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";
import { misplacedFieldCases, plainWall } from "../helpers/tools/retaining-wall-pressure-calculator.ts";
import { connect, type ListeningApp, postRpc, startMcpApp } from "./helpers.ts";

type Json = Record<string, unknown>;

interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  content?: unknown;
  _meta?: unknown;
}

function problemOf(result: ToolResult): Json {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined, "a failure carries no structuredContent");
  const problem = (result._meta as Record<string, Json>)["toolrun/problem"] as Json;
  const content = result.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  assert.deepEqual(JSON.parse(content[0]?.text ?? ""), problem, "the text item holds the same document");
  assert.equal(problem.type, `${DOCS_URL}/errors/${String(problem.code)}`);
  assert.equal(typeof problem.title, "string");
  assert.match(String(problem.request_id), /^req_/);
  return problem;
}

describe("MCP tool failures", () => {
  let t: ListeningApp;
  const suite = untilSuiteEnds();
  let key: string;
  let client: Client;
  const creditsUsed = async (forKey: string): Promise<number> => {
    const res = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(forKey) });
    return (res.json() as { credits_used: number }).credits_used;
  };

  before(async () => {
    t = await startMcpApp(
      {
        tools: [...tools, ...fixtureTools],
        plans: {
          free: { id: "free", label: "Free member", rpm: 1000, monthlyCredits: 1000, minCredits: 2 },
        },
      },
      suite,
    );
    key = await t.key("free");
    client = await connect(t.mcp, key, "2025-11-25");
  });
  after(() => client.close());

  it("400 validation_error with the same `fields` HTTP gives, nothing charged", async () => {
    const cases: [string, Json][] = [
      ["echo", { value: 200 }],
      ["echo", { value: "abc", extra: true }],
      ["retaining-wall-pressure-calculator", { unitWeight: 18, frictionAngle: 60, units: "cubits" }],
    ];
    for (const [name, args] of cases) {
      const problem = problemOf(await client.callTool({ name, arguments: args }));
      const overHttp = await t.app.inject({
        method: "POST",
        url: `/v1/tool/${name}`,
        headers: json(bearer(key)),
        payload: args,
      });
      assert.equal(problem.status, 400);
      assert.equal(problem.code, "validation_error");
      assert.deepEqual(problem.fields, overHttp.json().fields);
    }
    const problem = problemOf(
      await client.callTool({ name: "retaining-wall-pressure-calculator", arguments: { height: 1 } }),
    );
    assert.deepEqual(problem.fields, { unitWeight: "is required", frictionAngle: "is required" });
    const noArguments = problemOf(await client.callTool({ name: "echo" }));
    assert.deepEqual(noArguments.fields, { value: "is required" });
    assert.equal(await creditsUsed(key), 0);
  });

  it("a combination rule the schema cannot state is the same 400 naming the field, nothing charged", async () => {
    const rule = misplacedFieldCases.find(([name]) => name === "wall friction under Rankine");
    assert.ok(rule !== undefined);
    const [, change, fields] = rule;
    const problem = problemOf(
      await client.callTool({
        name: "retaining-wall-pressure-calculator",
        arguments: { ...plainWall, ...change },
      }),
    );
    assert.deepEqual([problem.status, problem.code], [400, "validation_error"]);
    assert.deepEqual(problem.fields, fields);
    assert.equal(await creditsUsed(key), 0);
  });

  it("the free tools check their arguments the same way", async () => {
    const search = problemOf(await client.callTool({ name: "search_tools", arguments: { limit: 0 } }));
    assert.equal(search.code, "validation_error");
    assert.deepEqual(search.fields, { q: "is required", limit: "must be at least 1" });
    const usage = problemOf(await client.callTool({ name: "get_usage", arguments: { cursor: "forged" } }));
    assert.deepEqual(usage.fields, { cursor: "is not a valid cursor" });
    const unknownSlug = problemOf(
      await client.callTool({ name: "describe_tool", arguments: { slug: "nope" } }),
    );
    assert.equal(unknownSlug.code, "tool_not_found");
    assert.equal(unknownSlug.status, 404);
  });

  it("422 unprocessable_input and 500 processing_error are refunded; internals stay inside", async () => {
    assert.equal(await creditsUsed(key), 0);
    const ok = await client.callTool({ name: "echo", arguments: { value: 1 } });
    assert.equal((ok.structuredContent as Json).credits_remaining, 997);

    const unprocessable = problemOf(
      await client.callTool({ name: "echo", arguments: { value: 1, mode: "unprocessable" } }),
    );
    assert.deepEqual(
      [unprocessable.status, unprocessable.code, unprocessable.credits_used, unprocessable.credits_remaining],
      [422, "unprocessable_input", 0, 997],
    );
    assert.equal(unprocessable.detail, "Echo has no answer in this mode.");

    const crash = await client.callTool({ name: "echo", arguments: { value: 1, mode: "crash" } });
    const crashed = problemOf(crash);
    assert.deepEqual(
      [crashed.status, crashed.code, crashed.credits_used, crashed.credits_remaining],
      [500, "processing_error", 0, 997],
    );
    assert.doesNotMatch(JSON.stringify(crash), /secret internal detail/);
    assert.equal(await creditsUsed(key), 3);
  });

  it("402 insufficient_credits when the allowance is short, nothing charged", async () => {
    const poor = await t.key("free", 4);
    const poorClient = await connect(t.mcp, poor, "2026-07-28");
    try {
      const first = await poorClient.callTool({ name: "echo", arguments: { value: 1 } });
      assert.equal((first.structuredContent as Json).credits_remaining, 1);
      const problem = problemOf(await poorClient.callTool({ name: "echo", arguments: { value: 1 } }));
      assert.deepEqual(
        [problem.status, problem.code, problem.credits_used, problem.credits_remaining],
        [402, "insufficient_credits", 0, 1],
      );
      assert.equal(await creditsUsed(poor), 3);
    } finally {
      await poorClient.close();
    }
  });

  it("413 payload_too_large past the tool's own body limit", async () => {
    const problem = problemOf(
      await client.callTool({ name: "heavy-text", arguments: { text: "x".repeat(5000) } }),
    );
    assert.equal(problem.status, 413);
    assert.equal(problem.code, "payload_too_large");
  });

  it("503 tool_disabled for a disabled tool; a tool without API surface is not listed and answers 403", async () => {
    await t.store.setSwitch("echo", { enabled: false });
    await t.store.setSwitch("heavy-text", { api: false });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(names.includes("echo"));
      assert.ok(!names.includes("heavy-text"));
      const disabled = problemOf(await client.callTool({ name: "echo", arguments: { value: 1 } }));
      assert.deepEqual([disabled.status, disabled.code], [503, "tool_disabled"]);
      const hidden = problemOf(await client.callTool({ name: "heavy-text", arguments: { text: "a" } }));
      assert.deepEqual([hidden.status, hidden.code], [403, "tool_not_allowed"]);
    } finally {
      await t.store.setSwitch("echo", { enabled: true });
      await t.store.setSwitch("heavy-text", { api: true });
    }
  });

  it("a store that fails mid-call: 503 backend_unavailable, nothing internal leaks", async () => {
    const getSwitches = t.store.getSwitches;
    t.store.getSwitches = async () => {
      throw new BackendUnavailableError("database", new Error("connect ECONNREFUSED 10.1.2.3:5432"));
    };
    try {
      const call = await client.callTool({ name: "echo", arguments: { value: 1 } });
      const problem = problemOf(call);
      assert.deepEqual([problem.status, problem.code], [503, "backend_unavailable"]);
      assert.doesNotMatch(JSON.stringify(call), /ECONNREFUSED|10\.1\.2\.3/);
      // tools/list reads the switches too: a JSON-RPC error naming the code, not the driver's message.
      const list = await postRpc(
        t.mcp,
        { jsonrpc: "2.0", id: 3, method: "tools/list" },
        { authorization: `Bearer ${key}` },
      );
      const error = (list.body as { error: { code: number; message: string; data: unknown } }).error;
      assert.equal(error.code, -32603);
      assert.deepEqual(error.data, { code: "backend_unavailable" });
      assert.doesNotMatch(error.message, /ECONNREFUSED|10\.1\.2\.3/);
    } finally {
      t.store.getSwitches = getSwitches;
    }
  });

  it("an unknown tool name is JSON-RPC error -32602, on both eras", async () => {
    await assert.rejects(
      client.callTool({ name: "no-such-tool", arguments: {} }),
      (error: unknown) => error instanceof ProtocolError && error.code === -32602,
    );
    const modern = await connect(t.mcp, key, "2026-07-28");
    try {
      await assert.rejects(
        modern.callTool({ name: "no-such-tool", arguments: {} }),
        (error: unknown) => error instanceof ProtocolError && error.code === -32602,
      );
    } finally {
      await modern.close();
    }
    const raw = await postRpc(
      t.mcp,
      { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "no-such-tool", arguments: {} } },
      { authorization: `Bearer ${key}` },
    );
    assert.equal(raw.status, 200);
    assert.deepEqual((raw.body as { id: number; error: { code: number } }).error.code, -32602);
    assert.equal((raw.body as { id: number }).id, 9);
  });
});
