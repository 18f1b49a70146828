/**
 * The client of the test behind Caddy, run as its own process with Caddy's root CA in
 * NODE_EXTRA_CA_CERTS, so only it trusts that CA: OAuth discovery from the 401, then the MCP SDK's
 * own sign-in (registration, PKCE, the consent page answered as a person would, `finishAuth`),
 * then a new transport with the tokens calling a priced tool, all over https through the proxy.
 * Prints one JSON line of what it saw. Also the shape of the OAuth client recipe in docs/mcp.md.
 *
 * Usage: https-client.ts BASE_URL API_KEY
 */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ClientState, memoryProvider, Person } from "../../oauth/helpers.ts";

const [base = "", key = ""] = process.argv.slice(2);
const mcp = new URL("/mcp", base);

const challenge = (await fetch(mcp, { method: "POST" })).headers.get("www-authenticate") ?? "";
const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? "";
const resource = (await (await fetch(resourceMetadataUrl)).json()) as {
  resource: string;
  authorization_servers: string[];
};
const issuer = resource.authorization_servers[0] ?? "";
const server = (await (
  await fetch(new URL("/.well-known/oauth-authorization-server", issuer))
).json()) as Record<string, string>;

const state: ClientState = {};
const provider = memoryProvider("https test client", state);
const first = new StreamableHTTPClientTransport(mcp, { authProvider: provider });
let signInStarted = false;
try {
  await new Client({ name: "https-test", version: "1.0.0" }).connect(first);
} catch (error) {
  signInStarted = error instanceof UnauthorizedError;
}
// The person: the browser opens the authorization URL, the key is typed, Approve pressed.
const redirect = await new Person(base).consent(state.authorizationUrl ?? "", key);
await first.finishAuth(redirect.searchParams.get("code") ?? "");

const client = new Client({ name: "https-test", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: provider }));
const result = await client.callTool({
  name: "retaining-wall-pressure-calculator",
  arguments: { height: 5, unitWeight: 18, frictionAngle: 30 },
});
await client.close();
const credits = (await (
  await fetch(new URL("/v1/me/credits", base), { headers: { authorization: `Bearer ${key}` } })
).json()) as {
  credits_used: number;
};

process.stdout.write(
  `${JSON.stringify({
    challenge,
    resource: resource.resource,
    issuer,
    authorizationEndpoint: server.authorization_endpoint,
    tokenEndpoint: server.token_endpoint,
    signInStarted,
    redirectOrigin: redirect.origin,
    tokenType: state.tokens?.token_type,
    isError: result.isError ?? false,
    creditsUsed: credits.credits_used,
  })}\n`,
);
