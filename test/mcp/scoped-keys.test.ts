/**
 * Scoped keys over MCP, through the SDK's client: a key limited to some tools lists only those and
 * the free tools, another tool's name is the JSON-RPC error an unknown name gets (and
 * `describe_tool` of it the 404 of an unknown slug), and a read-only key lists every tool but a
 * call of one is an `isError` result with `key_read_only`, charging nothing; its free tools work.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Client, ProtocolError } from "@modelcontextprotocol/client";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { connect, type ListeningApp, startMcpApp } from "./helpers.ts";

const FREE_TOOLS = ["get_credits", "get_usage", "describe_tool", "search_tools"];

type Json = Record<string, unknown>;

function problemOf(result: { isError?: boolean; _meta?: unknown; structuredContent?: unknown }): Json {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined);
  return (result._meta as Record<string, Json>)["toolrun/problem"] as Json;
}

describe("scoped keys over MCP", () => {
  const suite = untilSuiteEnds();
  let t: ListeningApp;
  let echoOnlyKey: string;
  let readOnlyKey: string;
  let echoOnly: Client;
  let readOnly: Client;
  const creditsUsed = async (key: string): Promise<number> =>
    (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json().credits_used;

  before(async () => {
    t = await startMcpApp({}, suite);
    echoOnlyKey = await t.key("free", null, { tools: ["echo"] });
    readOnlyKey = await t.key("free", null, { access: "read" });
    echoOnly = await connect(t.mcp, echoOnlyKey, "2025-11-25");
    readOnly = await connect(t.mcp, readOnlyKey, "2026-07-28");
  });
  after(async () => {
    await echoOnly.close();
    await readOnly.close();
  });

  it("lists only the key's tools, and every free tool", async () => {
    const names = (await echoOnly.listTools()).tools.map((tool) => tool.name);
    assert.deepEqual(names.sort(), ["echo", ...FREE_TOOLS].sort());
    const all = (await readOnly.listTools()).tools.map((tool) => tool.name);
    assert.deepEqual(all.sort(), ["echo", "heavy-text", ...FREE_TOOLS].sort());
  });

  it("answers another tool's name as an unknown one's, and its description as an unknown slug's", async () => {
    for (const name of ["heavy-text", "no-such-tool"])
      await assert.rejects(
        echoOnly.callTool({ name, arguments: { text: "abc" } }),
        (error: unknown) => error instanceof ProtocolError && error.code === -32602,
        name,
      );
    const hidden = problemOf(
      await echoOnly.callTool({ name: "describe_tool", arguments: { slug: "heavy-text" } }),
    );
    const unknown = problemOf(
      await echoOnly.callTool({ name: "describe_tool", arguments: { slug: "no-such-tool" } }),
    );
    assert.equal(hidden.code, "tool_not_found");
    assert.deepEqual({ ...hidden, request_id: undefined }, { ...unknown, request_id: undefined });
    const found = await echoOnly.callTool({ name: "search_tools", arguments: { q: "counter" } });
    assert.deepEqual((found.structuredContent as { tools: unknown[] }).tools, []);
    assert.equal(await creditsUsed(echoOnlyKey), 0);
  });

  it("calls the key's own tool as any key does", async () => {
    const result = await echoOnly.callTool({ name: "echo", arguments: { value: 2 } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.equal(await creditsUsed(echoOnlyKey), 3);
    const credits = await echoOnly.callTool({ name: "get_credits", arguments: {} });
    assert.deepEqual((credits.structuredContent as { key: Json }).key.tools, ["echo"]);
  });

  it("refuses a read-only key's tool call with an isError key_read_only result, charging nothing; free tools work", async () => {
    const problem = problemOf(await readOnly.callTool({ name: "echo", arguments: { value: 2 } }));
    assert.equal(problem.code, "key_read_only");
    assert.equal(problem.status, 403);
    assert.equal(await creditsUsed(readOnlyKey), 0);
    const credits = await readOnly.callTool({ name: "get_credits", arguments: {} });
    assert.equal(credits.isError, undefined);
    assert.equal((credits.structuredContent as { key: Json }).key.access, "read");
    const described = await readOnly.callTool({ name: "describe_tool", arguments: { slug: "heavy-text" } });
    assert.equal(described.isError, undefined);
  });
});
