/**
 * What the service publishes about OAuth: RFC 9728 protected-resource metadata for the MCP
 * endpoint (where an MCP client starts, from the 401's `resource_metadata`), and what the OpenAPI
 * document adds: the `oauth2` security scheme, offered on `POST /mcp` beside the API key.
 */
import { MCP_SCOPE, type OAuthSettings } from "../../core/oauth/settings.ts";
import { PROBLEM_CONTENT_TYPE, PROBLEM_REF } from "../problem.ts";
import { OAUTH_ROUTES } from "./provider.ts";

export function protectedResourceMetadata(settings: OAuthSettings) {
  return {
    resource: settings.resource,
    authorization_servers: [settings.issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: [MCP_SCOPE],
    resource_name: "toolrun MCP",
    resource_documentation: `${settings.issuer}/docs`,
  };
}

type Json = Record<string, unknown>;

/** The OpenAPI document with OAuth described: the scheme, and `POST /mcp` accepting either credential. */
export function withOAuthSecurity(document: Json, settings: OAuthSettings): Json {
  const components = document.components as Json;
  const schemes = components.securitySchemes as Json;
  const paths = document.paths as Record<string, Record<string, Json>>;
  const mcp = paths["/mcp"]?.post;
  return {
    ...document,
    tags: [...(document.tags as Json[]), { name: "OAuth" }],
    components: {
      ...components,
      schemas: { ...(components.schemas as Json), OAuthError: oauthErrorSchema },
      securitySchemes: {
        ...schemes,
        oauth2: {
          type: "oauth2",
          description:
            "OAuth 2.1 for the MCP endpoint only: authorization code with PKCE (S256), the resource `" +
            settings.resource +
            "` (RFC 8707), dynamic client registration (RFC 7591) or a client ID metadata document. The token acts as the account of the API key typed on the consent page. Discovery: `/.well-known/oauth-protected-resource/mcp`, then `/.well-known/oauth-authorization-server`.",
          flows: {
            authorizationCode: {
              authorizationUrl: `${settings.issuer}${OAUTH_ROUTES.authorization}`,
              tokenUrl: `${settings.issuer}${OAUTH_ROUTES.token}`,
              refreshUrl: `${settings.issuer}${OAUTH_ROUTES.token}`,
              scopes: { [MCP_SCOPE]: "Use the MCP tools as the consenting key's account." },
            },
          },
        },
      },
    },
    paths: {
      ...paths,
      ...oauthPaths(settings),
      ...(mcp && {
        "/mcp": { ...paths["/mcp"], post: { ...mcp, security: [{ bearer: [] }, { oauth2: [MCP_SCOPE] }] } },
      }),
    },
  };
}

const OAUTH_ERROR = { $ref: "#/components/schemas/OAuthError" };

const oauthErrorSchema = {
  type: "object",
  required: ["error"],
  description: "An OAuth error (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 7009 section 2.2.1).",
  properties: { error: { type: "string" }, error_description: { type: "string" } },
};

const json = (description: string, schema: Json = { type: "object" }) => ({
  description,
  content: { "application/json": { schema } },
});
const oauthError = (description: string) => json(description, OAUTH_ERROR);
/** What every endpoint that reads the store answers while the database cannot be reached. */
const unavailable = {
  ...oauthError(
    "`temporarily_unavailable`: the database cannot be reached right now; retry after `Retry-After` seconds.",
  ),
  headers: { "Retry-After": { schema: { type: "integer" } } },
};
/** The same at the endpoints a person's browser opens: the error page, which they can reload. */
const unavailablePage = {
  description:
    "The database cannot be reached right now: a page showing `temporarily_unavailable`, with `Retry-After`.",
  headers: unavailable.headers,
  content: { "text/html": {} },
};
const form = (properties: Json, required: string[]) => ({
  required: true,
  content: { "application/x-www-form-urlencoded": { schema: { type: "object", required, properties } } },
});
const text = { type: "string" };

/** The library's endpoints, as the OpenAPI document describes them (their errors are OAuth's, not problems). */
function oauthPaths(settings: OAuthSettings): Record<string, Record<string, Json>> {
  const operation = (operationId: string, summary: string, description: string, rest: Json): Json => ({
    operationId,
    summary,
    description,
    tags: ["OAuth"],
    security: [],
    ...rest,
  });
  const metadata = (operationId: string, which: string): Json =>
    operation(
      operationId,
      `OAuth: authorization server metadata (${which})`,
      'The same document at both addresses: the endpoints below, `code_challenge_methods_supported: ["S256"]`, `token_endpoint_auth_methods_supported` (with `none`) and `client_id_metadata_document_supported: true`.',
      {
        responses: { 200: json("The metadata.") },
      },
    );
  return {
    "/.well-known/oauth-authorization-server": { get: metadata("oauthServerMetadata", "RFC 8414") },
    "/.well-known/openid-configuration": { get: metadata("oauthOpenIdConfiguration", "OpenID discovery") },
    [OAUTH_ROUTES.authorization]: {
      get: operation(
        "oauthAuthorize",
        "OAuth: authorization endpoint",
        `Authorization code with PKCE (\`code_challenge_method=S256\` only). \`resource\`, when sent, must be \`${settings.resource}\`. Sends the browser to the consent page; a request refused before the person answered it (unknown client, unregistered redirect URI, no PKCE, \`prompt=none\`, another response type, ...) is shown as a page, never redirected to the client.`,
        {
          parameters: [
            "response_type",
            "client_id",
            "redirect_uri",
            "code_challenge",
            "code_challenge_method",
            "state",
            "scope",
            "resource",
          ].map((name) => ({
            name,
            in: "query",
            required: ["response_type", "client_id", "code_challenge"].includes(name),
            schema: text,
          })),
          responses: {
            303: { description: "To the consent page." },
            400: { description: "An error shown to the person (HTML).", content: { "text/html": {} } },
            503: unavailablePage,
          },
        },
      ),
    },
    [`${OAUTH_ROUTES.authorization}/{uid}`]: {
      get: operation(
        "oauthResume",
        "OAuth: back from the consent page",
        "Where the consent page's answer leads: on to the client's redirect URI with `code` (or `error=access_denied`), `state` and `iss`.",
        {
          parameters: [{ name: "uid", in: "path", required: true, schema: text }],
          responses: { 303: { description: "To the client's redirect URI." }, 503: unavailablePage },
        },
      ),
    },
    [OAUTH_ROUTES.token]: {
      post: operation(
        "oauthToken",
        "OAuth: token endpoint",
        `\`authorization_code\` (with \`code_verifier\`) or \`refresh_token\`. Access tokens live ${settings.accessTokenTtlS} s; every refresh rotates the refresh token, and reusing a rotated one revokes the whole authorization. Answers carry \`Cache-Control: no-store\`.`,
        {
          requestBody: form(
            {
              grant_type: text,
              code: text,
              redirect_uri: text,
              code_verifier: text,
              refresh_token: text,
              client_id: text,
              resource: text,
            },
            ["grant_type"],
          ),
          responses: {
            200: json(
              "The tokens (`access_token`, `token_type: Bearer`, `expires_in`, `refresh_token`, `scope`).",
            ),
            400: oauthError(
              "`invalid_grant`, `invalid_request`, `invalid_target`, `unsupported_grant_type`, ...",
            ),
            401: oauthError("`invalid_client`."),
            503: unavailable,
          },
        },
      ),
    },
    [OAUTH_ROUTES.registration]: {
      post: operation(
        "oauthRegister",
        "OAuth: dynamic client registration (RFC 7591)",
        "Registers a client from its metadata (JSON). Redirect URIs match exactly later: `https:`, `http:` only for a loopback host, or an app's own scheme in reverse-domain form (`com.example.app:`); any other is `invalid_redirect_uri`.",
        {
          requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
          responses: {
            201: json("The client as registered, with its `client_id`."),
            400: oauthError("`invalid_redirect_uri` or `invalid_client_metadata`."),
            429: {
              description: `A problem: \`rate_limited\`. Each client address may register ${settings.registrationsPerHour} clients an hour; retry after \`Retry-After\` seconds, or reuse a client already registered.`,
              headers: {
                "Retry-After": { schema: { type: "integer" } },
                RateLimit: { schema: { type: "string" } },
                "RateLimit-Policy": { schema: { type: "string" } },
              },
              content: { [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } },
            },
            503: {
              ...unavailable,
              description: `${unavailable.description} Or a problem, \`backend_unavailable\`, when the rate limiter could not count the registration.`,
              content: { ...unavailable.content, [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } },
            },
          },
        },
      ),
    },
    [OAUTH_ROUTES.revocation]: {
      post: operation(
        "oauthRevoke",
        "OAuth: token revocation (RFC 7009)",
        "Revokes a refresh token (and its whole authorization) or an access token. Unknown tokens answer 200 too.",
        {
          requestBody: form({ token: text, token_type_hint: text, client_id: text }, ["token"]),
          responses: {
            200: { description: "Revoked, or there was nothing to revoke." },
            400: oauthError("`invalid_request`."),
            401: oauthError("`invalid_client`."),
            503: unavailable,
          },
        },
      ),
    },
    [OAUTH_ROUTES.jwks]: {
      get: operation(
        "oauthJwks",
        "OAuth: signing keys",
        "The public keys ID tokens (scope `openid`) are signed with.",
        {
          responses: { 200: json("A JWK set.") },
        },
      ),
    },
  };
}
