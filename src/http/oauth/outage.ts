/**
 * A backend that fails while the library serves a request. oidc-provider answers any error it
 * does not know as 500 `server_error` ("oops! something went wrong") and only tells its debug
 * channel; the rest of the API answers an unreachable database 503 `backend_unavailable` with
 * `Retry-After`, logged and counted. This makes the library's endpoints answer the same way, in
 * their own format: 503 with `Retry-After` and OAuth's `temporarily_unavailable` (RFC 6749
 * section 4.1.2.1), as JSON at the token, registration and revocation endpoints, and as the error
 * page at the authorization endpoint, where a person is waiting who can reload it.
 *
 * The library catches the error in each route's own handler and announces it with its
 * `server_error` event; a middleware around all its routes (`provider.use`) then rewrites the
 * answer the handler made. An error that escapes the routes (saving the library's session after
 * them) is caught there too.
 */
import type { IncomingMessage } from "node:http";
import type Provider from "oidc-provider";
import type { KoaContextWithOIDC } from "oidc-provider";
import { BackendUnavailableError } from "../../ports/errors.ts";
import { OAUTH_ROUTES, type Outages } from "./provider.ts";

const OUTAGE_DESCRIPTION = "The service cannot reach its database right now. Retry shortly.";

/** The backend error behind `error`, which the library may have wrapped. */
function backendFailure(error: unknown): BackendUnavailableError | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++)
    if (at instanceof BackendUnavailableError) return at;
  return undefined;
}

export function answerOutages(
  provider: Provider,
  page: (ctx: KoaContextWithOIDC, error: string, description: string) => void,
): Outages {
  const met = new WeakMap<IncomingMessage, BackendUnavailableError>();
  provider.on("server_error", (ctx, error) => {
    const failure = backendFailure(error);
    if (failure) met.set(ctx.req, failure);
  });
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const failure = backendFailure(error);
      if (failure === undefined) throw error;
      met.set(ctx.req, failure);
    }
    if (!met.has(ctx.req)) return;
    ctx.remove("location");
    ctx.set("cache-control", "no-store");
    if (ctx.path.startsWith(OAUTH_ROUTES.authorization) || ctx.response.is("html")) {
      page(ctx as KoaContextWithOIDC, "temporarily_unavailable", OUTAGE_DESCRIPTION);
    } else {
      ctx.body = { error: "temporarily_unavailable", error_description: OUTAGE_DESCRIPTION };
    }
    ctx.status = 503;
    ctx.set("retry-after", "1");
  });
  return { of: (req) => met.get(req) };
}
