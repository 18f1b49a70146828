/**
 * The 401 of the MCP endpoint when OAuth is on: the same `invalid_api_key` problem as elsewhere,
 * whose `WWW-Authenticate` also names the resource's metadata (RFC 9728 section 5.1), which is
 * how an MCP client learns where to sign in. `error="invalid_token"` (RFC 6750 section 3.1)
 * appears only when a bearer credential, a key or a token, was sent and refused.
 */
import { type OAuthSettings, protectedResourceMetadataUrl } from "./settings.ts";

/** How to send a good credential, closing the detail of an access token's refusal. */
export const OAUTH_HINT =
  "Send your API key as Authorization: Bearer <API_KEY>, or sign in with OAuth (the resource_metadata in WWW-Authenticate says where).";

export function oauthChallenge(settings: OAuthSettings, refusal: string | null): string {
  const metadata = `resource_metadata="${protectedResourceMetadataUrl(settings)}"`;
  if (refusal === null) return `Bearer realm="toolrun", ${metadata}`;
  const description = refusal.replace(/["\\]/g, "");
  return `Bearer realm="toolrun", error="invalid_token", error_description="${description}", ${metadata}`;
}
