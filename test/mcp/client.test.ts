/**
 * The MCP endpoint driven by the SDK's own client over real HTTP: every protocol revision served,
 * the tool list against the HTTP contracts, the real tools, the free reads, and one key's balance
 * moving by exactly the same amounts whether a call comes over HTTP or MCP.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { envelopeSchema } from "../../src/core/contract/schemas.ts";
import { toPortableJsonSchema } from "../../src/mcp/portable-schema.ts";
import { tools } from "../../src/tools/index.ts";
import { bearer, json, untilSuiteEnds } from "../helpers/app.ts";
import { fixtureTools } from "../helpers/fixture-tools.ts";
import { connect, type ListeningApp, postRpc, type Revision, startMcpApp } from "./helpers.ts";

const REVISIONS: readonly Revision[] = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];
const FREE_TOOLS = ["search_tools", "describe_tool", "get_credits", "get_usage"];
const CALCULATOR = "retaining-wall-pressure-calculator";
const INSPECTOR = "webhook-payload-inspector";
const WALL = {
  units: "metric",
  state: "active",
  height: 5,
  unitWeight: 18,
  frictionAngle: 30,
  surcharge: 10,
};
/** A backfill steeper than the friction angle has no Rankine solution: 422, refunded. */
const NO_SOLUTION = { height: 5, unitWeight: 18, frictionAngle: 30, backfillSlope: 40 };

type Json = Record<string, unknown>;

function structured(result: { structuredContent?: unknown }): Json {
  assert.ok(result.structuredContent !== undefined, "the result carries structuredContent");
  return result.structuredContent as Json;
}

/** The text item must hold the same JSON as structuredContent. */
function assertTextMirrors(result: { content?: unknown; structuredContent?: unknown }): void {
  const content = result.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0]?.type, "text");
  assert.deepEqual(JSON.parse(content[0]?.text ?? ""), result.structuredContent);
}

describe("MCP with the SDK client", () => {
  let t: ListeningApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startMcpApp({ tools: [...tools, ...fixtureTools] }, suite);
  });

  const http = async (method: "GET" | "POST", url: string, key: string, payload?: Json) => {
    const res = await t.app.inject({ method, url, headers: json(bearer(key)), payload });
    return { status: res.statusCode, body: res.json() as Json };
  };

  for (const revision of REVISIONS) {
    it(`negotiates ${revision}, lists the tools and runs one`, async () => {
      const key = await t.key("builder");
      const client = await connect(t.mcp, key, revision);
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), revision);
        assert.equal(client.getProtocolEra(), revision === "2026-07-28" ? "modern" : "legacy");
        assert.equal(client.getServerVersion()?.name, "toolrun");
        assert.match(client.getInstructions() ?? "", /search_tools/);
        const { tools: listed } = await client.listTools();
        assert.deepEqual(
          listed.map((tool) => tool.name),
          [...t.deps.registry.all().map((tool) => tool.slug), ...FREE_TOOLS],
        );
        const result = await client.callTool({ name: CALCULATOR, arguments: WALL });
        assert.equal(result.isError, undefined);
        assert.equal(structured(result).tool, CALCULATOR);
        assert.equal(structured(result).credits_used, 1);
        assertTextMirrors(result);
      } finally {
        await client.close();
      }
    });
  }

  it("publishes each API tool with its HTTP contract, rendered portable: input schema, envelope as output", async () => {
    const key = await t.key("free");
    const client = await connect(t.mcp, key, "2025-11-25");
    try {
      const { tools: listed } = await client.listTools();
      for (const tool of t.deps.registry.all()) {
        const mcp = listed.find((candidate) => candidate.name === tool.slug);
        assert.ok(mcp, tool.slug);
        const contract = (await http("GET", `/v1/tool/${tool.slug}`, key)).body;
        assert.deepEqual(mcp.inputSchema, toPortableJsonSchema(contract.input_schema as Json));
        assert.deepEqual(
          mcp.outputSchema,
          toPortableJsonSchema(envelopeSchema(tool.slug, contract.output_schema as Json)),
        );
        const envelope = mcp.outputSchema as { properties: Json; required: string[] };
        assert.deepEqual(envelope.required, [
          "tool",
          "tool_version",
          "outputs",
          "credits_used",
          "credits_remaining",
        ]);
        assert.equal(mcp.title, contract.name);
        assert.ok(mcp.description?.startsWith(String(contract.description)));
        assert.match(mcp.description ?? "", new RegExp(`Costs ${contract.credits} credits? per call`));
        // A charged call spends credits: it changes the account, and a repeat charges again.
        assert.deepEqual(mcp.annotations, {
          title: contract.name,
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        });
      }
      for (const name of FREE_TOOLS) {
        const free = listed.find((candidate) => candidate.name === name);
        assert.ok(free?.outputSchema, name);
        assert.deepEqual(free.annotations, {
          title: free.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
        assert.match(free.description ?? "", /costs no credits/);
      }
    } finally {
      await client.close();
    }
  });

  it("moves one key's balance by exactly what HTTP charges, in one shared ledger", async () => {
    const key = await t.key("free");
    const mcp = await connect(t.mcp, key, "2025-11-25");
    const modern = await connect(t.mcp, key, "2026-07-28");
    try {
      // free plan: the calculator (weight 1) costs the plan minimum 2, echo (weight 3) costs 3.
      const overHttp = await http("POST", `/v1/tool/${CALCULATOR}`, key, WALL);
      assert.equal(overHttp.status, 200);
      assert.equal(overHttp.body.credits_used, 2);
      assert.equal(overHttp.body.credits_remaining, 998);

      const overMcp = structured(await mcp.callTool({ name: CALCULATOR, arguments: WALL }));
      assert.equal(overMcp.credits_used, 2);
      assert.equal(overMcp.credits_remaining, 996);
      assert.deepEqual(overMcp.outputs, overHttp.body.outputs);
      assert.equal(overMcp.tool_version, overHttp.body.tool_version);

      const echo = structured(await modern.callTool({ name: "echo", arguments: { value: "21" } }));
      assert.deepEqual(echo.outputs, { value: 21, doubled: 42 });
      assert.equal(echo.credits_used, 3);
      assert.equal(echo.credits_remaining, 993);

      const echoHttp = await http("POST", "/v1/tool/echo", key, { value: 1 });
      assert.equal(echoHttp.body.credits_remaining, 990);

      // No answer for this input: 422, refunded, the balance stays where it was.
      const refused = await mcp.callTool({ name: CALCULATOR, arguments: NO_SOLUTION });
      assert.equal(refused.isError, true);
      const problem = (refused._meta as Record<string, Json>)["toolrun/problem"] as Json;
      assert.equal(problem.code, "unprocessable_input");
      assert.equal(problem.status, 422);
      assert.equal(problem.credits_used, 0);
      assert.equal(problem.credits_remaining, 990);

      const credits = structured(await modern.callTool({ name: "get_credits", arguments: {} }));
      assert.equal(credits.credits_used, 10);
      assert.equal(credits.credits_remaining, 990);
      assert.deepEqual(credits, (await http("GET", "/v1/me/credits", key)).body);

      const usage = structured(await mcp.callTool({ name: "get_usage", arguments: { limit: 10 } }));
      assert.deepEqual(usage, (await http("GET", "/v1/me/usage?limit=10", key)).body);
      assert.equal(usage.credits_used, 10);
      const recent = usage.recent as { request_id: string; tool: string; credits: number }[];
      assert.ok(recent.some((call) => call.request_id === overMcp.request_id && call.credits === 2));
      assert.ok(recent.some((call) => call.request_id === echo.request_id && call.credits === 3));
      const byTool = usage.by_tool as { tool: string; credits: number }[];
      assert.equal(byTool.find((row) => row.tool === CALCULATOR)?.credits, 4);
      assert.equal(byTool.find((row) => row.tool === "echo")?.credits, 6);

      const page = structured(await mcp.callTool({ name: "get_usage", arguments: { limit: 2 } }));
      assert.equal((page.recent as unknown[]).length, 2);
      assert.equal(typeof page.next_cursor, "string");
      const next = structured(
        await mcp.callTool({ name: "get_usage", arguments: { limit: 2, cursor: page.next_cursor } }),
      );
      assert.deepEqual(
        next,
        (await http("GET", `/v1/me/usage?limit=2&cursor=${String(page.next_cursor)}`, key)).body,
      );
    } finally {
      await mcp.close();
      await modern.close();
    }
  });

  it("runs the webhook payload inspector at 5 credits, with the outputs HTTP gives", async () => {
    const key = await t.key("free");
    const payload = {
      payload:
        'POST /hooks HTTP/1.1\nContent-Type: application/json\nX-GitHub-Event: push\n\n{"created_at": 1700000000}',
    };
    const client = await connect(t.mcp, key, "2026-07-28");
    try {
      const overHttp = await http("POST", `/v1/tool/${INSPECTOR}`, key, payload);
      assert.equal(overHttp.status, 200);
      assert.equal(overHttp.body.credits_used, 5);
      const overMcp = structured(await client.callTool({ name: INSPECTOR, arguments: payload }));
      assert.equal(overMcp.credits_used, 5);
      assert.equal(overMcp.credits_remaining, 990);
      assert.deepEqual(overMcp.outputs, overHttp.body.outputs);
    } finally {
      await client.close();
    }
  });

  it("answers search_tools and describe_tool exactly like the HTTP catalog", async () => {
    const key = await t.key("builder");
    const client = await connect(t.mcp, key, "2026-07-28");
    try {
      const search = structured(
        await client.callTool({ name: "search_tools", arguments: { q: "earth pressure wall", limit: 5 } }),
      );
      assert.deepEqual(
        search,
        (await http("GET", "/v1/tools/search?q=earth%20pressure%20wall&limit=5", key)).body,
      );
      assert.equal((search.tools as Json[])[0]?.slug, CALCULATOR);
      const contract = structured(
        await client.callTool({ name: "describe_tool", arguments: { slug: CALCULATOR } }),
      );
      assert.deepEqual(contract, (await http("GET", `/v1/tool/${CALCULATOR}`, key)).body);
      assert.equal(contract.credits, 1);
    } finally {
      await client.close();
    }
  });

  it("uses the HTTP request id as the call's request_id and in the usage ledger", async () => {
    const key = await t.key("free");
    const res = await postRpc(
      t.mcp,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { value: 2 } } },
      { authorization: `Bearer ${key}`, "x-request-id": "mcp-call-0042" },
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.equal(res.headers.get("x-request-id"), "mcp-call-0042");
    const envelope = (res.body as { result: { structuredContent: Json } }).result.structuredContent;
    assert.equal(envelope.request_id, "mcp-call-0042");
    const usage = (await http("GET", "/v1/me/usage", key)).body;
    assert.deepEqual(
      (usage.recent as Json[]).map((call) => [call.request_id, call.tool, call.credits]),
      [["mcp-call-0042", "echo", 3]],
    );
  });
});
