/**
 * What the OAuth side of the service needs to know: toolrun is the authorization server
 * (`issuer`, TOOLRUN_PUBLIC_URL) of one protected resource, its MCP endpoint (`{issuer}/mcp`).
 * Built by src/config.ts; null there when OAuth is off.
 */

export interface OAuthSettings {
  /** The authorization server's issuer identifier: TOOLRUN_PUBLIC_URL. */
  readonly issuer: string;
  /** The protected resource (RFC 8707 `resource`, the access token's audience): `{issuer}/mcp`. */
  readonly resource: string;
  /** Seconds an access token lives (TOOLRUN_OAUTH_ACCESS_TTL_S). */
  readonly accessTokenTtlS: number;
  /**
   * Client ID metadata documents may be fetched from loopback and private addresses
   * (TOOLRUN_OAUTH_ALLOW_PRIVATE_FETCH, for tests): off, only public https hosts are fetched.
   */
  readonly allowPrivateFetch: boolean;
  /** Clients one address may register an hour (TOOLRUN_OAUTH_REGISTRATIONS_PER_HOUR). */
  readonly registrationsPerHour: number;
  /** Seconds an authorization code lives (60; tests shorten it). */
  readonly codeTtlS?: number;
}

export const DEFAULT_ACCESS_TOKEN_TTL_S = 3600;
/** Enough for the people behind one chat host's addresses to connect; a flood of clients is not. */
export const DEFAULT_REGISTRATIONS_PER_HOUR = 60;

/** The one scope: use the MCP tools as the consenting key's account. */
export const MCP_SCOPE = "mcp";

/** The path of the protected resource, below the issuer. */
export const MCP_RESOURCE_PATH = "/mcp";

export function oauthSettings(
  publicUrl: string,
  options: {
    accessTokenTtlS?: number;
    allowPrivateFetch?: boolean;
    registrationsPerHour?: number;
    codeTtlS?: number;
  } = {},
): OAuthSettings {
  const issuer = publicUrl.replace(/\/+$/, "");
  return {
    issuer,
    resource: `${issuer}${MCP_RESOURCE_PATH}`,
    accessTokenTtlS: options.accessTokenTtlS ?? DEFAULT_ACCESS_TOKEN_TTL_S,
    allowPrivateFetch: options.allowPrivateFetch ?? false,
    registrationsPerHour: options.registrationsPerHour ?? DEFAULT_REGISTRATIONS_PER_HOUR,
    ...(options.codeTtlS === undefined ? {} : { codeTtlS: options.codeTtlS }),
  };
}

/** RFC 9728's metadata URL of the resource: the well-known path inserted before the resource's path. */
export function protectedResourceMetadataUrl(settings: OAuthSettings): string {
  const resource = new URL(settings.resource);
  return `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname}`;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** A loopback host name or address (`localhost`, 127.0.0.0/8, `[::1]`). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}
