/**
 * The endpoint as the agents people run today meet it: the official TypeScript SDK v1
 * (`@modelcontextprotocol/sdk`, what most hosts embed) and v2 (`@modelcontextprotocol/client`). Each
 * lists the tools first, as every agent does (so the client validates results against the listed
 * output schemas), then calls both tools, a 400, a 422, a 402 and an unknown tool. The test checks
 * what the agent sees (the envelope on success; the problem's code, detail and fields on failure)
 * and that the balance moves exactly as the same calls move it over HTTP.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { ProtocolError } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { tools } from "../../src/tools/index.ts";
import { bearer, json, untilSuiteEnds } from "../helpers/app.ts";
import { connect, type ListeningApp, startMcpApp } from "./helpers.ts";
import { portabilityFindings } from "./portability.ts";

type Json = Record<string, unknown>;

interface ToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: unknown;
}

/** What the test needs of an MCP client, whichever SDK it comes from. */
interface Agent {
  listTools(): Promise<{ name: string; inputSchema: unknown; outputSchema?: unknown }[]>;
  callTool(name: string, args: Json): Promise<ToolResult>;
  close(): Promise<void>;
}

const CALCULATOR = "retaining-wall-pressure-calculator";
const INSPECTOR = "webhook-payload-inspector";
const WALL = { height: "5", unitWeight: 18, frictionAngle: "30", surcharge: 10 };
const WEBHOOK = {
  payload:
    'POST /hooks HTTP/1.1\nContent-Type: application/json\nX-GitHub-Event: push\n\n{"ref": "refs/heads/main", "created_at": 1700000000}',
};
const BAD_WALL = { height: -1, frictionAngle: 60, units: "cubits", colour: "red" };
const NO_SOLUTION = { height: 5, unitWeight: 18, frictionAngle: 30, backfillSlope: 40 };
/** Free plan: the calculator costs 2, the inspector 5; 9 credits leave 2 after one of each. */
const ALLOWANCE = 9;

const CLIENTS: Record<string, (url: string, key: string) => Promise<Agent>> = {
  "SDK v1 (@modelcontextprotocol/sdk)": async (url, key) => {
    const client = new ClientV1({ name: "toolrun-agent-test", version: "1.0.0" });
    await client.connect(
      new TransportV1(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
    );
    return {
      listTools: async () => (await client.listTools()).tools,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close(),
    };
  },
  "SDK v2 (@modelcontextprotocol/client)": async (url, key) => {
    const client = await connect(url, key, "2026-07-28");
    return {
      listTools: async () => (await client.listTools()).tools,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close(),
    };
  },
};

/** The one text item an agent's model reads, as JSON. */
function textOf(result: ToolResult): Json {
  const content = result.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0]?.type, "text");
  return JSON.parse(content[0]?.text ?? "") as Json;
}

function envelopeOf(result: ToolResult): Json {
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const envelope = result.structuredContent as Json;
  assert.deepEqual(textOf(result), envelope);
  return envelope;
}

function problemOf(result: ToolResult): Json {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined);
  const problem = textOf(result);
  assert.deepEqual((result._meta as Record<string, unknown>)["toolrun/problem"], problem);
  assert.equal(typeof problem.detail, "string");
  return problem;
}

describe("MCP as the agents in use today see it", {
  skip: tools.length < 2 ? "needs both tools" : false,
}, () => {
  let t: ListeningApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startMcpApp({ tools }, suite);
  });

  /** The same calls over HTTP, on a key of the same plan and allowance: the reference. */
  const overHttp = async (key: string, slug: string, body: Json) => {
    const res = await t.app.inject({
      method: "POST",
      url: `/v1/tool/${slug}`,
      headers: json(bearer(key)),
      payload: body,
    });
    return { status: res.statusCode, body: res.json() as Json };
  };
  const creditsOf = async (key: string) =>
    (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json() as Json;

  for (const [clientName, open] of Object.entries(CLIENTS)) {
    it(`${clientName}: lists, runs both tools, and sees every failure's code, charged as HTTP charges`, async () => {
      const key = await t.key("free", ALLOWANCE);
      const twin = await t.key("free", ALLOWANCE);
      const agent = await open(t.mcp, key);
      try {
        const listed = await agent.listTools();
        assert.deepEqual(
          listed.map((tool) => tool.name),
          [CALCULATOR, INSPECTOR, "search_tools", "describe_tool", "get_credits", "get_usage"],
        );
        for (const tool of listed) {
          assert.deepEqual(portabilityFindings(tool.inputSchema), [], `${tool.name} input`);
          assert.deepEqual(portabilityFindings(tool.outputSchema), [], `${tool.name} output`);
        }

        // Success: the envelope, validated by the client against the listed output schema.
        const wall = envelopeOf(await agent.callTool(CALCULATOR, WALL));
        const wallHttp = await overHttp(twin, CALCULATOR, WALL);
        assert.equal(wallHttp.status, 200);
        assert.equal(wall.tool, CALCULATOR);
        assert.equal(wall.tool_version, wallHttp.body.tool_version);
        assert.deepEqual(wall.outputs, wallHttp.body.outputs);
        assert.equal(typeof (wall.outputs as { values: { thrust: unknown } }).values.thrust, "number");
        assert.deepEqual([wall.credits_used, wall.credits_remaining], [2, ALLOWANCE - 2]);
        assert.match(String(wall.request_id), /^req_/);

        const hook = envelopeOf(await agent.callTool(INSPECTOR, WEBHOOK));
        const hookHttp = await overHttp(twin, INSPECTOR, WEBHOOK);
        assert.deepEqual(hook.outputs, hookHttp.body.outputs);
        assert.equal((hook.outputs as { overview: unknown[] }).overview.length, 12);
        assert.deepEqual([hook.credits_used, hook.credits_remaining], [5, ALLOWANCE - 7]);
        assert.equal(hook.credits_remaining, hookHttp.body.credits_remaining);

        // 400: the fields HTTP names, nothing charged.
        const invalid = problemOf(await agent.callTool(CALCULATOR, BAD_WALL));
        const invalidHttp = await overHttp(twin, CALCULATOR, BAD_WALL);
        assert.equal(invalidHttp.status, 400);
        assert.deepEqual([invalid.status, invalid.code], [400, "validation_error"]);
        assert.deepEqual(invalid.fields, invalidHttp.body.fields);
        assert.deepEqual(Object.keys(invalid.fields as Json).sort(), [
          "colour",
          "frictionAngle",
          "height",
          "unitWeight",
          "units",
        ]);

        // 422: the tool ran and had no answer; refunded.
        const unprocessable = problemOf(await agent.callTool(CALCULATOR, NO_SOLUTION));
        assert.equal((await overHttp(twin, CALCULATOR, NO_SOLUTION)).status, 422);
        assert.deepEqual(
          [
            unprocessable.status,
            unprocessable.code,
            unprocessable.credits_used,
            unprocessable.credits_remaining,
          ],
          [422, "unprocessable_input", 0, ALLOWANCE - 7],
        );

        // 402: 2 credits left, the inspector costs 5.
        const poor = problemOf(await agent.callTool(INSPECTOR, WEBHOOK));
        const poorHttp = await overHttp(twin, INSPECTOR, WEBHOOK);
        assert.equal(poorHttp.status, 402);
        assert.deepEqual([poor.status, poor.code], [402, "insufficient_credits"]);
        assert.equal(poor.credits_remaining, poorHttp.body.credits_remaining);
        assert.equal(poor.credits_remaining, 2);

        // A tool we do not have: a JSON-RPC error, not a result.
        await assert.rejects(agent.callTool("no-such-tool", {}), (error: unknown) => {
          const code = error instanceof McpError || error instanceof ProtocolError ? error.code : undefined;
          return code === -32602 && /Unknown tool/.test(String((error as Error).message));
        });

        // The balance, read over MCP and over HTTP, moved exactly as the twin's did over HTTP.
        const credits = envelopeOf(await agent.callTool("get_credits", {}));
        assert.deepEqual(credits, await creditsOf(key));
        const reference = await creditsOf(twin);
        assert.deepEqual([credits.credits_used, credits.credits_remaining], [7, 2]);
        assert.deepEqual(
          [credits.credits_used, credits.credits_remaining],
          [reference.credits_used, reference.credits_remaining],
        );

        // The free reads pass the client's own check against their listed output schemas too.
        const found = envelopeOf(await agent.callTool("search_tools", { q: "webhook" }));
        assert.equal((found.tools as Json[])[0]?.slug, INSPECTOR);
        const contract = envelopeOf(await agent.callTool("describe_tool", { slug: CALCULATOR }));
        assert.equal(contract.credits, 2);
        const usage = envelopeOf(await agent.callTool("get_usage", { limit: 1 }));
        assert.deepEqual([usage.credits_used, usage.calls, (usage.recent as Json[]).length], [7, 3, 1]);
        assert.equal(typeof usage.next_cursor, "string");
      } finally {
        await agent.close();
      }
    });

    it(`${clientName}: a wrong key shows the person invalid_api_key and what to send`, async () => {
      await assert.rejects(open(t.mcp, `tr_live_${"A".repeat(32)}`), (error: unknown) => {
        // v1 puts the problem document in the message; v2's 2026-07-28 negotiation in `data.text`.
        const shown = `${String((error as Error).message)} ${JSON.stringify((error as { data?: unknown }).data)}`;
        return /invalid_api_key/.test(shown) && /Authorization: Bearer <API_KEY>/.test(shown);
      });
    });
  }
});
