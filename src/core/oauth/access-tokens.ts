/**
 * An OAuth access token as the MCP endpoint sees it: looked up by its SHA-256 together with the
 * authorization and the key it acts for, then checked here for expiry and audience. A token that
 * passes acts as its key's account exactly (the key record returned is the key as it is now:
 * plan, grants, expiry), so credits, rate-limit slots, usage and idempotency scope are the key's.
 */
import type { OAuthStore } from "../../ports/oauth-store.ts";
import type { ApiKeyRecord } from "../../ports/store.ts";
import { hasExpired } from "../call/keys.ts";
import type { ApiError } from "../kernel/errors.ts";
import { hashKey } from "../kernel/key-format.ts";
import { refusedAtMcp } from "./challenge.ts";
import type { OAuthSettings } from "./settings.ts";

/** The parts of a stored access token this check reads. */
interface AccessTokenPayload {
  readonly aud?: string | readonly string[];
}

function audiences(payload: AccessTokenPayload): readonly string[] {
  if (typeof payload.aud === "string") return [payload.aud];
  return Array.isArray(payload.aud) ? payload.aud : [];
}

/**
 * The key an access token acts for, or throws 401 (with the OAuth challenge) naming why not:
 * unknown or revoked token, its authorization revoked or its key rotated or revoked, expired,
 * or issued for another resource.
 */
export async function authenticateAccessToken(
  store: Pick<OAuthStore, "findOAuthAccessToken">,
  settings: OAuthSettings,
  token: string,
  now: Date,
): Promise<ApiKeyRecord> {
  const refuse = (reason: string): ApiError => refusedAtMcp(settings, reason, true);
  const holder = await store.findOAuthAccessToken(hashKey(token));
  if (holder === null)
    throw refuse(
      "The access token is not valid: it is unknown or revoked, or the API key it acts for was rotated or revoked.",
    );
  if (Date.parse(holder.expiresAt) <= now.getTime())
    throw refuse(`The access token expired at ${holder.expiresAt}; refresh it or sign in again.`);
  if (Date.parse(holder.authorizationExpiresAt) <= now.getTime())
    throw refuse("The authorization behind this access token has expired; sign in again.");
  if (!audiences(JSON.parse(holder.payload) as AccessTokenPayload).includes(settings.resource))
    throw refuse(`The access token was issued for another resource, not ${settings.resource}.`);
  if (hasExpired(holder.key, now))
    throw refuse(`The API key this access token acts for expired at ${holder.key.expiresAt}.`);
  return holder.key;
}
