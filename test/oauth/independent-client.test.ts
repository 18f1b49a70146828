/**
 * The metadata and the whole flow as an independent OAuth client (oauth4webapi) checks them:
 * RFC 9728 protected-resource metadata (both addresses), RFC 8414 metadata with the members MCP
 * clients need, the 401 challenge of `/mcp`, then registration, PKCE, consent, the code exchange
 * (`Cache-Control: no-store`), calls to `/mcp` with the token (a priced tool's paid by the
 * consenting key, in its usage and credits), a rotating refresh, and RFC 7009 revocation. The run's requests are printed as a diagnostic, secrets elided.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { tools } from "../../src/tools/index.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { initializeMessage, postRpc } from "../mcp/helpers.ts";
import { type Exchange, type OAuthApp, startOAuthApp } from "./helpers.ts";
import { IndependentClient, oauth, Person } from "./independent-client.ts";

const CALCULATOR = "retaining-wall-pressure-calculator";
const WALL = { height: 5, unitWeight: 18, frictionAngle: 30 };

const toolsCall = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("OAuth as an independent client (oauth4webapi) sees it", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({ tools }, suite);
  });

  it("publishes protected-resource metadata for /mcp at the path-inserted and the root well-known URLs", async () => {
    const response = await oauth.resourceDiscoveryRequest(new URL(t.mcp), {
      [oauth.allowInsecureRequests]: true,
    });
    const metadata = await oauth.processResourceDiscoveryResponse(new URL(t.mcp), response);
    assert.deepEqual(metadata.authorization_servers, [t.base]);
    assert.deepEqual(metadata.bearer_methods_supported, ["header"]);
    assert.deepEqual(metadata.scopes_supported, ["mcp"]);
    const root = await fetch(`${t.base}/.well-known/oauth-protected-resource`);
    assert.equal(root.status, 200);
    assert.deepEqual(await root.json(), metadata);
  });

  it("publishes RFC 8414 metadata with S256 only, public clients, registration and client ID metadata documents", async () => {
    const as = await new IndependentClient(t.base, t.mcp).discover();
    assert.equal(as.issuer, t.base);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.ok(as.token_endpoint_auth_methods_supported?.includes("none"));
    assert.equal(as.client_id_metadata_document_supported, true);
    assert.deepEqual(as.response_types_supported, ["code"]);
    assert.ok(as.grant_types_supported?.includes("refresh_token"));
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    assert.equal(as.registration_endpoint, `${t.base}/oauth/register`);
    assert.equal(as.revocation_endpoint, `${t.base}/oauth/revoke`);
    assert.equal(as.token_endpoint, `${t.base}/oauth/token`);
    assert.equal(as.authorization_endpoint, `${t.base}/oauth/authorize`);
  });

  it("lists only endpoints that answer, and offers neither DPoP nor pushed authorization requests", async () => {
    const metadata = (await (
      await fetch(`${t.base}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    assert.equal(metadata.pushed_authorization_request_endpoint, undefined);
    assert.equal(metadata.dpop_signing_alg_values_supported, undefined);
    const endpoints = Object.entries(metadata).filter(
      ([name]) => name.endsWith("_endpoint") || name === "jwks_uri",
    );
    assert.ok(endpoints.length >= 5, JSON.stringify(endpoints));
    for (const [name, url] of endpoints) {
      // Each answers one method or the other (the authorization endpoint GET, the token endpoint POST).
      const statuses = await Promise.all(
        ["GET", "POST"].map(async (method) => (await fetch(String(url), { method })).status),
      );
      assert.ok(
        statuses.some((status) => status !== 404),
        `${name} ${url} answers ${statuses.join(" and ")}`,
      );
    }
  });

  it("answers /mcp with a 401 naming the resource metadata, with invalid_token when a credential was refused", async () => {
    const metadata = `${t.base}/.well-known/oauth-protected-resource/mcp`;
    const bare = await postRpc(t.mcp, initializeMessage());
    assert.equal(bare.status, 401);
    assert.equal(
      bare.headers.get("www-authenticate"),
      `Bearer realm="toolrun", resource_metadata="${metadata}"`,
    );

    const key = await t.key();
    // One character changed, never to itself (a key ending in "x" would otherwise be the key).
    const unknownKey = `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`;
    for (const credential of ["not-a-token-of-ours", unknownKey]) {
      const refused = await oauth
        .protectedResourceRequest(
          credential,
          "POST",
          new URL(t.mcp),
          new Headers({ "content-type": "application/json", accept: "application/json, text/event-stream" }),
          JSON.stringify(initializeMessage()),
          { [oauth.allowInsecureRequests]: true },
        )
        .then(
          () => assert.fail("the request was accepted"),
          (error: unknown) => error,
        );
      assert.ok(refused instanceof oauth.WWWAuthenticateChallengeError, String(refused));
      const [challenge] = refused.cause;
      assert.equal(challenge?.scheme, "bearer");
      assert.equal(challenge?.parameters.error, "invalid_token");
      assert.equal(challenge?.parameters.resource_metadata, metadata);
    }
  });

  it("signs in, calls a priced tool through /mcp with the token on the key's account, refreshes with rotation and revokes (RFC 7009)", async (context) => {
    const log: Exchange[] = [];
    const key = await t.key("builder");
    const person = new Person(t.base, log);
    const client = new IndependentClient(t.base, t.mcp, log);
    await client.discover();
    const signed = await client.signIn(person, key);
    assert.equal(signed.response.headers.get("cache-control"), "no-store");
    assert.equal(signed.tokens.token_type, "bearer");
    assert.equal(signed.tokens.expires_in, 3600);
    assert.equal(signed.tokens.scope, "mcp");
    assert.ok(signed.tokens.refresh_token);

    const call = await postRpc(t.mcp, initializeMessage(), {
      authorization: `Bearer ${signed.tokens.access_token}`,
    });
    log.push({ request: "POST /mcp (Authorization: Bearer …, initialize)", status: call.status });
    assert.equal(call.status, 200);

    // A priced tool called with the token is paid by the consenting key: its usage and credits
    // (read with the key itself) move by the tool's price.
    const account = async () => ({
      usage: (await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) })).json(),
      credits: (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json(),
    });
    const price = (
      await t.app.inject({ method: "GET", url: `/v1/tool/${CALCULATOR}`, headers: bearer(key) })
    ).json().credits;
    assert.ok(price > 0, "the tool is priced");
    const before = await account();
    const paid = await postRpc(t.mcp, toolsCall(CALCULATOR, WALL), {
      authorization: `Bearer ${signed.tokens.access_token}`,
      "mcp-protocol-version": "2025-11-25",
    });
    log.push({
      request: `POST /mcp (Authorization: Bearer …, tools/call ${CALCULATOR})`,
      status: paid.status,
    });
    assert.equal(paid.status, 200);
    assert.equal(
      (paid.body as { result?: { isError?: boolean } }).result?.isError,
      undefined,
      JSON.stringify(paid.body),
    );
    const after = await account();
    assert.equal(after.credits.credits_used, before.credits.credits_used + price);
    assert.equal(after.credits.credits_remaining, before.credits.credits_remaining - price);
    assert.equal(after.usage.calls, before.usage.calls + 1);
    assert.equal(after.usage.credits_used, before.usage.credits_used + price);
    assert.deepEqual(after.usage.by_tool, [{ tool: CALCULATOR, calls: 1, credits: price }]);
    const [latest] = after.usage.recent;
    assert.equal(latest.request_id, paid.headers.get("x-request-id"), "the usage row is this call");
    assert.deepEqual([latest.tool, latest.status, latest.credits], [CALCULATOR, "charged", price]);

    const refreshed = await client.refresh(signed.client, signed.tokens.refresh_token);
    assert.equal(refreshed.headers.get("cache-control"), "no-store");
    const rotated = await oauth.processRefreshTokenResponse(client.as, signed.client, refreshed);
    assert.notEqual(rotated.refresh_token, signed.tokens.refresh_token);
    assert.notEqual(rotated.access_token, signed.tokens.access_token);

    const revoked = await oauth.revocationRequest(
      client.as,
      signed.client,
      oauth.None(),
      rotated.refresh_token ?? "",
      client.options,
    );
    await oauth.processRevocationResponse(revoked);
    const afterRevocation = await postRpc(t.mcp, initializeMessage(), {
      authorization: `Bearer ${rotated.access_token}`,
    });
    log.push({ request: "POST /mcp (Authorization: Bearer …, initialize)", status: afterRevocation.status });
    assert.equal(
      afterRevocation.status,
      401,
      "revoking the refresh token ends its authorization's access tokens",
    );
    assert.match(afterRevocation.headers.get("www-authenticate") ?? "", /error="invalid_token"/);

    const sequence = log.map((e) => `${e.request} -> ${e.status}${e.location ? ` ${e.location}` : ""}`);
    context.diagnostic(`one full flow:\n${sequence.join("\n")}`);
  });
});
