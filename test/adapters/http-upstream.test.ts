/**
 * The outward-HTTP adapter against a real server on loopback: every way an exchange ends is one
 * result, redirects are not followed, and a body past the cap is not read further.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import type { UpstreamRequest } from "../../src/ports/upstream.ts";
import { refusingOrigin, startUpstream, type TestUpstream } from "../helpers/upstream.ts";

describe("http upstream adapter", () => {
  const upstream = createHttpUpstream();
  let server: TestUpstream;
  before(async () => {
    server = await startUpstream();
  });
  after(() => server.close());

  const send = (path: string, extra: Partial<UpstreamRequest> = {}) =>
    upstream.send({
      url: `${server.origin}${path}`,
      method: "GET",
      headers: {},
      timeoutMs: 5000,
      maxResponseBytes: 1024 * 1024,
      ...extra,
    });

  it("returns the status and the whole body, and sends the method, headers and JSON body given", async () => {
    const result = await send("/echo/a?b=1", {
      method: "POST",
      headers: { authorization: "Bearer t0ken" },
      body: '{"x":1}',
    });
    assert.equal(result.kind, "response");
    assert.ok(result.kind === "response");
    assert.equal(result.status, 200);
    const echoed = JSON.parse(result.body.toString("utf8"));
    assert.equal(echoed.method, "POST");
    assert.equal(echoed.url, "/echo/a?b=1");
    assert.equal(echoed.headers.authorization, "Bearer t0ken");
    assert.equal(echoed.headers["content-type"], "application/json");
    assert.equal(echoed.headers.accept, "application/json");
    assert.deepEqual(echoed.body, { x: 1 });
  });

  it("lets the request's headers replace its defaults, whatever their case", async () => {
    const result = await send("/echo", {
      method: "PUT",
      headers: {
        Accept: "application/vnd.api+json",
        "Content-Type": "application/vnd.api+json",
        "User-Agent": "mine",
      },
      body: "{}",
    });
    assert.ok(result.kind === "response");
    const { headers } = JSON.parse(result.body.toString("utf8"));
    assert.equal(headers.accept, "application/vnd.api+json");
    assert.equal(headers["content-type"], "application/vnd.api+json");
    assert.equal(headers["user-agent"], "mine");
  });

  it("answers statuses as they are, 4xx and 5xx included", async () => {
    for (const status of [404, 422, 500, 503]) {
      const result = await send(`/status/${status}`);
      assert.ok(result.kind === "response");
      assert.equal(result.status, status);
    }
  });

  it("does not follow a redirect", async () => {
    const echoes = () => server.requests.filter((r) => r.url === "/echo").length;
    const echoesBefore = echoes();
    const result = await send("/redirect");
    assert.ok(result.kind === "response");
    assert.equal(result.status, 302);
    assert.equal(echoes(), echoesBefore);
  });

  it("gives up at the deadline, the body's wait included", async () => {
    assert.deepEqual(await send("/slow/5000", { timeoutMs: 50 }), { kind: "timeout" });
    // Headers at once, then a body that stops halfway.
    assert.deepEqual(await send("/huge-declared", { timeoutMs: 100, maxResponseBytes: 20 * 1024 * 1024 }), {
      kind: "timeout",
    });
  });

  it("ends when its signal fires", async () => {
    const controller = new AbortController();
    const pending = send("/slow/5000", { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    assert.deepEqual(await pending, { kind: "aborted" });
  });

  it("stops reading a body that never ends once past the cap", async () => {
    const result = await send("/huge", { maxResponseBytes: 256 * 1024 });
    assert.deepEqual(result, { kind: "too_large", status: 200 });
  });

  it("refuses a body announced larger than the cap without reading it", async () => {
    assert.deepEqual(await send("/huge-declared", { maxResponseBytes: 1024 }), {
      kind: "too_large",
      status: 200,
    });
  });

  it("says the connection was refused, or reset before or during the answer", async () => {
    const refused = await upstream.send({
      url: `${await refusingOrigin()}/echo`,
      method: "GET",
      headers: {},
      timeoutMs: 5000,
      maxResponseBytes: 1024,
    });
    assert.equal(refused.kind, "unreachable");
    assert.ok(refused.kind === "unreachable");
    assert.equal(refused.reason, "refused");
    for (const path of ["/reset", "/reset-mid-body"]) {
      const reset = await send(path);
      assert.ok(reset.kind === "unreachable", `${path}: ${JSON.stringify(reset)}`);
      assert.equal(reset.reason, "reset", `${path}: ${reset.code}`);
    }
  });

  it("says a host name that does not resolve is unknown", async () => {
    const result = await upstream.send({
      url: "http://toolrun-test.invalid/echo",
      method: "GET",
      headers: {},
      timeoutMs: 5000,
      maxResponseBytes: 1024,
    });
    assert.ok(result.kind === "unreachable");
    assert.equal(result.reason, "unknown_host");
  });
});
