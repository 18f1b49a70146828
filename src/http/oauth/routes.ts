/**
 * OAuth under Fastify. The library's endpoints (authorize, token, register, revoke, jwks, the
 * RFC 8414 and OpenID metadata) are handed to its own request handler with Node's raw request
 * and response, before Fastify reads the body (the library parses its own forms): a hook that
 * takes the reply over, as oidc-provider's mounting guide does for other frameworks. Their
 * answers, errors included, are the library's, in the OAuth RFCs' format; a backend failure the
 * library met (outage.ts) is reported here once the answer is sent. A registration first takes
 * a slot of its address's hourly window, so a flood of clients is refused before the library
 * stores any. The protected-resource metadata (RFC 9728) is toolrun's own route.
 */
import { once } from "node:events";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { JSON_TYPE } from "../../core/kernel/endpoint.ts";
import type { OAuthSettings } from "../../core/oauth/settings.ts";
import type { BackendUnavailableError } from "../../ports/errors.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import type { HttpRoute } from "../register.ts";
import { protectedResourceMetadata } from "./metadata.ts";
import { OAUTH_ROUTES, type OAuthRuntime } from "./provider.ts";

/** The paths the library answers (the resume path is the authorization endpoint's, plus the sign-in's uid). */
const PROVIDER_PATHS = [
  OAUTH_ROUTES.authorization,
  `${OAUTH_ROUTES.authorization}/:uid`,
  OAUTH_ROUTES.token,
  OAUTH_ROUTES.registration,
  OAUTH_ROUTES.revocation,
  OAUTH_ROUTES.jwks,
  "/.well-known/oauth-authorization-server",
  "/.well-known/openid-configuration",
];

/** Every method goes to the library, which answers those it does not serve (HEAD comes with GET). */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export function mountProvider(
  app: FastifyInstance,
  runtime: () => Promise<OAuthRuntime>,
  settings: OAuthSettings,
  reportOutage: (request: FastifyRequest, error: BackendUnavailableError) => void,
  admitRegistration: (address: string) => Promise<void>,
): void {
  const issuer = new URL(settings.issuer);
  const scheme = issuer.protocol.slice(0, -1);
  const handOff = async (request: FastifyRequest, reply: FastifyReply) => {
    // Before the reply is taken over, so a refusal or a store that is down answers a problem document.
    if (request.method === "POST" && request.routeOptions.url === OAUTH_ROUTES.registration)
      await admitRegistration(request.ip);
    const { callback, outages } = await runtime();
    reply.hijack();
    reply.raw.setHeader("x-request-id", request.id);
    // The library builds its URLs (discovery, the resume step) from the request's scheme and host,
    // trusting forwarded headers: they are set to the issuer's, whatever the client sent, so every
    // instance publishes the issuer's URLs and a forged Host header changes none of them. The
    // scheme also gives its cookies the Secure flag behind a proxy that ends TLS.
    request.raw.headers["x-forwarded-proto"] = scheme;
    request.raw.headers["x-forwarded-host"] = issuer.host;
    const finished = once(reply.raw, "close");
    callback(request.raw, reply.raw);
    await finished;
    const outage = outages.of(request.raw);
    if (outage) reportOutage(request, outage);
  };
  for (const url of PROVIDER_PATHS) {
    app.route({
      method: [...METHODS],
      url,
      onRequest: handOff,
      // Never reached: the hook has answered.
      handler: async () => undefined,
    });
  }
}

const prmSchema: JsonSchema = {
  type: "object",
  required: ["resource", "authorization_servers"],
  properties: {
    resource: { type: "string", description: "The MCP endpoint's URL: the token audience." },
    authorization_servers: { type: "array", items: { type: "string" } },
    bearer_methods_supported: { type: "array", items: { type: "string" } },
    scopes_supported: { type: "array", items: { type: "string" } },
    resource_name: { type: "string" },
    resource_documentation: { type: "string" },
  },
};

/** RFC 9728 metadata at the path-inserted well-known URI of `/mcp`, and at the root form. */
export function protectedResourceRoutes(settings: OAuthSettings): HttpRoute[] {
  const document = protectedResourceMetadata(settings);
  const route = (path: string, operationId: string): HttpRoute => ({
    method: "GET",
    path,
    operationId,
    summary: "OAuth: protected resource metadata (RFC 9728)",
    description:
      "Where an MCP client signing in starts: the resource (`/mcp`), its authorization server, and the scope. Keyless, takes no slot; any origin may read it.",
    tag: "OAuth",
    keyed: false,
    answers: [{ status: 200, description: "The metadata.", contentType: JSON_TYPE, schema: prmSchema }],
    errors: [],
    handler: async (_request, reply) =>
      reply.header("access-control-allow-origin", "*").header("cache-control", "max-age=3600").send(document),
  });
  return [
    route("/.well-known/oauth-protected-resource/mcp", "oauthProtectedResource"),
    route("/.well-known/oauth-protected-resource", "oauthProtectedResourceRoot"),
  ];
}
