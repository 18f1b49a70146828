/**
 * The consent step over oidc-provider's interactions: the console's page reads the pending
 * sign-in through `pending`, and ends it through `approve` or `deny`, which record the result on
 * the interaction and hand back the URL the browser resumes at (the library then sends it on to
 * the client). Approving saves the authorization (the library's Grant) for the key's account and
 * binds it to the secret that was typed, so rotating the key ends it.
 */
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { ConsentFlow, PendingConsent } from "../../core/oauth/consent.ts";
import type { OAuthSettings } from "../../core/oauth/settings.ts";
import type { OAuthStore } from "../../ports/oauth-store.ts";
import type { OAuthRuntime } from "./provider.ts";

export function createConsentFlow(
  runtime: () => Promise<OAuthRuntime>,
  store: OAuthStore,
  settings: OAuthSettings,
): ConsentFlow<IncomingMessage, ServerResponse> {
  /** The interaction this browser is in, when it is the one named in the page's path. */
  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string) {
    const { provider } = await runtime();
    try {
      const found = await provider.interactionDetails(req, res);
      return found.uid === uid ? { provider, found } : null;
    } catch (error) {
      // No interaction cookie, or the interaction expired: the page says so.
      if (error instanceof Error && error.name === "SessionNotFound") return null;
      throw error;
    }
  }

  async function describe(
    provider: Provider,
    uid: string,
    params: Record<string, unknown>,
  ): Promise<PendingConsent | null> {
    const clientId = String(params.client_id);
    const client = await provider.Client.find(clientId);
    if (!client) return null;
    const redirect = typeof params.redirect_uri === "string" ? params.redirect_uri : client.redirectUris?.[0];
    const url = redirect === undefined ? null : URL.parse(redirect);
    if (url === null) return null;
    const web = url.protocol === "https:" || url.protocol === "http:";
    return {
      uid,
      clientId,
      clientName: client.clientName ?? clientId,
      redirectTarget: web ? url.host : url.protocol,
      redirectSource: web ? url.origin : url.protocol,
    };
  }

  return {
    secure: new URL(settings.issuer).protocol === "https:",
    async pending(req, res, uid) {
      const current = await interaction(req, res, uid);
      return current === null ? null : describe(current.provider, uid, current.found.params);
    },
    async approve(req, res, uid, key, keySecretHash, tools) {
      const current = await interaction(req, res, uid);
      const pending = current && (await describe(current.provider, uid, current.found.params));
      if (current === null || pending === null) return null;
      const { provider, found } = current;
      const scope = typeof found.params.scope === "string" ? found.params.scope : "";
      const grant = new provider.Grant({ accountId: key.id, clientId: pending.clientId });
      if (scope !== "") grant.addOIDCScope(scope);
      // The one resource; the library already refused any other the client named.
      grant.addResourceScope(settings.resource, scope);
      const grantId = await grant.save();
      await store.bindOAuthAuthorization(grantId, key.id, keySecretHash, pending.clientName, tools);
      return provider.interactionResult(
        req,
        res,
        { login: { accountId: key.id, remember: false }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    },
    async deny(req, res, uid) {
      const current = await interaction(req, res, uid);
      if (current === null) return null;
      return current.provider.interactionResult(
        req,
        res,
        { error: "access_denied", error_description: "The person signing in denied access." },
        { mergeWithLastSubmission: false },
      );
    },
    async csrfKey() {
      const { secrets } = await runtime();
      return createHmac("sha256", secrets.cookieKey).update("toolrun consent form").digest();
    },
  };
}
