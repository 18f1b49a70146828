/**
 * An operator's tools appear wherever the built-in ones do: the catalog, search and contract, their
 * own OpenAPI path, MCP `tools/list` (portable schemas, annotations that follow `effects`) and
 * `tools/call`, the console's pages generated from their schemas, the switches (audited) and
 * `/metrics`. Nothing of an HTTP tool's request (its URL, its headers) is published anywhere.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { validate } from "@readme/openapi-parser";
import { setToolSwitch } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { createMetrics } from "../../src/http/metrics.ts";
import { toPortableJsonSchema } from "../../src/mcp/portable-schema.ts";
import { tools as builtIns } from "../../src/tools/index.ts";
import { bearer, json, untilSuiteEnds } from "../helpers/app.ts";
import { loadOperatorTools } from "../helpers/operator-tools.ts";
import { assertProblem } from "../helpers/problem.ts";
import { refusingOrigin, startUpstream, type TestUpstream, TICKETS_TOKEN } from "../helpers/upstream.ts";
import { connect, type ListeningApp, startMcpApp } from "../mcp/helpers.ts";

type Json = Record<string, unknown>;

const ADDED = ["misbehaving", "remember-note", "unit-converter", "create-ticket"];

describe("an operator's tools, everywhere the built-in ones are", () => {
  const lifetime = untilSuiteEnds();
  const metrics = createMetrics();
  let upstream: TestUpstream;
  let t: ListeningApp;
  let key: string;
  let declared: Json;

  before(async () => {
    upstream = await startUpstream();
    const loadedTools = await loadOperatorTools(upstream.origin, await refusingOrigin());
    declared = loadedTools.find((tool) => tool.definition.slug === "create-ticket")?.definition
      .inputSchema as Json;
    t = await startMcpApp(
      { tools: builtIns, loadedTools, observer: metrics, appOptions: { metrics: { metrics, token: null } } },
      lifetime,
    );
    key = await t.key("free");
  });
  after(() => upstream.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: "GET", url, headers: bearer(key) });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json();
  };

  it("lists, searches and describes each added tool, priced for the key, publishing nothing of its request", async () => {
    const listed = (await get("/v1/tools/list")).tools as Json[];
    const slugs = listed.map((tool) => tool.slug);
    for (const slug of ADDED) assert.ok(slugs.includes(slug), `${slug} in ${slugs.join(", ")}`);
    assert.equal(listed.find((tool) => tool.slug === "create-ticket")?.credits, 5);
    const found = (await get("/v1/tools/search?q=help%20desk%20ticket")).tools as Json[];
    assert.equal(found[0]?.slug, "create-ticket");
    assert.equal(((await get("/v1/tools/search?q=temperature")).tools as Json[])[0]?.slug, "unit-converter");
    const contract = await get("/v1/tool/create-ticket");
    assert.deepEqual(contract.input_schema, declared);
    assert.deepEqual(contract.limits, { max_body_bytes: 65_536 });
    assert.doesNotMatch(JSON.stringify(contract), /127\.0\.0\.1|tickets|Authorization|TICKETS_TOKEN/i);
  });

  it("gives each added tool its own OpenAPI path, with its schemas and examples, in a valid document", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    await validate(structuredClone(document));
    for (const slug of ADDED) {
      const op = (document.paths[`/v1/tool/${slug}`] as Json)?.post as Json;
      assert.ok(op, slug);
      const media = ((op.requestBody as Json).content as Json)["application/json"] as Json;
      const contract = await get(`/v1/tool/${slug}`);
      assert.deepEqual(media.schema, contract.input_schema, slug);
    }
    const converter = document.paths["/v1/tool/unit-converter"].post.requestBody.content["application/json"];
    assert.deepEqual(
      Object.values(converter.examples).map((e) => (e as Json).value),
      [
        { value: 42.195, from: "km", to: "mi" },
        { value: 37, from: "C", to: "F" },
      ],
    );
    assert.doesNotMatch(JSON.stringify(document), new RegExp(TICKETS_TOKEN));
  });

  it("offers each in MCP tools/list with portable schemas and annotations that follow effects, and calls it", async () => {
    const client = await connect(t.mcp, key, "2025-11-25");
    try {
      const listed = (await client.listTools()).tools;
      const ticket = listed.find((tool) => tool.name === "create-ticket");
      assert.deepEqual(ticket?.inputSchema, toPortableJsonSchema(declared));
      // Effects outside: never read-only, open-world, not idempotent, possibly destructive.
      assert.deepEqual(ticket?.annotations, {
        title: "Create a Support Ticket",
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      for (const name of ["remember-note"])
        assert.equal(listed.find((tool) => tool.name === name)?.annotations?.openWorldHint, true, name);
      // A GET lookup changes nothing upstream: not destructive, so a chat host need not ask first;
      // still open-world, and charged (so not read-only); the hint its declaration gives wins.
      assert.deepEqual(listed.find((tool) => tool.name === "upstream-lookup")?.annotations, {
        title: "upstream-lookup",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
      // A module that only computes is annotated as the built-in ones are.
      assert.deepEqual(listed.find((tool) => tool.name === "unit-converter")?.annotations, {
        title: "Unit Converter",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      });
      const before = (await get("/v1/me/credits")).credits_used as number;
      const result = await client.callTool({
        name: "create-ticket",
        arguments: { title: "From an agent", priority: "low" },
        _meta: { "toolrun/idempotency-key": "mcp-ticket" },
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      const envelope = result.structuredContent as Json;
      assert.equal((envelope.outputs as Json).title, "From an agent");
      assert.equal(envelope.credits_used, 5);
      assert.equal((await get("/v1/me/credits")).credits_used, before + 5);
      const converted = await client.callTool({
        name: "unit-converter",
        arguments: { value: 1, from: "km", to: "kg" },
      });
      assert.equal(converted.isError, true);
      assert.equal(((converted._meta as Json)["toolrun/problem"] as Json).code, "unprocessable_input");
    } finally {
      await client.close();
    }
  });

  it("generates each added tool's console page from its schema", async () => {
    const home = (await t.app.inject({ method: "GET", url: "/" })).body;
    assert.match(home, /<a href="\/tools\/create-ticket">Create a Support Ticket<\/a>/);
    assert.match(home, /<a href="\/tools\/unit-converter">Unit Converter<\/a>/);
    const ticket = (await t.app.inject({ method: "GET", url: "/tools/create-ticket" })).body;
    assert.match(ticket, /<label for="field-title">Title<\/label>/);
    assert.match(ticket, /<select id="field-priority"[^>]*>.*<option value="high">high<\/option>/s);
    const converter = (await t.app.inject({ method: "GET", url: "/tools/unit-converter" })).body;
    assert.match(converter, /<input type="number"[^>]*id="field-value"[^>]* required/);
    assert.match(converter, /<select id="field-from"/);
    assert.match(
      converter,
      /data-example="\{&#34;value&#34;:42.195,&#34;from&#34;:&#34;km&#34;,&#34;to&#34;:&#34;mi&#34;\}"/,
    );
  });

  it("obeys the switches, and the audit log records each change", async () => {
    const actor = cliActor("test");
    const call = () =>
      t.app.inject({
        method: "POST",
        url: "/v1/tool/create-ticket",
        headers: json(bearer(key)),
        payload: { title: "Switched" },
      });
    await setToolSwitch(t.deps, actor, "create-ticket", { enabled: false });
    assertProblem(await call(), 503, "tool_disabled");
    await setToolSwitch(t.deps, actor, "create-ticket", { enabled: true, api: false });
    assertProblem(await call(), 403, "tool_not_allowed");
    const client = await connect(t.mcp, key, "2025-11-25");
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(!names.includes("create-ticket"));
    } finally {
      await client.close();
    }
    await setToolSwitch(t.deps, actor, "create-ticket", { api: true });
    assert.equal((await call()).statusCode, 200);
    const audit = await t.store.listAudit({ limit: 10, cursor: null, target: "create-ticket" });
    assert.deepEqual(
      audit.entries.map((entry) => [entry.action, entry.details]),
      [
        ["tools.set", { api: true }],
        ["tools.set", { enabled: true, api: false }],
        ["tools.set", { enabled: false }],
      ],
    );
  });

  it("counts their calls and credits in /metrics", async () => {
    const page = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
    assert.match(page, /toolrun_tool_calls_total\{tool="create-ticket",outcome="charged"\} [1-9]/);
    assert.match(page, /toolrun_credits_charged_total\{tool="create-ticket"\} [1-9]/);
  });
});
