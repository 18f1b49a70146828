/**
 * Tools that run as jobs, over MCP, for a client without the tasks extension: a tool whose every
 * call is a job is refused with the MissingRequiredClientCapability error (-32021) naming the
 * extension, charging nothing; an `optional` one answers synchronously, as any call.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Client, ProtocolError } from "@modelcontextprotocol/client";
import type { AnyToolDefinition } from "../../src/tools/tool.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { connect, type ListeningApp, startMcpApp } from "./helpers.ts";

function jobTool(slug: string, jobs: "optional" | "required"): AnyToolDefinition {
  return {
    slug,
    name: slug,
    description: "Answers after a moment.",
    keywords: [],
    version: "1.0.0",
    defaults: { weight: 2, maxBodyBytes: 1024 },
    inputSchema: { type: "object" },
    outputSchema: { type: "object", required: ["ok"], properties: { ok: { type: "boolean" } } },
    examples: [],
    effects: "external",
    jobs,
    timeoutMs: 10_000,
    run: async () => ({ ok: true }),
  } as unknown as AnyToolDefinition;
}

describe("MCP: tools that run as jobs, for a client without the tasks extension", () => {
  let t: ListeningApp;
  let key: string;
  let client: Client;
  const suite = untilSuiteEnds();

  before(async () => {
    t = await startMcpApp(
      { tools: [jobTool("always-job", "required"), jobTool("maybe-job", "optional")] },
      suite,
    );
    key = await t.key("builder");
    client = await connect(t.mcp, key, "2025-11-25");
  });
  after(() => client.close());

  it("refuses a tool whose every call is a job with the missing-capability error, charging nothing", async () => {
    await assert.rejects(
      client.callTool({ name: "always-job", arguments: {} }),
      (error: unknown) =>
        error instanceof ProtocolError &&
        error.code === -32021 &&
        JSON.stringify(error.data).includes("io.modelcontextprotocol/tasks"),
    );
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(credits.json().credits_used, 0);
  });

  it("answers an optional one synchronously", async () => {
    const result = await client.callTool({ name: "maybe-job", arguments: {} });
    assert.equal(result.isError, undefined);
    assert.deepEqual((result.structuredContent as { outputs: unknown }).outputs, { ok: true });
  });
});
