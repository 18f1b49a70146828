/**
 * The official MCP SDK v1 client (`@modelcontextprotocol/sdk`) signs in with its own OAuth
 * implementation against the running service: the 401's resource metadata, discovery,
 * registration (RFC 7591), PKCE, the consent page answered by a person, the token, then tools
 * listed and called on the consenting key's account, and a refresh when the access token expires.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { tools } from "../../src/tools/index.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { type ClientState, memoryProvider, type OAuthApp, Person, startOAuthApp } from "./helpers.ts";

const CALCULATOR = "retaining-wall-pressure-calculator";
const WALL = { height: 5, unitWeight: 18, frictionAngle: 30 };

describe("MCP SDK v1 client with OAuth", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({ tools }, suite);
  });

  const creditsUsed = async (key: string): Promise<number> =>
    (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json().credits_used;

  async function connect(state: ClientState) {
    const client = new Client({ name: "sdk-v1-oauth-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.mcp), {
        authProvider: memoryProvider("SDK v1 test client", state),
      }),
    );
    return client;
  }

  it("signs in through discovery, registration, PKCE and consent, then calls a tool on the key's account", async () => {
    const key = await t.key("builder");
    const before = await creditsUsed(key);
    const state: ClientState = {};
    const transport = new StreamableHTTPClientTransport(new URL(t.mcp), {
      authProvider: memoryProvider("SDK v1 test client", state),
    });
    await assert.rejects(
      new Client({ name: "sdk-v1-oauth-test", version: "1.0.0" }).connect(transport),
      UnauthorizedError,
    );
    assert.ok(state.clientInformation?.client_id, "the client registered itself");
    const authorizationUrl = state.authorizationUrl;
    assert.ok(authorizationUrl, "the client asked to open the authorization URL");
    assert.equal(authorizationUrl.searchParams.get("code_challenge_method"), "S256");
    assert.equal(authorizationUrl.searchParams.get("resource"), t.mcp);

    const redirect = await new Person(t.base).consent(authorizationUrl, key);
    const code = redirect.searchParams.get("code");
    assert.ok(code, `the browser came back with a code: ${redirect}`);
    assert.equal(redirect.searchParams.get("iss"), t.base);
    await transport.finishAuth(code);
    assert.ok(state.tokens?.access_token && state.tokens.refresh_token, "access and refresh tokens");
    assert.equal(state.tokens.token_type, "Bearer");

    const client = await connect(state);
    const listed = await client.listTools();
    assert.ok(listed.tools.some((tool) => tool.name === CALCULATOR));
    const result = await client.callTool({ name: CALCULATOR, arguments: WALL });
    assert.equal(result.isError, undefined);
    assert.equal(await creditsUsed(key), before + 1, "the builder key paid one credit");

    // An hour later the access token has expired; the client refreshes (rotating the refresh token) and goes on.
    const firstRefresh = state.tokens.refresh_token;
    t.clock.advance(61 * 60 * 1000);
    const again = await client.callTool({ name: CALCULATOR, arguments: WALL });
    assert.equal(again.isError, undefined);
    assert.notEqual(state.tokens.refresh_token, firstRefresh, "the refresh token rotated");
    assert.equal(await creditsUsed(key), before + 2);
    await client.close();
  });
});
