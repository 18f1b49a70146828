/**
 * OAuth for the MCP endpoint, registered on the app when it is on: the library's endpoints and
 * the resource metadata (routes.ts) and the consent flow the console's page drives (consent.ts);
 * what can no longer be used is purged by the server's housekeeping (src/housekeeping.ts). The
 * library is built on first use, once the store (migrated) can hand out the secrets every
 * instance shares.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import type { KoaContextWithOIDC } from "oidc-provider";
import type { CoreDeps } from "../../core/call/deps.ts";
import { problemFor } from "../../core/contract/error-mapper.ts";
import type { ConsentFlow } from "../../core/oauth/consent.ts";
import { takeRegistrationSlot } from "../../core/oauth/registration-limit.ts";
import type { OAuthSettings } from "../../core/oauth/settings.ts";
import { noteCall } from "../request-log.ts";
import { showAuthorizationErrors } from "./authorization-errors.ts";
import { createConsentFlow } from "./consent.ts";
import { answerOutages } from "./outage.ts";
import {
  createProvider,
  type ErrorPage,
  loadServerSecrets,
  type OAuthRuntime,
  showErrorPage,
} from "./provider.ts";
import { mountProvider } from "./routes.ts";

export interface OAuthParts {
  readonly consent: ConsentFlow<IncomingMessage, ServerResponse>;
}

export function registerOAuth(
  app: FastifyInstance,
  deps: CoreDeps,
  settings: OAuthSettings,
  errorPage: ErrorPage,
): OAuthParts {
  let made: Promise<OAuthRuntime> | undefined;
  const build = async (): Promise<OAuthRuntime> => {
    const secrets = await loadServerSecrets(deps.store, deps.now);
    const provider = createProvider({ store: deps.store, settings, secrets, now: deps.now, errorPage });
    // Before the handler is made: it is composed of the middleware there is by then.
    const page = (ctx: KoaContextWithOIDC, error: string, description: string) =>
      showErrorPage(ctx, errorPage, error, description);
    const outages = answerOutages(provider, page);
    showAuthorizationErrors(provider, page);
    return { provider, secrets, callback: provider.callback(), outages };
  };
  const runtime = (): Promise<OAuthRuntime> => {
    if (made === undefined) {
      const attempt = build();
      made = attempt;
      // A store that could not answer yet (not migrated, unreachable) is asked again next time.
      attempt.catch(() => {
        if (made === attempt) made = undefined;
      });
    }
    return made;
  };
  mountProvider(
    app,
    runtime,
    settings,
    (request, error) => {
      // As every other backend failure is reported: logged with its cause, counted.
      problemFor(error, {
        docsUrl: deps.settings.docsUrl,
        requestId: request.id,
        log: request.log,
        ...(deps.observer && { observer: deps.observer }),
      });
      noteCall(request, { code: "backend_unavailable" });
    },
    (address) => takeRegistrationSlot(deps.limiter, address, settings.registrationsPerHour, deps.now()),
  );

  return { consent: createConsentFlow(runtime, deps.store, settings) };
}
