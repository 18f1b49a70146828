/**
 * API keys are never logged, wherever a client puts them, at
 * every level the service logs at, on answers that fail as well as on those that succeed.
 */
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { it } from "node:test";
import { bearer, createTestApp, json } from "../helpers/app.ts";

it("never writes a key sent in a query, an odd header, a malformed or valid body, or a bad path", async (context) => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const t = await createTestApp({ appOptions: { logger: { level: "trace", stream } } }, context);
  const key = await t.key("free");
  const secret = key.slice("tr_live_".length);
  const answers = [
    await t.app.inject({
      method: "GET",
      url: `/v1/tools/search?q=${key}&api_key=${key}`,
      headers: bearer(key),
    }),
    await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: { "x-api-key": key } }),
    await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: `{"value": 1, "note": "${key}" oops}`,
    }),
    await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1, mode: "crash", note: key },
    }),
    await t.app.inject({ method: "DELETE", url: `/v1/tool/${key}`, headers: bearer(key) }),
    await t.app.inject({ method: "GET", url: `/v1/me/${key}`, headers: bearer(key) }),
    await t.app.inject({
      method: "POST",
      url: "/mcp",
      headers: { ...json(bearer(key)), accept: "application/json, text/event-stream" },
      payload: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "echo", arguments: { value: 1, note: key } },
      },
    }),
  ];
  assert.ok(answers.every((a) => a.statusCode < 600));
  assert.ok(lines.length >= answers.length, "every request was logged");
  const written = lines.join("");
  assert.ok(!written.includes(secret), `a key reached the log:\n${written}`);
});
