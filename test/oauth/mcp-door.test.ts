/**
 * The MCP endpoint's door with OAuth on: every 401 names the protected-resource metadata, with
 * `error="invalid_token"` only when a credential was sent and refused, and takes no slot; a valid
 * API key is never refused and answers as it always has; an access token takes its key's account's
 * slots, credits and idempotency scope, and an expired one is refused.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createAccount, createApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { mcpFrontDoor } from "../../src/core/oauth/mcp-door.ts";
import { tools } from "../../src/tools/index.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { initializeMessage, postRpc } from "../mcp/helpers.ts";
import { type OAuthApp, Person, startOAuthApp } from "./helpers.ts";
import { IndependentClient } from "./independent-client.ts";

const LIMIT = 40;

describe("the MCP endpoint with OAuth on", () => {
  let t: OAuthApp;
  let key: string;
  let metadata: string;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp(
      {
        tools,
        plans: { free: { id: "free", label: "Free member", rpm: LIMIT, monthlyCredits: 100, minCredits: 2 } },
      },
      suite,
    );
    key = await t.key("free");
    metadata = `${t.base}/.well-known/oauth-protected-resource/mcp`;
  });

  /** Slots left in the key's window, read from a good request's RateLimit header (which takes one). */
  const remaining = async (credential = key): Promise<number> => {
    const res = await postRpc(
      t.mcp,
      { jsonrpc: "2.0", id: "probe", method: "ping" },
      { authorization: `Bearer ${credential}` },
    );
    assert.equal(res.status, 200);
    return Number(/r=(\d+)/.exec(String(res.headers.get("ratelimit")))?.[1]);
  };

  it("answers every bad credential 401 invalid_api_key naming the resource metadata, and takes no slot", async () => {
    const before = await remaining();
    const revoked = await t.key("free");
    await t.store.revokeKey((await t.recordOf(revoked)).id, t.clock.now().toISOString());
    const credentials: [string | undefined, boolean][] = [
      [undefined, false],
      ["", false],
      [`Basic ${Buffer.from("user:pass").toString("base64")}`, false],
      ["Bearer tr_live_short", true],
      [`Bearer tr_live_${"A".repeat(32)}`, true],
      [`Bearer ${revoked}`, true],
      ["Bearer an-access-token-nobody-issued", true],
    ];
    for (const [authorization, sent] of credentials) {
      const res = await postRpc(
        t.mcp,
        initializeMessage(),
        authorization === undefined ? {} : { authorization },
      );
      assertProblem(res, 401, "invalid_api_key");
      assert.equal(res.headers.get("ratelimit"), null);
      const detail = String((res.body as { detail: string }).detail);
      assert.equal(
        res.headers.get("www-authenticate"),
        sent
          ? `Bearer realm="toolrun", error="invalid_token", error_description="${detail}", resource_metadata="${metadata}"`
          : `Bearer realm="toolrun", resource_metadata="${metadata}"`,
        String(authorization),
      );
    }
    assert.equal(await remaining(), before - 1, "only the probe took a slot");
  });

  it("never refuses a valid API key, which answers as without OAuth", async () => {
    const res = await postRpc(t.mcp, initializeMessage(), { authorization: `Bearer ${key}` });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("www-authenticate"), null);
    assert.match(String(res.headers.get("ratelimit")), /^"minute";r=\d+;t=\d+$/);
  });

  it("takes an access token's slots and credits from its key, and refuses it once expired", async () => {
    const own = await t.key("free");
    const client = new IndependentClient(t.base, t.mcp);
    const signed = await client.signIn(new Person(t.base), own);
    const token = signed.tokens.access_token;
    assert.equal(await remaining(token), LIMIT - 1);
    assert.equal(await remaining(own), LIMIT - 2, "the key and its token share one window");

    const call = await postRpc(
      t.mcp,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "retaining-wall-pressure-calculator",
          arguments: { height: 5, unitWeight: 18, frictionAngle: 30 },
        },
      },
      { authorization: `Bearer ${token}`, "mcp-protocol-version": "2025-11-25" },
    );
    assert.equal(call.status, 200);
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(own) });
    assert.equal(credits.json().credits_used, 2, "the free plan's minimum, on the key's account");

    t.clock.advance(3600 * 1000);
    const expired = await postRpc(t.mcp, initializeMessage(), { authorization: `Bearer ${token}` });
    assertProblem(expired, 401, "invalid_api_key");
    assert.match(String(expired.headers.get("www-authenticate")), /error="invalid_token".*expired at/);
  });

  it("shares the key's idempotency scope: a retry with the token replays the key's call, charging nothing more", async () => {
    const own = await t.key("free");
    const signed = await new IndependentClient(t.base, t.mcp).signIn(new Person(t.base), own);
    const call = (credential: string) =>
      postRpc(
        t.mcp,
        {
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: {
            name: "retaining-wall-pressure-calculator",
            arguments: { height: 4, unitWeight: 18, frictionAngle: 30 },
            _meta: { "toolrun/idempotency-key": "oauth-retry-1" },
          },
        },
        { authorization: `Bearer ${credential}`, "mcp-protocol-version": "2025-11-25" },
      );
    const first = await call(own);
    const again = await call(signed.tokens.access_token);
    const meta = (res: typeof first) =>
      (res.body as { result: { _meta?: Record<string, unknown> } }).result._meta;
    assert.equal(meta(first)?.["toolrun/idempotent-replayed"], undefined);
    assert.equal(meta(again)?.["toolrun/idempotent-replayed"], true);
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(own) });
    assert.equal(credits.json().credits_used, 2, "charged once");
  });

  it("spends for its key's account: another key of the account sees the charge, and shares the window", async () => {
    const by = cliActor("test");
    const account = await createAccount(t.deps, by, {
      name: "team",
      plan: "free",
      monthlyAllowance: null,
      metadata: {},
    });
    const keyOf = async (name: string) =>
      createApiKey(t.deps, by, {
        accountId: account.id,
        plan: "",
        name,
        monthlyAllowance: null,
        expiresAt: null,
        metadata: {},
        tools: null,
        access: "full",
      });
    const signedWith = await keyOf("agent");
    const other = await keyOf("ci");
    const token = (await new IndependentClient(t.base, t.mcp).signIn(new Person(t.base), signedWith.key))
      .tokens.access_token;
    const call = await postRpc(
      t.mcp,
      {
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: {
          name: "retaining-wall-pressure-calculator",
          arguments: { height: 3, unitWeight: 18, frictionAngle: 30 },
        },
      },
      { authorization: `Bearer ${token}`, "mcp-protocol-version": "2025-11-25" },
    );
    assert.equal(call.status, 200);
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(other.key) });
    assert.deepEqual(
      [credits.json().account_id, credits.json().credits_used],
      [account.id, 2],
      "charged to the account, read by its other key",
    );
    const usage = await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(other.key) });
    assert.deepEqual(
      usage.json().recent.map((r: { key_id: string }) => r.key_id),
      [signedWith.record.id],
      "the call names the key the authorization acts for",
    );
    // The token, its key and the account's other key take slots from one window.
    const before = await remaining(other.key);
    assert.equal(await remaining(token), before - 1);
    assert.equal(await remaining(signedWith.key), before - 2);
  });

  it("admits an access token through every way into the door, the whole door (admit) included", async () => {
    const own = await t.key("free");
    const signed = await new IndependentClient(t.base, t.mcp).signIn(new Person(t.base), own);
    const door = mcpFrontDoor(t.deps, t.settings);
    const authorization = `Bearer ${signed.tokens.access_token}`;
    const keyId = (await t.recordOf(own)).id;
    assert.equal((await door.authenticate(authorization)).id, keyId);
    const admitted = await door.admit(authorization);
    assert.equal(admitted.key.id, keyId);
    assert.match(String(admitted.headers.ratelimit), /^"minute";r=\d+;t=\d+$/);
  });

  it("keeps /v1 for keys only: an access token there is refused", async () => {
    const own = await t.key("free");
    const signed = await new IndependentClient(t.base, t.mcp).signIn(new Person(t.base), own);
    const res = await t.app.inject({
      method: "GET",
      url: "/v1/me/credits",
      headers: bearer(signed.tokens.access_token),
    });
    assertProblem(res, 401, "invalid_api_key");
  });
});

describe("the MCP endpoint with OAuth on, before the schema is there", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({ tools, migrate: false }, suite);
  });

  it("answers a bearer that is no key 503 api_unconfigured, as it answers a key", async () => {
    for (const credential of ["an-opaque-access-token", "tr_live_notakey"]) {
      const res = await postRpc(t.mcp, initializeMessage(), { authorization: `Bearer ${credential}` });
      assert.equal(res.status, 503, credential);
      assert.equal((res.body as { code?: string }).code, "api_unconfigured", credential);
    }
  });
});
