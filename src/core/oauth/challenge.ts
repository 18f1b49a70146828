/**
 * The 401 of the MCP endpoint when OAuth is on: the same `invalid_api_key` problem as before,
 * whose `WWW-Authenticate` also names the resource's metadata (RFC 9728 section 5.1), which is
 * how an MCP client learns where to sign in. `error="invalid_token"` (RFC 6750 section 3.1)
 * appears only when a bearer credential, a key or a token, was sent and refused.
 */
import { bearerCredential } from "../call/keys.ts";
import { ApiError } from "../kernel/errors.ts";
import { type OAuthSettings, protectedResourceMetadataUrl } from "./settings.ts";

const HINT =
  "Send your API key as Authorization: Bearer <API_KEY>, or sign in with OAuth (the resource_metadata in WWW-Authenticate says where).";

/** True when the header carries a bearer credential of any form. */
export function sentBearer(authorization: string | undefined): boolean {
  return bearerCredential(authorization) !== undefined;
}

export function oauthChallenge(settings: OAuthSettings, refusal: string | null): string {
  const metadata = `resource_metadata="${protectedResourceMetadataUrl(settings)}"`;
  if (refusal === null) return `Bearer realm="toolrun", ${metadata}`;
  const description = refusal.replace(/["\\]/g, "");
  return `Bearer realm="toolrun", error="invalid_token", error_description="${description}", ${metadata}`;
}

/** 401 `invalid_api_key` for the MCP endpoint; `reason` says what was wrong with what was sent. */
export function refusedAtMcp(settings: OAuthSettings, reason: string, sent: boolean): ApiError {
  const detail = `${reason} ${HINT}`;
  return new ApiError("invalid_api_key", detail, {
    headers: { "www-authenticate": oauthChallenge(settings, sent ? detail : null) },
  });
}
