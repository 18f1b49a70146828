/**
 * toolrun's OAuth 2.1 authorization server for its MCP endpoint is panva's oidc-provider,
 * configured here. Chosen because it is OpenID Certified (its conformance suite runs in its CI),
 * kept up by one careful maintainer for a decade with releases every few weeks, and implements
 * what the MCP authorization spec asks for, each from its RFC: authorization code with PKCE
 * (S256 only), RFC 8707 resource indicators, RFC 7591 dynamic registration, client ID metadata
 * documents (with SSRF protection on the fetch), RFC 7009 revocation, refresh-token rotation
 * that revokes the whole grant on reuse, RFC 8414 metadata, behind a storage adapter interface.
 * What toolrun writes around it is glue: the adapter onto the Store (adapter.ts), the redirect
 * URI policy (redirect-policy.ts), the consent page (console/consent.ts, through consent.ts here)
 * and the mounting under Fastify (routes.ts).
 *
 * Choices made here: every authorization asks for the API key that will pay (a login "session"
 * never signs a browser in silently); the only resource is `{issuer}/mcp`, defaulted when a
 * client names none; refresh tokens are issued to every client allowed the grant and rotate on
 * every use; codes and tokens are opaque and stored hashed.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Provider, {
  type Configuration,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
} from "oidc-provider";
import { hasExpired } from "../../core/call/keys.ts";
import { MCP_SCOPE, type OAuthSettings } from "../../core/oauth/settings.ts";
import type { BackendUnavailableError } from "../../ports/errors.ts";
import type { OAuthStore } from "../../ports/oauth-store.ts";
import type { KeyStore } from "../../ports/store.ts";
import { storeAdapter } from "./adapter.ts";
import { applyRedirectPolicy } from "./redirect-policy.ts";

export const OAUTH_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  registration: "/oauth/register",
  revocation: "/oauth/revoke",
  jwks: "/oauth/jwks",
  // Disabled features still need a path.
  end_session: "/oauth/logout",
  userinfo: "/oauth/userinfo",
  introspection: "/oauth/introspect",
} as const;

/** Where the library sends the browser to approve or deny: the console's consent page. */
export const CONSENT_PATH = "/oauth/consent";

const DAY_S = 24 * 3600;
const SIGNING_ALG = "ES256";

/** Secrets every instance must share, kept in the store and made by the first instance that needs them. */
export interface ServerSecrets {
  /** Signs the library's cookies, and (through consent.ts) the consent form's CSRF token. */
  readonly cookieKey: string;
  /** The key set ID tokens would be signed with (a client asking for `openid`). */
  readonly jwks: { keys: Record<string, unknown>[] };
}

/** The backend failures the library met (outage.ts). */
export interface Outages {
  /** The backend failure the library met while answering `req`, if any. */
  of(req: IncomingMessage): BackendUnavailableError | undefined;
}

/** The library's instance and its request handler, made once the store can give the shared secrets. */
export interface OAuthRuntime {
  readonly provider: Provider;
  readonly callback: (req: IncomingMessage, res: ServerResponse) => void;
  readonly secrets: ServerSecrets;
  readonly outages: Outages;
}

export async function loadServerSecrets(store: OAuthStore, now: () => Date): Promise<ServerSecrets> {
  const at = now().toISOString();
  const cookieKey = await store.oauthSecret("cookie-key", randomBytes(32).toString("base64url"), at);
  const jwks = await store.oauthSecret("signing-keys", JSON.stringify({ keys: [newSigningKey()] }), at);
  return { cookieKey, jwks: JSON.parse(jwks) as ServerSecrets["jwks"] };
}

function newSigningKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    ...privateKey.export({ format: "jwk" }),
    alg: SIGNING_ALG,
    use: "sig",
    kid: randomBytes(8).toString("hex"),
  };
}

/** Every authorization asks for the key: the library's login prompt is requested until this one answers it. */
function policy(): interactionPolicy.DefaultPolicy {
  const { base, Check } = interactionPolicy;
  const prompts = base();
  prompts
    .get("login")
    ?.checks.add(
      new Check("api_key_required", "The API key that will pay must be entered", (ctx) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
      0,
    );
  return prompts;
}

export interface ProviderOptions {
  readonly store: OAuthStore & Pick<KeyStore, "getKey">;
  readonly settings: OAuthSettings;
  readonly secrets: ServerSecrets;
  readonly now: () => Date;
  /** The page (HTML) showing an OAuth error to the person in the browser: the console's. */
  readonly errorPage: ErrorPage;
}

export type ErrorPage = (error: string, description: string) => string;

const ERROR_PAGE_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function createProvider({ store, settings, secrets, now, errorPage }: ProviderOptions): Provider {
  const secure = new URL(settings.issuer).protocol === "https:";
  const cookie = { httpOnly: true, sameSite: "lax" as const, secure };
  const configuration: Configuration = {
    adapter: storeAdapter(store, now),
    clients: [],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: SIGNING_ALG,
    },
    clientAuthMethods: ["none", "client_secret_basic", "client_secret_post"],
    responseTypes: ["code"],
    pkce: { required: () => true },
    scopes: ["openid", "offline_access", MCP_SCOPE],
    claims: { openid: ["sub"] },
    enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG] },
    jwks: secrets.jwks as Configuration["jwks"],
    cookies: {
      keys: [secrets.cookieKey],
      names: {
        interaction: "toolrun_oauth",
        resume: "toolrun_oauth_resume",
        session: "toolrun_oauth_session",
      },
      short: cookie,
      long: cookie,
    },
    routes: OAUTH_ROUTES,
    interactions: {
      url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}`,
      policy: policy(),
    },
    // Only the grant this very consent made; never one remembered from an earlier sign-in.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId === undefined ? undefined : ctx.oidc.provider.Grant.find(grantId);
    },
    // The account is the key: one revoked or expired since cannot be refreshed into new tokens.
    findAccount: async (_ctx, sub) => {
      const key = await store.getKey(sub);
      if (key === null || key.revokedAt !== null || hasExpired(key, now())) return undefined;
      return { accountId: sub, claims: async () => ({ sub }) };
    },
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: settings.accessTokenTtlS,
      AuthorizationCode: settings.codeTtlS ?? 60,
      RefreshToken: 30 * DAY_S,
      Grant: 365 * DAY_S,
      IdToken: 3600,
      Interaction: 3600,
      Session: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      // A client revokes only its own tokens; another's answers 200 and revokes nothing
      // (RFC 7009 section 2.1), so a public client cannot probe which tokens exist.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      introspection: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => settings.resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== settings.resource)
            throw new errors.InvalidTarget(`this server issues tokens only for ${settings.resource}`);
          return {
            scope: MCP_SCOPE,
            audience: settings.resource,
            accessTokenTTL: settings.accessTokenTtlS,
            accessTokenFormat: "opaque",
          };
        },
      },
      clientIdMetadataDocument: { enabled: true, ack: "draft-02" },
      // Not offered: the MCP endpoint takes bearer tokens only, so a token bound to a DPoP key
      // would be accepted there without its proof (docs/mcp.md).
      dPoP: { enabled: false },
      // Not mounted (routes.ts), so not advertised.
      pushedAuthorizationRequests: { enabled: false },
    },
    // Fetches of client ID metadata documents: the library refuses private and loopback
    // addresses (checked on the connected socket); tests allow them.
    fetch: (url, options) => {
      if (!settings.allowPrivateFetch) return globalThis.fetch(url, options);
      const { dispatcher: _ssrfGuard, ...rest } = options as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, rest);
    },
    extraClientMetadata: {
      // RFC 7591 members clients send; listing them is also what runs the validator for every client.
      properties: ["software_id", "software_version"],
      validator: (_ctx, key, value, metadata) => {
        if (value !== undefined && typeof value !== "string")
          throw new errors.InvalidClientMetadata(`${key} must be a string`);
        if (key === "software_id") applyRedirectPolicy(metadata as Record<string, unknown>);
      },
    },
    renderError: async (ctx, out) =>
      showErrorPage(ctx, errorPage, String(out.error ?? "server_error"), String(out.error_description ?? "")),
  };
  const provider = new Provider(settings.issuer, configuration);
  // The issuer is the truth about how browsers reach us: the mounting (routes.ts) sets the
  // forwarded scheme and host from it, which the library reads with this on.
  provider.proxy = true;
  return provider;
}

/**
 * What a browser sees when an authorization request cannot go back to its client (an unknown
 * client, a redirect URI that was not registered) or while the database is out (outage.ts): the
 * RFC 6749 error, shown and never redirected.
 */
export function showErrorPage(
  ctx: KoaContextWithOIDC,
  page: ErrorPage,
  error: string,
  description: string,
): void {
  ctx.set("content-security-policy", ERROR_PAGE_POLICY);
  ctx.set("x-content-type-options", "nosniff");
  ctx.set("cache-control", "no-store");
  ctx.type = "html";
  ctx.body = page(error, description);
}
