/**
 * MCP requests whose params do not fit their method are JSON-RPC -32602 Invalid params
 * naming the member, not -32603 Internal error with a raw validation dump.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { injectRpc } from "./helpers.ts";

describe("MCP params that do not fit their method", () => {
  let t: TestApp;
  let key: string;
  const suite = untilSuiteEnds();
  const rpc = (message: unknown, version?: string) => injectRpc(t, key, message, version);

  before(async () => {
    t = await createTestApp({}, suite);
    key = await t.key("builder");
  });

  for (const capabilities of ["nope", 42, null, ["tools"]]) {
    it(`initialize with capabilities ${JSON.stringify(capabilities)}: -32602 naming capabilities`, async () => {
      const res = await rpc({
        jsonrpc: "2.0",
        id: 7,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities, clientInfo: { name: "t", version: "1" } },
      });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      assert.equal(answer.id, 7);
      assert.equal(answer.error?.code, -32602, res.body);
      assert.match(answer.error.message, /^Invalid params: .*capabilities/);
      assert.ok(!answer.error.message.includes("\n"), "one line, not a dump");
    });
  }

  it("a well-formed initialize still succeeds", async () => {
    const res = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().result?.protocolVersion, "2025-06-18");
  });
});
