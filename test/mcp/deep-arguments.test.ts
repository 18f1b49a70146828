/**
 * JSON nested without bound is refused before anything walks it: an MCP message deeper than
 * MAX_JSON_DEPTH levels is a JSON-RPC Invalid Request (HTTP 400) whatever its method, and a tool
 * call's body over HTTP a 400 `validation_error` saying so. Arguments 6,000 levels deep once reached
 * the tool call's serialization and overflowed its stack (500 `internal_error`).
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { MAX_JSON_DEPTH } from "../../src/core/call/json-body.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { injectRpc } from "./helpers.ts";

/** `{"a":{"a":...1...}}`, `levels` objects deep, written as text (JSON.stringify would overflow too). */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("JSON nested without bound", () => {
  let t: TestApp;
  let key: string;
  const suite = untilSuiteEnds();
  const rpc = (payload: string) => injectRpc(t, key, payload);
  const credits = async () =>
    (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json().credits_used;

  before(async () => {
    t = await createTestApp({}, suite);
    key = await t.key("builder");
  });

  for (const levels of [100, 3_000, 6_000, 10_000]) {
    it(`MCP tools/call arguments ${levels} levels deep: -32600 Invalid Request, nothing run or charged`, async () => {
      const res = await rpc(
        `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"value":${nested(levels)}}}}`,
      );
      assert.equal(res.statusCode, 400, res.body);
      const answer = res.json();
      assert.equal(answer.jsonrpc, "2.0");
      assert.equal(answer.id, null);
      assert.equal(answer.error.code, -32600);
      assert.match(answer.error.message, new RegExp(`nests deeper than ${MAX_JSON_DEPTH} levels`));
      assert.equal(await credits(), 0);
    });
  }

  it("any MCP message deeper than the bound, batches and _meta included", async () => {
    const deepMeta = await rpc(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":${nested(200)}}}`);
    assert.equal(deepMeta.statusCode, 400, deepMeta.body);
    const batch = await rpc(
      `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping","params":${nested(100)}}]`,
    );
    assert.equal(batch.statusCode, 400, batch.body);
    // Arguments nested well within the bound still reach the tool, which names the bad field.
    const shallow = await rpc(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"value":${nested(20)}}}}`,
    );
    assert.equal(shallow.statusCode, 200, shallow.body);
    assert.equal(shallow.json().result.isError, true);
    assert.equal(shallow.json().result._meta["toolrun/problem"].code, "validation_error");
  });

  it("an HTTP tool call's body deeper than the bound: 400 validation_error saying so, without fields", async () => {
    const deep = await t.app.inject({
      method: "POST",
      url: "/v1/tool/heavy-text",
      headers: json(bearer(key)),
      payload: `{"text":${nested(500)}}`,
    });
    const body = assertProblem(deep, 400, "validation_error");
    assert.match(String(body.detail), new RegExp(`nests deeper than ${MAX_JSON_DEPTH} levels`));
    assert.equal(body.fields, undefined);
  });
});
