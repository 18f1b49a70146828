/**
 * Request logging: one line per request, written when it ends, carrying the request's method, URL
 * and id with the status and the time taken. No per-request child logger is made for it; one is
 * made when something else is written through `request.log`, and its lines carry the request's id.
 */
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import type { FastifyBaseLogger } from "fastify";
import { bearer, createTestApp, json } from "../helpers/app.ts";

function logLines(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

/** Counts the child loggers made from the app's root logger from now on. */
function countChildren(log: FastifyBaseLogger): { made: number } {
  const count = { made: 0 };
  const child = log.child.bind(log);
  log.child = (...args) => {
    count.made += 1;
    return child(...args);
  };
  return count;
}

describe("request log", () => {
  it("writes one line per request, when it ends", async (context) => {
    const { lines, stream } = logLines();
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

  it("makes no child logger for a request that only has its request line", async (context) => {
    const { lines, stream } = logLines();
    const t = await createTestApp({ appOptions: { logger: { level: "info", stream } } }, context);
    const key = await t.key("free");
    const children = countChildren(t.app.log);
    const ok = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1 },
    });
    assert.equal(ok.statusCode, 200);
    assert.equal(children.made, 0);
    assert.deepEqual(
      lines.filter((l) => l.reqId === ok.headers["x-request-id"]).map((l) => l.msg),
      ["request completed"],
    );
  });

  it("writes what a request logs itself with the request's id, through a child made then", async (context) => {
    const { lines, stream } = logLines();
    const t = await createTestApp({ appOptions: { logger: { level: "info", stream } } }, context);
    const key = await t.key("free");
    const children = countChildren(t.app.log);
    const crashed = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1, mode: "crash" },
    });
    assert.equal(crashed.statusCode, 500);
    assert.equal(children.made, 1);
    const own = lines.filter((l) => l.reqId === crashed.headers["x-request-id"]);
    assert.deepEqual(
      own.map((l) => [l.level, l.msg]),
      [
        [50, "request failed"],
        [30, "request completed"],
      ],
    );
    assert.equal(own.filter((l) => "reqId" in l).length, 2);
  });

  it("makes no child logger at warn for a request that logs nothing", async (context) => {
    const { lines, stream } = logLines();
    const t = await createTestApp({ appOptions: { logger: { level: "warn", stream } } }, context);
    const key = await t.key("free");
    const children = countChildren(t.app.log);
    const ok = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 2 },
    });
    assert.equal(ok.statusCode, 200);
    assert.equal(children.made, 0);
    assert.deepEqual(lines, []);
  });
});
