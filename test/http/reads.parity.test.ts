/**
 * The free reads are one table: over HTTP (query and path) and over MCP (tool arguments) the same
 * bad parameter is refused by the same compiled schema with the same `fields`, one read at a time.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { PROBLEM_META_KEY } from "../../src/mcp/tool-results.ts";
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

  // [MCP tool, HTTP request, MCP arguments, the fields both name]
  const cases: [string, string, Json, Json][] = [
    [
      "search_tools",
      "/v1/tools/search?q=echo&limit=500",
      { q: "echo", limit: 500 },
      { limit: "must be at most 50" },
    ],
    ["search_tools", "/v1/tools/search?limit=2", { limit: 2 }, { q: "is required" }],
    ["search_tools", "/v1/tools/search?q=", { q: "" }, { q: "must be at least 1 characters long" }],
    [
      "describe_tool",
      "/v1/tool/echo?verbose=1",
      { slug: "echo", verbose: 1 },
      { verbose: "is not a known field" },
    ],
    ["get_credits", "/v1/me/credits?month=2026-11", { month: "2026-11" }, { month: "is not a known field" }],
    ["get_usage", "/v1/me/usage?limit=0", { limit: 0 }, { limit: "must be at least 1" }],
    ["get_usage", "/v1/me/usage?limit=ten", { limit: "ten" }, { limit: "must be an integer" }],
    ["get_usage", "/v1/me/usage?limit=2.5", { limit: 2.5 }, { limit: "must be an integer" }],
  ];

  for (const [read, url, args, fields] of cases) {
    it(`${read}: ${url} and ${JSON.stringify(args)} name ${Object.keys(fields).join(", ")} alike`, async () => {
      assert.deepEqual(await viaHttp(url), fields);
      assert.deepEqual(await viaMcp(read, args), fields);
    });
  }
});
