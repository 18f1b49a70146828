/**
 * What stands in front of the MCP endpoint, in order: the Origin check (DNS rebinding), the schema
 * check, the key. None of their refusals takes a rate-limit slot, and neither does a wrong method:
 * the RateLimit header of the next good request proves it.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { isLoopbackAddress } from "../../src/mcp/origin.ts";
import { createTestApp, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import {
  initializeMessage,
  type ListeningApp,
  postRpc,
  postRpcWithHost,
  type RpcResponse,
  startMcpApp,
} from "./helpers.ts";

const LIMIT = 50;
/** A refused MCP request: the problem document, and no RateLimit header. */
function assertRefused(res: RpcResponse, status: number, code: string): void {
  assertProblem(res, status, code);
  assert.equal(res.headers.get("ratelimit"), null, "a refused request carries no RateLimit header");
}

describe("MCP endpoint security", () => {
  let t: ListeningApp;
  const suite = untilSuiteEnds();
  let key: string;
  let auth: Record<string, string>;
  let slotsTaken = 0;

  /** A good request; its RateLimit header says how many slots were taken before it. */
  const assertSlotsTaken = async () => {
    const res = await postRpc(t.mcp, { jsonrpc: "2.0", id: "probe", method: "ping" }, auth);
    assert.equal(res.status, 200);
    slotsTaken += 1;
    assert.match(
      String(res.headers.get("ratelimit")),
      new RegExp(`^"minute";r=${LIMIT - slotsTaken};t=\\d+$`),
    );
  };

  before(async () => {
    t = await startMcpApp(
      {
        plans: { free: { id: "free", label: "Free member", rpm: LIMIT, monthlyCredits: 100, minCredits: 2 } },
      },
      suite,
    );
    key = await t.key("free");
    auth = { authorization: `Bearer ${key}` };
  });

  it("401 invalid_api_key with WWW-Authenticate: Bearer for every bad credential, no slot", async () => {
    const revoked = await t.key("free");
    const record = (await t.store.listKeys()).at(-1);
    assert.ok(record);
    await t.store.revokeKey(record.id, "2026-11-01T00:00:00.000Z");
    // [Authorization, whether a bearer token was sent (RFC 6750: only then an error code)]
    const credentials: [string | undefined, boolean][] = [
      [undefined, false],
      ["", false],
      [`Basic ${Buffer.from("user:pass").toString("base64")}`, false],
      ["Bearer tr_live_short", true],
      [`Bearer tr_test_${"a".repeat(32)}`, true],
      [`Bearer tr_live_${"A".repeat(32)}`, true],
      [`Bearer ${revoked}`, true],
    ];
    for (const [authorization, tokenSent] of credentials) {
      const res = await postRpc(
        t.mcp,
        initializeMessage(),
        authorization === undefined ? {} : { authorization },
      );
      assertRefused(res, 401, "invalid_api_key");
      const detail = String((res.body as { detail: string }).detail);
      assert.match(detail, /Authorization: Bearer <API_KEY>/);
      assert.equal(
        res.headers.get("www-authenticate"),
        tokenSent
          ? `Bearer realm="toolrun", error="invalid_token", error_description="${detail}"`
          : 'Bearer realm="toolrun"',
      );
      // No protected-resource metadata: there is no OAuth authorization server to point at.
      assert.doesNotMatch(String(res.headers.get("www-authenticate")), /resource_metadata/);
    }
    const metadata = await fetch(`${t.base}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(metadata.status, 404);
    await metadata.body?.cancel();
    await assertSlotsTaken();
  });

  it("the SDK client without a key fails to connect", async () => {
    const client = new Client({ name: "keyless", version: "1.0.0" });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(t.mcp))));
    await client.close();
  });

  it("405 method_not_allowed with Allow: POST for every other method, no slot", async () => {
    for (const method of ["GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"]) {
      const res = await fetch(t.mcp, { method, headers: auth });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers.get("allow"), "POST", method);
      assert.equal(res.headers.get("ratelimit"), null, method);
      if (method !== "HEAD") {
        const body = (await res.json()) as Record<string, unknown>;
        assert.equal(body.code, "method_not_allowed");
        assert.equal(body.status, 405);
      }
    }
    // A GET as a 2025 client sends it to open its notification stream.
    const stream = await fetch(t.mcp, { headers: { ...auth, accept: "text/event-stream" } });
    assert.equal(stream.status, 405);
    await stream.body?.cancel();
    await assertSlotsTaken();
  });

  it("413 payload_too_large for a POST past the largest tool body plus the JSON-RPC allowance, no slot", async () => {
    const huge = { jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(80 * 1024) } };
    const res = await postRpc(t.mcp, huge, auth);
    assert.equal(res.status, 413);
    assert.equal((res.body as { code: string }).code, "payload_too_large");
    await assertSlotsTaken();
  });

  it("403 origin_not_allowed for an Origin the operator did not allow, no slot", async () => {
    for (const origin of [
      "http://evil.example.com",
      "http://localhost.evil.example.com",
      "http://127.0.0.1.nip.io:8080",
      "http://[::2]:3000",
      "file://localhost",
      "http://toolrun.test.evil.example.com",
      "https://toolrun.test",
      "http://toolrun.test:8443",
      "null",
      "not a url",
    ]) {
      const res = await postRpc(t.mcp, initializeMessage(), { ...auth, origin });
      assertRefused(res, 403, "origin_not_allowed");
    }
    // Checked before the key: a rebinding page gets the same answer whatever it sends.
    assertRefused(
      await postRpc(t.mcp, initializeMessage(), { origin: "http://evil.example.com" }),
      403,
      "origin_not_allowed",
    );
    await assertSlotsTaken();
  });

  it("admits an allowed Origin (any spelling of it), and on loopback a page on any loopback name and port", async () => {
    for (const origin of [
      "http://toolrun.test",
      "HTTP://TOOLRUN.TEST:80",
      "http://localhost:5173",
      "http://127.0.0.1:1",
      "http://[::1]:8080",
      "https://LOCALHOST",
      t.base,
    ]) {
      const res = await postRpc(t.mcp, initializeMessage(), { ...auth, origin });
      assert.equal(res.status, 200, origin);
      slotsTaken += 1;
    }
    await assertSlotsTaken();
  });

  it("on loopback, 403 for a Host that is no loopback name nor an allowed origin's host (DNS rebinding), no slot", async () => {
    const port = new URL(t.base).port;
    for (const host of [
      "evil.example.com",
      `evil.example.com:${port}`,
      `localhost.evil.example.com:${port}`,
      "127.0.0.1.nip.io",
      "localhost@evil.example.com",
    ]) {
      const res = await postRpcWithHost(t.mcp, host, initializeMessage(), auth);
      assertRefused(res, 403, "origin_not_allowed");
      assert.match(String((res.body as { detail: string }).detail), /DNS rebinding/);
    }
    // The conformance suite's rebinding probe: a foreign Host and its Origin together.
    assertRefused(
      await postRpcWithHost(t.mcp, "evil.example.com", initializeMessage(), {
        ...auth,
        origin: "http://evil.example.com",
      }),
      403,
      "origin_not_allowed",
    );
    await assertSlotsTaken();
  });

  it("on loopback, admits every loopback name as Host, and the allowed origins' hosts (a proxy's public name)", async () => {
    const port = new URL(t.base).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      "LOCALHOST",
      `[::1]:${port}`,
      "toolrun.test",
      "toolrun.test:443",
    ]) {
      const res = await postRpcWithHost(t.mcp, host, initializeMessage(), auth);
      assert.equal(res.status, 200, host);
      slotsTaken += 1;
    }
    await assertSlotsTaken();
  });

  it("a server not listening on loopback exempts no loopback origin and checks no Host", async (context) => {
    // Under app.inject the app listens nowhere: like a server bound to a public address.
    const unbound = await createTestApp({}, context);
    const unboundKey = await unbound.key("free");
    const post = (headers: Record<string, string>) =>
      unbound.app.inject({
        method: "POST",
        url: "/mcp",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${unboundKey}`,
          ...headers,
        },
        payload: JSON.stringify(initializeMessage()),
      });
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:8080", "http://[::1]"]) {
      const res = await post({ origin });
      assert.equal(res.statusCode, 403, origin);
      assert.equal(res.json().code, "origin_not_allowed");
    }
    assert.equal((await post({ host: "toolrun.example.com" })).statusCode, 200);
    assert.equal((await post({ origin: "http://toolrun.test" })).statusCode, 200);
  });

  it("counts only loopback listening addresses as loopback", () => {
    for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"])
      assert.ok(isLoopbackAddress(address), address);
    for (const address of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.2", "::ffff:10.0.0.1", "fe80::1"]) {
      assert.ok(!isLoopbackAddress(address), address);
    }
  });

  it("503 api_unconfigured before the key is looked at, while the schema is missing", async (context) => {
    const bare = await startMcpApp({ migrate: false }, context);
    const res = await postRpc(bare.mcp, initializeMessage(), auth);
    assertRefused(res, 503, "api_unconfigured");
    assertRefused(await postRpc(bare.mcp, initializeMessage()), 503, "api_unconfigured");
    assertRefused(
      await postRpc(bare.mcp, initializeMessage(), { origin: "http://evil.example.com" }),
      403,
      "origin_not_allowed",
    );
  });
});
