/**
 * `params._meta["toolrun/idempotency-key"]` on `tools/call`: the same semantics as the HTTP
 * `Idempotency-Key` (the contract, test/contracts/idempotency.contract.ts, pins them on every
 * store): a retry gets the first result, marked replayed, and is charged nothing.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/client";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { connect, type ListeningApp, startMcpApp } from "./helpers.ts";

type Json = Record<string, unknown>;
const KEY = "toolrun/idempotency-key";

describe("MCP tools/call with an idempotency key", () => {
  let t: ListeningApp;
  let key: string;
  let client: Client;
  const suite = untilSuiteEnds();
  const account = async (): Promise<[number, number]> => {
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    const usage = await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
    return [credits.json().credits_used, usage.json().calls];
  };
  const call = (args: Json, idempotencyKey: unknown) =>
    client.callTool({ name: "echo", arguments: args, _meta: { [KEY]: idempotencyKey } });

  before(async () => {
    t = await startMcpApp({}, suite);
    key = await t.key("free");
    client = await connect(t.mcp, key, "2025-11-25");
  });
  after(() => client.close());

  it("answers a retry with the first result, marked replayed, charging once", async () => {
    const first = await call({ value: 4 }, "mcp-1");
    assert.equal(first.isError, undefined);
    assert.equal((first._meta as Json | undefined)?.["toolrun/idempotent-replayed"], undefined);
    const again = await call({ value: 4 }, "mcp-1");
    assert.deepEqual(again.structuredContent, first.structuredContent);
    assert.deepEqual(again.content, first.content);
    assert.equal((again._meta as Json)["toolrun/idempotent-replayed"], true);
    assert.deepEqual(await account(), [3, 1]);
  });

  it("replays a tool failure as the same isError result, and refuses another body for the key", async () => {
    const before = await account();
    const first = await call({ value: 1, mode: "unprocessable" }, "mcp-2");
    const again = await call({ value: 1, mode: "unprocessable" }, "mcp-2");
    assert.equal(again.isError, true);
    const problem = (again._meta as Record<string, Json>)["toolrun/problem"];
    assert.deepEqual(problem, (first._meta as Record<string, Json>)["toolrun/problem"]);
    assert.equal(problem?.code, "unprocessable_input");
    const mismatch = await call({ value: 2 }, "mcp-2");
    assert.equal(
      (mismatch._meta as Record<string, Json>)["toolrun/problem"]?.code,
      "idempotency_key_mismatch",
    );
    assert.deepEqual(await account(), [before[0], before[1] + 1]);
  });

  it("refuses a key that is not 1 to 255 visible ASCII characters, naming where it was", async () => {
    for (const bad of ["", "x".repeat(256), "with space", 42]) {
      const result = await call({ value: 1 }, bad);
      const problem = (result._meta as Record<string, Json>)["toolrun/problem"];
      assert.equal(problem?.code, "validation_error");
      assert.deepEqual(problem?.fields, { [`_meta.${KEY}`]: "must be 1 to 255 visible ASCII characters" });
    }
  });
});
