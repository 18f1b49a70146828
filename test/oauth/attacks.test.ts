/**
 * Bad input and attacks on the OAuth flow, each refused with its RFC's error: the token
 * endpoint's JSON error (RFC 6749 section 5.2), or, at the authorization endpoint, a page showing
 * the error and no redirect at all (no client's redirect URI is trusted before the person acted). None is a 5xx, and none charges the key anything: every refused token is
 * tried on a priced tool (`tools/call`), and the key's credits and usage are read before and after.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { before, describe, it } from "node:test";
import { rotateApiKey, updateApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { hashKey } from "../../src/core/kernel/key-format.ts";
import { tools } from "../../src/tools/index.ts";
import { type AdminClient, adminClient } from "../admin/helpers.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { initializeMessage, postRpc } from "../mcp/helpers.ts";
import { type OAuthApp, Person, startOAuthApp } from "./helpers.ts";
import { IndependentClient, oauth, REDIRECT_URI } from "./independent-client.ts";

const CALCULATOR = "retaining-wall-pressure-calculator";
const WALL = { height: 5, unitWeight: 18, frictionAngle: 30 };

interface OAuthAnswer {
  readonly status: number;
  readonly error: string | undefined;
}

async function answerOf(response: Response): Promise<OAuthAnswer> {
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  return { status: response.status, error: body.error };
}

describe("OAuth attacks", () => {
  let t: OAuthApp;
  let client: IndependentClient;
  let key: string;
  let keyId: string;
  let admin: AdminClient;
  const statuses: number[] = [];
  const suite = untilSuiteEnds();

  before(async () => {
    t = await startOAuthApp({ tools }, suite);
    client = new IndependentClient(t.base, t.mcp);
    await client.discover();
    key = await t.key("builder");
    keyId = (await t.recordOf(key)).id;
    admin = await adminClient(t);
    const price = (
      await t.app.inject({ method: "GET", url: `/v1/tool/${CALCULATOR}`, headers: bearer(key) })
    ).json().credits;
    assert.ok(price > 0, "the tool the attacks call costs credits");
  });

  const person = () => new Person(t.base);

  /** A registered client and a person's approval: the callback parameters and the PKCE verifier. */
  async function approved(registered?: oauth.Client) {
    const c = registered ?? (await client.register());
    const { url, verifier, state } = await client.authorizationUrl(c);
    const redirect = await person().consent(url, key);
    return { client: c, callback: oauth.validateAuthResponse(client.as, c, redirect, state), verifier };
  }

  async function exchange(
    c: oauth.Client,
    callback: URLSearchParams,
    verifier: string,
    redirectUri = REDIRECT_URI,
  ) {
    const answer = await answerOf(await client.exchange(c, callback, verifier, redirectUri));
    statuses.push(answer.status);
    return answer;
  }

  async function mcpStatus(accessToken: string): Promise<{ status: number; challenge: string }> {
    const response = await postRpc(t.mcp, initializeMessage(), { authorization: `Bearer ${accessToken}` });
    statuses.push(response.status);
    return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "" };
  }

  /** The key's account as the admin API shows it (also once the key is revoked or rotated). */
  async function accountOf(id: string) {
    const { credits, usage } = (await admin.get(`/keys/${id}/usage`)).json();
    return {
      creditsUsed: credits.credits_used,
      calls: usage.calls,
      recent: usage.recent.map((call: { request_id: string }) => call.request_id),
    };
  }

  /**
   * A priced tool called through /mcp with a token that must be refused: its status and challenge,
   * once the key it was issued for (`id`) is seen to have been charged nothing and to show no call.
   */
  async function pricedCall(accessToken: string, id: string): Promise<{ status: number; challenge: string }> {
    const before = await accountOf(id);
    const response = await postRpc(
      t.mcp,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: CALCULATOR, arguments: WALL } },
      { authorization: `Bearer ${accessToken}`, "mcp-protocol-version": "2025-11-25" },
    );
    statuses.push(response.status);
    assert.deepEqual(await accountOf(id), before, "the refused call charged nothing and left no usage");
    return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "" };
  }

  /** What the browser gets when an authorization request must not go back to the client. */
  async function shownError(url: URL): Promise<string> {
    const response = await person().request(url.href);
    statuses.push(response.status);
    assert.equal(response.status, 400);
    assert.equal(response.headers.get("location"), null, "never redirected");
    const html = await response.text();
    const code = /id="oauth-error">([^<]+)</.exec(html)?.[1];
    assert.ok(code, `the page shows the error: ${html.slice(0, 300)}`);
    return code;
  }

  it("refuses a code exchanged with the wrong PKCE verifier (invalid_grant)", async () => {
    const { client: c, callback } = await approved();
    assert.deepEqual(await exchange(c, callback, oauth.generateRandomCodeVerifier()), {
      status: 400,
      error: "invalid_grant",
    });
  });

  it("refuses a code exchanged without a PKCE verifier (invalid_grant)", async () => {
    const { client: c, callback } = await approved();
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code: callback.get("code") ?? "",
      redirect_uri: REDIRECT_URI,
      client_id: c.client_id,
      resource: t.mcp,
    });
    const answer = await answerOf(await fetch(`${t.base}/oauth/token`, { method: "POST", body }));
    statuses.push(answer.status);
    assert.deepEqual(answer, { status: 400, error: "invalid_grant" });
  });

  it("shows a request refused before the person acted as a page, never redirecting to the client (no open redirect)", async () => {
    // Anyone can register a client with a redirect URI of their own: were these errors sent
    // there, this server would bounce a browser to any site at once, with no page shown.
    const c = await client.register();
    const { url } = await client.authorizationUrl(c);
    const refused = (change: (params: URLSearchParams) => void) => {
      const changed = new URL(url);
      change(changed.searchParams);
      return shownError(changed);
    };
    const withoutPkce = (params: URLSearchParams) => {
      params.delete("code_challenge");
      params.delete("code_challenge_method");
    };
    assert.equal(await refused(withoutPkce), "invalid_request", "without PKCE");
    assert.equal(
      await refused((params) => params.set("code_challenge_method", "plain")),
      "invalid_request",
      "with the plain PKCE method",
    );
    assert.equal(
      await refused((params) => params.set("prompt", "none")),
      "interaction_required",
      "prompt=none",
    );
    assert.equal(
      await refused((params) => params.set("response_type", "token")),
      "unsupported_response_type",
      "response_type=token",
    );
    assert.equal(
      await refused((params) => {
        withoutPkce(params);
        params.set("response_mode", "form_post");
      }),
      "invalid_request",
      "response_mode=form_post, which would post to the client from a page of this server",
    );
  });

  it("binds no token to a DPoP key (DPoP is not offered): a client sending a proof gets a bearer token", async () => {
    const { client: c, callback, verifier } = await approved();
    const keyPair = await oauth.generateKeyPair("ES256");
    const response = await client.exchange(c, callback, verifier, REDIRECT_URI, oauth.DPoP(c, keyPair));
    statuses.push(response.status);
    assert.equal(response.status, 200);
    const tokens = (await response.json()) as { token_type: string; access_token: string };
    assert.equal(tokens.token_type.toLowerCase(), "bearer", "not a DPoP-bound token");
    assert.equal((await mcpStatus(tokens.access_token)).status, 200);
  });

  it("refuses a code used twice, and revokes what the first use issued", async () => {
    const { client: c, callback, verifier } = await approved();
    const first = await client.exchange(c, callback, verifier);
    const tokens = await oauth.processAuthorizationCodeResponse(client.as, c, first);
    assert.equal((await mcpStatus(tokens.access_token)).status, 200);
    assert.deepEqual(await exchange(c, callback, verifier), { status: 400, error: "invalid_grant" });
    assert.equal(
      (await pricedCall(tokens.access_token, keyId)).status,
      401,
      "the first use's token is revoked",
    );
  });

  it("refuses one client's code redeemed by another client (invalid_grant)", async () => {
    const { callback, verifier } = await approved();
    const other = await client.register();
    assert.deepEqual(await exchange(other, callback, verifier), { status: 400, error: "invalid_grant" });
  });

  it("refuses a redirect URI one character off: shown, never redirected; and at the token endpoint", async () => {
    const c = await client.register();
    const { url } = await client.authorizationUrl(c, { redirect_uri: `${REDIRECT_URI}x` });
    assert.equal(await shownError(url), "invalid_redirect_uri");
    const port = await client.authorizationUrl(c, { redirect_uri: REDIRECT_URI.replace(":9/", ":8/") });
    assert.equal(
      await shownError(port.url),
      "invalid_redirect_uri",
      "a loopback redirect matches its port exactly",
    );

    const { client: c2, callback, verifier } = await approved();
    assert.deepEqual(await exchange(c2, callback, verifier, `${REDIRECT_URI}x`), {
      status: 400,
      error: "invalid_grant",
    });
  });

  it("never redirects to a URI the client did not register (open redirect)", async () => {
    const c = await client.register();
    for (const target of ["https://evil.example/steal", "//evil.example/", "javascript:alert(1)"]) {
      const { url } = await client.authorizationUrl(c, { redirect_uri: target });
      assert.equal(await shownError(url), "invalid_redirect_uri", target);
    }
    const unknown = await client.authorizationUrl(c, {
      client_id: `client-${randomUUID()}`,
      redirect_uri: "https://evil.example/steal",
    });
    assert.equal(
      await shownError(unknown.url),
      "invalid_client",
      "an unknown client is shown, not redirected",
    );
  });

  it("refuses an unknown client at the token endpoint (invalid_client)", async () => {
    const { callback, verifier } = await approved();
    const stranger = { client_id: `client-${randomUUID()}`, token_endpoint_auth_method: "none" };
    assert.deepEqual(await exchange(stranger, callback, verifier), { status: 401, error: "invalid_client" });
  });

  it("refuses another resource at the authorization and token endpoints (invalid_target), and its token at /mcp", async () => {
    const c = await client.register();
    const { url } = await client.authorizationUrl(c, { resource: "https://other.example/mcp" });
    assert.equal(await shownError(url), "invalid_target");

    const signed = await client.signIn(person(), key);
    const other = await answerOf(
      await client.refresh(signed.client, signed.tokens.refresh_token ?? "", "https://other.example/mcp"),
    );
    statuses.push(other.status);
    assert.deepEqual(other, { status: 400, error: "invalid_target" });

    // A token of the same authorization whose audience is another resource.
    const grantId = (
      await t.store.listOAuthAuthorizations((await t.recordOf(key)).id, t.clock.now().toISOString())
    )[0]?.id;
    assert.ok(grantId);
    const foreign = `foreign-${randomUUID()}`;
    await t.store.saveOAuthArtifact({
      model: "AccessToken",
      idHash: hashKey(foreign),
      payload: JSON.stringify({ aud: "https://other.example/mcp", clientId: signed.client.client_id }),
      grantId,
      uid: null,
      expiresAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    });
    const refused = await pricedCall(foreign, keyId);
    assert.equal(refused.status, 401);
    assert.match(refused.challenge, /error="invalid_token"/);
    assert.match(refused.challenge, /another resource/);
  });

  it("revokes the whole authorization when a rotated refresh token is used again", async () => {
    const signed = await client.signIn(person(), key);
    const rotated = await oauth.processRefreshTokenResponse(
      client.as,
      signed.client,
      await client.refresh(signed.client, signed.tokens.refresh_token ?? ""),
    );
    assert.equal((await mcpStatus(rotated.access_token)).status, 200);
    const reuse = await answerOf(await client.refresh(signed.client, signed.tokens.refresh_token ?? ""));
    statuses.push(reuse.status);
    assert.deepEqual(reuse, { status: 400, error: "invalid_grant" });
    assert.equal(
      (await pricedCall(rotated.access_token, keyId)).status,
      401,
      "the newest access token is revoked too",
    );
    assert.equal((await pricedCall(signed.tokens.access_token, keyId)).status, 401, "and the first");
    const newest = await answerOf(await client.refresh(signed.client, rotated.refresh_token ?? ""));
    statuses.push(newest.status);
    assert.deepEqual(newest, { status: 400, error: "invalid_grant" }, "and the newest refresh token");
  });

  it("ends tokens at once when their key is revoked or rotated, and follows a plan change at once", async () => {
    const own = await t.key("free");
    const signed = await client.signIn(person(), own);
    const call = () =>
      t.app.inject({
        method: "POST",
        url: "/mcp",
        headers: {
          authorization: `Bearer ${signed.tokens.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        payload: JSON.stringify(initializeMessage()),
      });
    const record = await t.recordOf(own);
    const limitOf = async () => {
      const response = await call();
      statuses.push(response.statusCode);
      return /q=(\d+)/.exec(String(response.headers["ratelimit-policy"]))?.[1];
    };
    assert.equal(await limitOf(), "60", "the free plan's rate limit");
    await updateApiKey(t.deps, cliActor("test"), record.id, { plan: "builder" });
    assert.equal(await limitOf(), "300", "the builder plan's, at once");

    await rotateApiKey(t.deps, cliActor("test"), record.id);
    const afterRotation = await pricedCall(signed.tokens.access_token, record.id);
    assert.equal(afterRotation.status, 401);
    assert.match(afterRotation.challenge, /error="invalid_token".*resource_metadata=/);
    const refresh = await answerOf(await client.refresh(signed.client, signed.tokens.refresh_token ?? ""));
    statuses.push(refresh.status);
    assert.deepEqual(refresh, { status: 400, error: "invalid_grant" }, "nor can it be refreshed");
  });

  it("ends tokens at once when their key is rotated with a grace, though the old secret itself works on", async () => {
    const own = await t.key("free");
    const signed = await client.signIn(person(), own);
    assert.equal((await mcpStatus(signed.tokens.access_token)).status, 200);
    const { id } = await t.recordOf(own);
    await rotateApiKey(t.deps, cliActor("test"), id, { graceSeconds: 3600 });
    const refused = await pricedCall(signed.tokens.access_token, id);
    assert.equal(refused.status, 401);
    assert.match(refused.challenge, /error="invalid_token"/);
    const refresh = await answerOf(await client.refresh(signed.client, signed.tokens.refresh_token ?? ""));
    statuses.push(refresh.status);
    assert.deepEqual(refresh, { status: 400, error: "invalid_grant" }, "nor can it be refreshed");
    const byOldSecret = await postRpc(t.mcp, initializeMessage(), bearer(own));
    statuses.push(byOldSecret.status);
    assert.equal(byOldSecret.status, 200, "the old secret, sent as a key, works for its grace");
  });

  it("ends tokens at once when their key is revoked", async () => {
    const own = await t.key("free");
    const signed = await client.signIn(person(), own);
    assert.equal((await mcpStatus(signed.tokens.access_token)).status, 200);
    const { id } = await t.recordOf(own);
    await t.store.revokeKey(id, t.clock.now().toISOString());
    const refused = await pricedCall(signed.tokens.access_token, id);
    assert.equal(refused.status, 401);
    assert.match(refused.challenge, /error="invalid_token"/);
  });

  it("registers redirect URIs by allow list: https, loopback http, reverse-domain app schemes, known MCP hosts' own; any other is invalid_redirect_uri", async () => {
    const register = async (uri: string) => {
      const answer = await answerOf(
        await fetch(`${t.base}/oauth/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: "none" }),
        }),
      );
      statuses.push(answer.status);
      return answer;
    };
    for (const uri of [
      "javascript:alert(1)",
      "data:text/html,hi",
      "http://evil.example/callback",
      "http://192.168.1.10/cb",
      // Schemes the operating system hands to programs of its own.
      "ms-msdt:/id PCWDiagnostic",
      "search-ms:query=x",
      "shell:startup",
      "ftp://files.example/cb",
      "com.:/cb",
    ])
      assert.deepEqual(await register(uri), { status: 400, error: "invalid_redirect_uri" }, uri);
    for (const uri of [
      "https://app.example/cb",
      "http://localhost:3000/cb",
      "http://[::1]:3000/cb",
      "com.example.app:/oauth/callback",
      "dev.toolrun.desktop-app://callback",
      // A known MCP host's own one-word scheme.
      "cursor://anysphere.cursor-mcp/oauth/callback",
    ])
      assert.equal((await register(uri)).status, 201, uri);
  });

  // Runs last: the suite's tests run in order.
  it("charged the key nothing and answered no 5xx through all of the above", async () => {
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(credits.json().credits_used, 0);
    const usage = await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
    assert.equal(usage.json().calls, 0);
    assert.ok(statuses.length > 30, `${statuses.length} answers seen`);
    assert.ok(
      statuses.every((s) => s < 500),
      `no 5xx: ${statuses.join(", ")}`,
    );
  });
});

describe("OAuth attacks: an expired code", () => {
  const suite = untilSuiteEnds();
  it("refuses a code exchanged after it expired (invalid_grant)", async () => {
    const t = await startOAuthApp({ tools }, suite, { codeTtlS: 1 });
    const key = await t.key("builder");
    const client = new IndependentClient(t.base, t.mcp);
    await client.discover();
    const c = await client.register();
    const { url, verifier, state } = await client.authorizationUrl(c);
    const redirect = await new Person(t.base).consent(url, key);
    const callback = oauth.validateAuthResponse(client.as, c, redirect, state);
    // Waiting past a one-second lifetime: the code's expiry is in whole seconds.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const answer = await answerOf(await client.exchange(c, callback, verifier));
    assert.deepEqual(answer, { status: 400, error: "invalid_grant" });
  });
});
