/**
 * An authorization request the library refuses before the person has done anything (no PKCE,
 * `prompt=none`, `response_type=token`, an unknown scope, ...) is shown as the error page, never
 * sent on to the client's redirect URI. The library redirects such errors to any redirect URI the
 * client registered, and anyone can register a client (RFC 7591, client ID metadata documents)
 * with a redirect URI of their choosing: an immediate redirect from this server's address to
 * theirs, with no page shown, would be an open redirector (RFC 9700 section 4.11.2). No client
 * here is vouched for by the operator, so none is redirected to before its sign-in was answered;
 * once the person approved or denied, the answer goes back to the client as OAuth says.
 *
 * The library announces each such error (`authorization.error`) and then answers it by redirect,
 * or by an auto-submitting form for `response_mode=form_post`; a middleware around its routes
 * (`provider.use`) replaces that answer with the page before anything is written.
 */
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";

/** The library's route that reads a new authorization request; its `resume` comes after the person acted. */
const BEFORE_THE_PERSON_ACTED = "authorization";

interface RefusedRequest {
  readonly error: string;
  readonly description: string;
  readonly status: number;
}

export function showAuthorizationErrors(
  provider: Provider,
  page: (ctx: KoaContextWithOIDC, error: string, description: string) => void,
): void {
  const refused = new WeakMap<object, RefusedRequest>();
  provider.on("authorization.error", (ctx, error) => {
    if (ctx.oidc?.route !== BEFORE_THE_PERSON_ACTED) return;
    const oauth = error as Error & { error?: string; error_description?: string; statusCode?: number };
    refused.set(ctx.req, {
      error: oauth.error ?? "invalid_request",
      description: oauth.error_description ?? "",
      // prompt=none's errors carry the redirect's 303.
      status: oauth.statusCode !== undefined && oauth.statusCode >= 400 ? oauth.statusCode : 400,
    });
  });
  provider.use(async (ctx, next) => {
    await next();
    const error = refused.get(ctx.req);
    if (error === undefined) return;
    ctx.remove("location");
    page(ctx as KoaContextWithOIDC, error.error, error.description);
    ctx.status = error.status;
  });
}
