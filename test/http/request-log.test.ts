/**
 * Request logging: one line per request, written when it ends, carrying the request's method, URL
 * and id with the status and the time taken.
 */
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { bearer, createTestApp, json } from "../helpers/app.ts";

describe("request log", () => {
  it("writes one line per request, when it ends", async (context) => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const t = await createTestApp({ appOptions: { logger: { level: "info", stream } } }, context);
    const key = await t.key("free");
    const ok = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1 },
    });
    assert.equal(ok.statusCode, 200);
    const refused = await t.app.inject({ method: "GET", url: "/v1/me/credits" });
    assert.equal(refused.statusCode, 401);

    const requestLines = lines.filter((l) => "reqId" in l);
    assert.deepEqual(
      requestLines.map((l) => l.msg),
      ["request completed", "request completed"],
    );
    const [first, second] = requestLines;
    assert.equal(first?.reqId, ok.headers["x-request-id"]);
    assert.deepEqual(first?.req, {
      method: "POST",
      url: "/v1/tool/echo",
      host: "localhost:80",
      remoteAddress: "127.0.0.1",
    });
    assert.deepEqual(first?.res, { statusCode: 200 });
    assert.equal(typeof first?.responseTime, "number");
    assert.deepEqual(second?.res, { statusCode: 401 });
  });
});
