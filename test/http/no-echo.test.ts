/**
 * Nothing a client sent comes back in an error beyond a field's name: not an id, a plan, a slug,
 * a file or error code it asked for (in a problem or in the 404 page), a tool name, an origin, an `MCP-Protocol-Version` value (nor
 * in the debug log). A key-shaped `x-request-id` is replaced by the service's own: it is never
 * answered, logged or kept as the ledger's request id. Every value sent here carries ZQXW, so any
 * echo shows.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { revokeAdminKey } from "../../src/core/admin/admin-keys.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { type AdminClient, adminClient } from "../admin/helpers.ts";
import { bearer, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { type ListeningApp, postRpc, startMcpApp } from "../mcp/helpers.ts";

const MARK = "ZQXW";

function assertNoEcho(what: string, text: string): void {
  assert.doesNotMatch(text, new RegExp(MARK, "i"), `${what} echoes what the client sent: ${text}`);
}

describe("nothing the client sent in an error", () => {
  let t: ListeningApp;
  let admin: AdminClient;
  let key: string;
  const log = collectLog("debug");
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startMcpApp({ ...log.options }, suite);
    admin = await adminClient(t);
    key = await t.key("builder");
  });
  const get = (app: TestApp, url: string) => app.app.inject({ method: "GET", url, headers: bearer(key) });

  it("admin API: an unknown key id, plan or tool slug", async () => {
    assertNoEcho("an unknown key", (await admin.get(`/keys/key_${MARK}zz`)).body);
    assertNoEcho("an unknown key, updated", (await admin.patch(`/keys/key_${MARK}zz`, { name: "x" })).body);
    assertNoEcho(
      "an unknown key, granted",
      (await admin.post(`/keys/key_${MARK}zz/grants`, { credits: 1 })).body,
    );
    assertNoEcho("an unknown plan", (await admin.post("/keys", { plan: `${MARK}-gold` })).body);
    assertNoEcho(
      "an unknown tool",
      (await admin.patch(`/tools/${MARK.toLowerCase()}-tool`, { enabled: false })).body,
    );
  });

  it("the CLI's core: an unknown admin key id", async () => {
    await assert.rejects(revokeAdminKey(t.deps, cliActor("test"), `adm_${MARK}`), (error: Error) => {
      assertNoEcho("an unknown admin key", error.message);
      return true;
    });
  });

  it("pages: an unknown error code, reference file or console file", async () => {
    assertNoEcho("an unknown error code", (await get(t, `/docs/errors/${MARK}_code`)).body);
    assertNoEcho("an unknown reference file", (await get(t, `/docs/assets/${MARK}.js`)).body);
    const consoleFile = await t.app.inject({
      method: "GET",
      url: `/console/${MARK}.js`,
      headers: { accept: "application/json" },
    });
    assert.equal(consoleFile.statusCode, 404);
    assertNoEcho("an unknown console file", consoleFile.body);
    assertNoEcho("an unknown address", (await get(t, `/${MARK}/page`)).body);
  });

  it("pages: the 404 page a browser gets names no path or slug", async () => {
    const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    for (const url of [`/tools/${MARK}`, `/${MARK}`, `/docs/errors/${MARK}_code`, `/x?${MARK}=1`]) {
      const page = await t.app.inject({ method: "GET", url, headers: { accept: browser } });
      assert.equal(page.statusCode, 404, url);
      assert.match(String(page.headers["content-type"]), /^text\/html/, url);
      assertNoEcho(`the 404 page of ${url}`, page.body);
    }
  });

  it("MCP: an unknown tool, an Origin not allowed", async () => {
    const auth = { authorization: `Bearer ${key}`, "mcp-protocol-version": "2025-06-18" };
    const unknown = await postRpc(
      t.mcp,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: `${MARK}_tool`, arguments: {} } },
      auth,
    );
    assert.equal((unknown.body as { error: { code: number } }).error.code, -32602);
    assertNoEcho("an unknown tool", JSON.stringify(unknown.body));
    const origin = await postRpc(
      t.mcp,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      {
        ...auth,
        origin: `https://${MARK.toLowerCase()}.example`,
      },
    );
    assert.equal(origin.status, 403);
    assertNoEcho("an Origin", JSON.stringify(origin.body));
  });

  it("MCP: an MCP-Protocol-Version it does not know, in the answer and in the debug log", async () => {
    const auth = { authorization: `Bearer ${key}` };
    const ping = await postRpc(
      t.mcp,
      { jsonrpc: "2.0", id: 1, method: "ping" },
      {
        ...auth,
        "mcp-protocol-version": `${MARK}-1`,
      },
    );
    assert.equal(ping.status, 400);
    assertNoEcho("an unknown revision", JSON.stringify(ping.body));
    const initialize = await postRpc(
      t.mcp,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { ...auth, "mcp-protocol-version": `${MARK}-2` },
    );
    assert.equal(initialize.status, 400);
    assertNoEcho("an unknown revision beside initialize", JSON.stringify(initialize.body));
    await log.lineWhere((line) => line.msg === "request completed" && line.res !== undefined);
    for (const line of log.lines) {
      assert.doesNotMatch(
        JSON.stringify(line),
        new RegExp(`${MARK}-[12]`),
        "a log line holds the value sent",
      );
    }
  });

  it("a key-shaped x-request-id is replaced by the service's own, and never logged or kept", async () => {
    const shaped = [
      `tr_live_${MARK}${"a".repeat(28)}`,
      `tr_admin_${MARK}${"b".repeat(28)}`,
      `x.tr_live_${MARK}`,
    ];
    for (const [i, sent] of shaped.entries()) {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "x-request-id": sent }),
        payload: JSON.stringify({ value: i }),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers["x-request-id"]), /^req_/);
      assert.equal(res.json().request_id, res.headers["x-request-id"]);
    }
    const usage = (await get(t, "/v1/me/usage")).json();
    for (const call of usage.recent as { request_id: string }[]) assertNoEcho("the ledger", call.request_id);
    for (const line of log.lines) {
      for (const sent of shaped)
        assert.ok(!JSON.stringify(line).includes(sent), "a log line holds the key-shaped id");
    }
    // A correlation id that is not key-shaped is still the client's own.
    const own = await t.app.inject({
      method: "GET",
      url: "/v1/me/credits",
      headers: { ...bearer(key), "x-request-id": "trace-4bf92f3577b34da6" },
    });
    assert.equal(own.headers["x-request-id"], "trace-4bf92f3577b34da6");
  });
});
