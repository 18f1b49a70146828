/**
 * The free reads are one table: over HTTP (query and path) and over MCP (tool arguments) the same
 * bad parameter is refused by the same compiled schema with the same `fields`, one read at a time.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { PROBLEM_META_KEY } from "../../src/mcp/tools.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { connect, type ListeningApp, startMcpApp } from "../mcp/helpers.ts";

type Json = Record<string, unknown>;

describe("free reads: the same fields over HTTP and MCP", () => {
  let t: ListeningApp;
  const suite = untilSuiteEnds();
  let key: string;
  let client: Client;

  before(async () => {
    t = await startMcpApp({}, suite);
    key = await t.key("free");
    client = await connect(t.mcp, key, "2025-11-25");
  });
  after(() => client.close());

  async function viaHttp(url: string): Promise<Json> {
    const res = await t.app.inject({ method: "GET", url, headers: bearer(key) });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, "validation_error");
    return res.json().fields;
  }

  async function viaMcp(name: string, args: Json): Promise<Json> {
    const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; _meta?: Json };
    assert.equal(result.isError, true, JSON.stringify(result));
    const problem = result._meta?.[PROBLEM_META_KEY] as Json;
    assert.equal(problem.code, "validation_error");
    return problem.fields as Json;
  }

  const cases: { read: string; http: string; mcp: Json; fields: Json }[] = [
    {
      read: "search_tools",
      http: "/v1/tools/search?q=echo&limit=500",
      mcp: { q: "echo", limit: 500 },
      fields: { limit: "must be at most 50" },
    },
    {
      read: "search_tools",
      http: "/v1/tools/search?limit=2",
      mcp: { limit: 2 },
      fields: { q: "is required" },
    },
    {
      read: "search_tools",
      http: "/v1/tools/search?q=",
      mcp: { q: "" },
      fields: { q: "must be at least 1 characters long" },
    },
    {
      read: "describe_tool",
      http: "/v1/tool/echo?verbose=1",
      mcp: { slug: "echo", verbose: 1 },
      fields: { verbose: "is not a known field" },
    },
    {
      read: "get_credits",
      http: "/v1/me/credits?month=2026-11",
      mcp: { month: "2026-11" },
      fields: { month: "is not a known field" },
    },
    {
      read: "get_usage",
      http: "/v1/me/usage?limit=0",
      mcp: { limit: 0 },
      fields: { limit: "must be at least 1" },
    },
    {
      read: "get_usage",
      http: "/v1/me/usage?limit=ten",
      mcp: { limit: "ten" },
      fields: { limit: "must be an integer" },
    },
    {
      read: "get_usage",
      http: "/v1/me/usage?limit=2.5",
      mcp: { limit: 2.5 },
      fields: { limit: "must be an integer" },
    },
  ];

  for (const c of cases) {
    it(`${c.read}: ${c.http} and ${JSON.stringify(c.mcp)} name ${Object.keys(c.fields).join(", ")} alike`, async () => {
      assert.deepEqual(await viaHttp(c.http), c.fields);
      assert.deepEqual(await viaMcp(c.read, c.mcp), c.fields);
    });
  }
});
