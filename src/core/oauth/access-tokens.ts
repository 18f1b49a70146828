/**
 * An OAuth access token as the MCP endpoint sees it: looked up by its SHA-256 together with the
 * authorization and the key it acts for, then checked here for expiry and audience. A token that
 * passes acts as its key's account exactly (the key record returned is the key as it is now:
 * plan, grants, expiry), so credits, rate-limit slots, usage and idempotency scope are the key's;
 * its tools are the key's narrowed to those the person approved at consent.
 */
import type { OAuthStore } from "../../ports/oauth-store.ts";
import { type CredentialVerifier, refusal, type Verification } from "../call/credentials.ts";
import { hasExpired } from "../call/keys.ts";
import { narrowKey } from "../call/scope.ts";
import { hashKey } from "../kernel/key-format.ts";
import { shownAuthorizationId } from "./authorizations.ts";
import { OAUTH_HINT } from "./challenge.ts";
import type { OAuthSettings } from "./settings.ts";

/** The parts of a stored access token this check reads. */
interface AccessTokenPayload {
  readonly aud?: string | readonly string[];
  readonly clientId?: string;
}

const refuse = (reason: string) => refusal(reason, OAUTH_HINT);

function audiences(payload: AccessTokenPayload): readonly string[] {
  if (typeof payload.aud === "string") return [payload.aud];
  return Array.isArray(payload.aud) ? payload.aud : [];
}

/**
 * Access tokens for this resource: every credential it is asked about is one (the API keys'
 * verifier goes first and takes those of its form). Refused, with the reason, when unknown or
 * revoked, its authorization revoked or its key rotated or revoked, expired, or issued for
 * another resource.
 */
export function accessTokenVerifier(
  store: Pick<OAuthStore, "findOAuthAccessToken">,
  settings: OAuthSettings,
): CredentialVerifier {
  return {
    async verify(token, now): Promise<Verification> {
      const holder = await store.findOAuthAccessToken(hashKey(token));
      if (holder === null)
        return refuse(
          "The access token is not valid: it is unknown or revoked, or the API key it acts for was rotated or revoked.",
        );
      if (Date.parse(holder.expiresAt) <= now.getTime())
        return refuse(`The access token expired at ${holder.expiresAt}; refresh it or sign in again.`);
      if (Date.parse(holder.authorizationExpiresAt) <= now.getTime())
        return refuse("The authorization behind this access token has expired; sign in again.");
      const payload = JSON.parse(holder.payload) as AccessTokenPayload;
      if (!audiences(payload).includes(settings.resource))
        return refuse(`The access token was issued for another resource, not ${settings.resource}.`);
      if (hasExpired(holder.key, now))
        return refuse(`The API key this access token acts for expired at ${holder.key.expiresAt}.`);
      // The calls it makes are recorded as made through this authorization and its client.
      const via = {
        authorizationId: shownAuthorizationId(holder.authorizationId),
        clientId: typeof payload.clientId === "string" ? payload.clientId : null,
      };
      return { ok: true, key: { ...narrowKey(holder.key, holder.authorizationTools), via } };
    },
  };
}
