/**
 * The official MCP SDK clients, v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/client`), sign in with their own OAuth implementations against the
 * running service: the 401's resource metadata, discovery, registration (RFC 7591), PKCE, the
 * consent page answered by a person, the token; then tools listed and called on the consenting
 * key's account, and a refresh (rotating the refresh token) once the access token has expired.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import * as v2 from "@modelcontextprotocol/client";
import { UnauthorizedError as V1Unauthorized } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { tools } from "../../src/tools/index.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { type ClientState, memoryProvider, type OAuthApp, Person, startOAuthApp } from "./helpers.ts";

const CALCULATOR = "retaining-wall-pressure-calculator";
const WALL = { height: 5, unitWeight: 18, frictionAngle: 30 };

interface McpClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean }>;
  close(): Promise<void>;
}

/** What the test needs of one SDK: a connected client, and finishing the sign-in with the redirect. */
interface Sdk {
  readonly name: string;
  readonly Unauthorized: new (...args: never[]) => Error;
  transport(url: string, state: ClientState): { finish(redirect: URL): Promise<void> };
  connect(transport: unknown): Promise<McpClient>;
}

const SDKS: readonly Sdk[] = [
  {
    name: "v1 (@modelcontextprotocol/sdk)",
    Unauthorized: V1Unauthorized,
    transport(url, state) {
      const transport = new V1Transport(new URL(url), {
        authProvider: memoryProvider("SDK v1 test client", state),
      });
      return Object.assign(transport, {
        finish: (redirect: URL) => transport.finishAuth(redirect.searchParams.get("code") ?? ""),
      });
    },
    async connect(transport) {
      const client = new V1Client({ name: "sdk-v1-oauth-test", version: "1.0.0" });
      await client.connect(transport as V1Transport);
      return client as unknown as McpClient;
    },
  },
  {
    name: "v2 (@modelcontextprotocol/client)",
    Unauthorized: v2.UnauthorizedError,
    transport(url, state) {
      const transport = new v2.StreamableHTTPClientTransport(new URL(url), {
        authProvider: memoryProvider("SDK v2 test client", state),
      });
      // v2 checks the `iss` of the redirect (RFC 9207) too.
      return Object.assign(transport, {
        finish: (redirect: URL) => transport.finishAuth(redirect.searchParams),
      });
    },
    async connect(transport) {
      const client = new v2.Client({ name: "sdk-v2-oauth-test", version: "1.0.0" });
      await client.connect(transport as v2.StreamableHTTPClientTransport);
      return client as unknown as McpClient;
    },
  },
];

describe("MCP SDK clients with OAuth", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({ tools }, suite);
  });

  const creditsUsed = async (key: string): Promise<number> =>
    (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json().credits_used;

  for (const sdk of SDKS) {
    it(`${sdk.name}: signs in through discovery, registration, PKCE and consent, calls a tool on the key's account, and refreshes`, async () => {
      const key = await t.key("builder");
      const before = await creditsUsed(key);
      const state: ClientState = {};
      const first = sdk.transport(t.mcp, state);
      await assert.rejects(sdk.connect(first), sdk.Unauthorized);
      assert.ok(state.clientInformation?.client_id, "the client registered itself");
      const authorizationUrl = state.authorizationUrl;
      assert.ok(authorizationUrl, "the client asked to open the authorization URL");
      assert.equal(authorizationUrl.searchParams.get("code_challenge_method"), "S256");
      assert.equal(authorizationUrl.searchParams.get("resource"), t.mcp);

      const redirect = await new Person(t.base).consent(authorizationUrl, key);
      assert.ok(redirect.searchParams.get("code"), `the browser came back with a code: ${redirect}`);
      assert.equal(redirect.searchParams.get("iss"), t.base);
      await first.finish(redirect);
      assert.ok(state.tokens?.access_token && state.tokens.refresh_token, "access and refresh tokens");
      assert.equal(state.tokens.token_type, "Bearer");

      const client = await sdk.connect(sdk.transport(t.mcp, state));
      const listed = await client.listTools();
      assert.ok(listed.tools.some((tool) => tool.name === CALCULATOR));
      const result = await client.callTool({ name: CALCULATOR, arguments: WALL });
      assert.equal(result.isError, undefined);
      assert.equal(await creditsUsed(key), before + 1, "the builder key paid one credit");

      // An hour later the access token has expired: the client refreshes and goes on.
      const firstRefresh = state.tokens.refresh_token;
      t.clock.advance(61 * 60 * 1000);
      const again = await client.callTool({ name: CALCULATOR, arguments: WALL });
      assert.equal(again.isError, undefined);
      assert.notEqual(state.tokens.refresh_token, firstRefresh, "the refresh token rotated");
      assert.equal(await creditsUsed(key), before + 2);
      await client.close();
    });
  }
});
