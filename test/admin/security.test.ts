/**
 * Who gets into the admin API: only an active admin key, on every admin operation of the document.
 * A customer key there is 401 (and an admin key on /v1 is too), and admin calls take no customer
 * rate-limit slot. Expired customer keys are 401 saying so, over HTTP and MCP.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { revokeAdminKey } from "../../src/core/admin/admin-keys.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { postRpc, startMcpApp } from "../mcp/helpers.ts";
import { type AdminClient, adminClient } from "./helpers.ts";

interface Operation {
  security: Record<string, unknown>[];
}

describe("admin API: authentication", () => {
  const suite = untilSuiteEnds();
  let t: TestApp;
  let admin: AdminClient;
  let customer: string;
  let revokedAdmin: string;
  const operations: { method: "GET" | "POST" | "PATCH"; url: string }[] = [];

  before(async () => {
    t = await createTestApp(
      { plans: { free: { id: "free", label: "Free", rpm: 3, monthlyCredits: 100, minCredits: 2 } } },
      suite,
    );
    admin = await adminClient(t);
    customer = await t.key("free");
    const gone = await adminClient(t, "gone");
    await revokeAdminKey(t.deps, cliActor("test"), gone.id);
    revokedAdmin = gone.key;
    const document = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!op.security.some((scheme) => "adminBearer" in scheme)) continue;
        const url = path.replace("{id}", "key_x").replace("{slug}", "echo");
        operations.push({ method: method.toUpperCase() as "GET" | "POST" | "PATCH", url });
      }
    }
  });

  it("documents every /admin/v1 path as needing an admin key, and only those", async () => {
    assert.ok(operations.length >= 11, `${operations.length} admin operations`);
    assert.ok(operations.every((op) => op.url.startsWith("/admin/v1/")));
  });

  const credentials: [string, () => Record<string, string>][] = [
    ["no Authorization header", () => ({})],
    ["a customer key", () => bearer(customer)],
    ["a malformed admin key", () => bearer("tr_admin_short")],
    ["an unknown admin key", () => bearer(`tr_admin_${"A".repeat(32)}`)],
    ["a revoked admin key", () => bearer(revokedAdmin)],
  ];
  for (const [what, headers] of credentials) {
    it(`refuses ${what} with 401 on every admin operation, changing nothing`, async () => {
      const auditBefore = (await admin.get("/audit")).json().entries.length;
      for (const op of operations) {
        const res = await t.app.inject({
          method: op.method,
          url: op.url,
          headers: json(headers()),
          payload:
            op.method === "GET" ? undefined : JSON.stringify({ plan: "free", credits: 1, enabled: false }),
        });
        const problem = assertProblem(res, 401, "invalid_api_key");
        assert.match(String(res.headers["www-authenticate"]), /^Bearer/);
        if (what === "a customer key") assert.match(String(problem.detail), /customer API key/);
      }
      assert.equal((await admin.get("/audit")).json().entries.length, auditBefore);
      assert.equal((await admin.get("/tools")).json().tools[0].enabled, true);
    });
  }

  it("refuses an admin key on the customer API", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(admin.key) });
    assertProblem(res, 401, "invalid_api_key");
  });

  it("takes no customer slot: a key read, granted and updated many times keeps its whole window", async () => {
    const id = (await t.recordOf(customer)).id;
    for (let i = 0; i < 10; i++) {
      assert.equal((await admin.get(`/keys/${id}/usage`)).statusCode, 200);
      assert.equal((await admin.post(`/keys/${id}/grants`, { credits: 1 })).statusCode, 200);
    }
    const res = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(customer) });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.ratelimit, '"minute";r=2;t=50');
  });
});

describe("expired keys", () => {
  it("answer 401 invalid_api_key saying when they expired, over HTTP and MCP, and nothing is charged", async (t) => {
    const app = await startMcpApp({}, t);
    const admin = await adminClient(app);
    const { id, key } = (
      await admin.post("/keys", { plan: "free", expires_at: "2026-11-15T12:00:20Z" })
    ).json();
    const me = () => app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal((await me()).statusCode, 200);
    app.clock.set("2026-11-15T12:00:20.000Z");
    const http = assertProblem(await me(), 401, "invalid_api_key");
    assert.match(String(http.detail), /expired at 2026-11-15T12:00:20\.000Z/);
    const call = await app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1 },
    });
    assertProblem(call, 401, "invalid_api_key");
    const mcp = await postRpc(app.mcp, { jsonrpc: "2.0", id: 1, method: "tools/list" }, bearer(key));
    assert.equal(mcp.status, 401);
    assert.equal((mcp.body as { code: string }).code, "invalid_api_key");
    assert.match((mcp.body as { detail: string }).detail, /expired at 2026-11-15T12:00:20\.000Z/);
    assert.match(String(mcp.headers.get("www-authenticate")), /expired/);
    const read = (await admin.get(`/keys/${id}`)).json();
    assert.equal(read.status, "expired");
    assert.equal((await admin.get(`/keys/${id}/usage`)).json().credits.credits_used, 0);
    // Moving the expiry makes it work again.
    await admin.patch(`/keys/${id}`, { expires_at: null });
    assert.equal((await me()).statusCode, 200);
  });
});
