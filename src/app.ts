/**
 * buildApp(deps): the Fastify application with every plugin and route. Reads no environment and
 * never listens, so tests build it in-process and call it with `app.inject`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "./config.ts";
import { consentEndpoints, oauthErrorPage, registerConsentPage } from "./console/consent.ts";
import {
  consoleEndpoints,
  consolePageContext,
  notFoundPageSender,
  registerConsole,
} from "./console/routes.ts";
import { registerSignin, type SigninOptions, signinEndpoints } from "./console/signin.ts";
import { createAdminEntrance } from "./core/admin/entrance.ts";
import type { Billing } from "./core/billing/packs.ts";
import type { CoreDeps } from "./core/call/deps.ts";
import { createFrontDoor } from "./core/call/front-door.ts";
import { createReadiness } from "./core/call/readiness.ts";
import { mcpFrontDoor } from "./core/oauth/mcp-door.ts";
import type { OAuthSettings } from "./core/oauth/settings.ts";
import {
  type AnsweredEarly,
  answerWhatNodeWould,
  clientErrorHandler,
  frameworkErrors,
  registerRequestChecks,
  slowClientOptions,
} from "./http/client-errors.ts";
import { registerClosingGuard } from "./http/closing.ts";
import { type LostAnswerReport, watchForLostAnswer } from "./http/lost-answers.ts";
import { countRequest, type Metrics, metricsRoute, registerMetricsHooks } from "./http/metrics.ts";
import { oauthAdminRoutes } from "./http/oauth/admin-routes.ts";
import { registerOAuth } from "./http/oauth/index.ts";
import { withOAuthSecurity } from "./http/oauth/metadata.ts";
import { protectedResourceRoutes } from "./http/oauth/routes.ts";
import { openApiDocument } from "./http/openapi.ts";
import { registerProblemHandlers } from "./http/problem.ts";
import { parseQuery } from "./http/query.ts";
import { type HttpRoute, registerMethodNotAllowed, registerRoutes } from "./http/register.ts";
import { requestIdFrom } from "./http/request-id.ts";
import {
  callLogObserver,
  logLostAnswer,
  noteCall,
  OneLinePerRequest,
  requestLogOptions,
} from "./http/request-log.ts";
import { adminRoutes } from "./http/routes/admin.ts";
import { adminAccountRoutes } from "./http/routes/admin-accounts.ts";
import { adminCallRoutes } from "./http/routes/admin-calls.ts";
import { billingRoutes } from "./http/routes/billing.ts";
import { captureRoutes, hookEndpoints, registerHook } from "./http/routes/captures.ts";
import { docsRoutes, referenceAssetRoutes } from "./http/routes/docs.ts";
import { healthRoutes } from "./http/routes/health.ts";
import { jobRoutes } from "./http/routes/jobs.ts";
import { readRoutes } from "./http/routes/reads.ts";
import { toolRoutes } from "./http/routes/tools.ts";
import { webhookRoutes } from "./http/routes/webhooks.ts";
import { registerTracing } from "./http/tracing.ts";
import { mcpEndpoint, mcpStreamRefusal, registerMcpEndpoint } from "./mcp/transport.ts";

export interface AppOptions {
  /** Fastify's logger option: false in tests, pino options in production. */
  readonly logger?: FastifyServerOptions["logger"];
  /** `GET /metrics` and the request counters; `token`, where set, guards the page. */
  readonly metrics?: { readonly metrics: Metrics; readonly token: string | null };
  /** How long a request's headers, and the whole request, may take to arrive (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** OAuth for the MCP endpoint (the consent page, the library's endpoints); none: keys only. */
  readonly oauth?: OAuthSettings | null;
  /** Fastify's `trustProxy`: whose `X-Forwarded-For` gives `request.ip` (TOOLRUN_TRUST_PROXY). */
  readonly trustProxy?: boolean | number | readonly string[];
  /** Members' sign-in to the console (OpenID Connect); none: the console as it always was. */
  readonly signin?: SigninOptions | null;
  /** Selling credits with Stripe Checkout; none: the billing routes answer 404 `billing_disabled`. */
  readonly billing?: Billing | null;
}

/**
 * The OpenAPI document of the app buildApp(deps, options) builds, as `GET /openapi.json` serves it:
 * the API only (the console's pages and the reference's files are for browsers).
 */
export function apiDocument(deps: CoreDeps, options: AppOptions = {}): object {
  const routes = httpRoutes(deps, options, () => ({}));
  const document = openApiDocument(
    [...routes, ...hookEndpoints, mcpEndpoint, mcpStreamRefusal],
    deps.registry,
    deps.settings.docsUrl,
  );
  return options.oauth ? withOAuthSecurity(document, options.oauth) : document;
}

/** The routes declared here; MCP and the console declare their own. */
function httpRoutes(deps: CoreDeps, options: AppOptions, document: () => object): HttpRoute[] {
  return [
    ...toolRoutes(deps),
    ...jobRoutes(deps),
    ...readRoutes(deps),
    ...captureRoutes(deps),
    ...billingRoutes(deps, options.billing ?? null),
    ...adminRoutes(deps),
    ...webhookRoutes(deps),
    ...adminAccountRoutes(deps),
    ...adminCallRoutes(deps),
    ...(options.oauth ? [...oauthAdminRoutes(deps), ...protectedResourceRoutes(options.oauth)] : []),
    ...healthRoutes(deps),
    ...docsRoutes(deps.settings.docsUrl, document),
    ...(options.metrics ? [metricsRoute(deps, options.metrics.metrics, options.metrics.token)] : []),
  ];
}

export function buildApp(deps: CoreDeps, options: AppOptions = {}): FastifyInstance {
  const answeredEarly: AnsweredEarly = new WeakSet();
  const app = Fastify({
    logger: requestLogOptions(options.logger ?? false),
    genReqId: (request) =>
      requestIdFrom(request.headers["x-request-id"], [deps.settings.keyPrefix, deps.settings.adminKeyPrefix]),
    requestIdHeader: false,
    bodyLimit: deps.registry.maxBodyBytes,
    // registerClosingGuard answers with a problem document instead.
    return503OnClosing: false,
    logController: new OneLinePerRequest(),
    ...slowClientOptions(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
    clientErrorHandler: clientErrorHandler(deps.settings.docsUrl, answeredEarly),
    frameworkErrors: frameworkErrors(deps.settings.docsUrl),
    routerOptions: { querystringParser: parseQuery },
    trustProxy: trustProxyOption(options.trustProxy ?? false),
  });
  const { docsUrl } = deps.settings;
  const readiness = createReadiness(deps.store, () => deps.now().getTime());
  const door = createFrontDoor(deps, { readiness });

  app.decorateRequest("apiKey", null);
  app.decorateRequest("adminKey", null);
  app.decorateRequest("callLog", null);
  if (deps.telemetry) registerTracing(app, deps.telemetry);
  const metrics = options.metrics?.metrics;
  const lostAnswer: LostAnswerReport = (request, reply) => {
    logLostAnswer(request, reply);
    if (metrics) countRequest(metrics, request, reply, 499);
  };
  app.addHook("onSend", (request, reply, payload, done) => {
    // An idempotent replay already carries the id of the request whose answer it repeats.
    if (!reply.hasHeader("x-request-id")) reply.header("x-request-id", request.id);
    watchForLostAnswer(request, reply, payload, lostAnswer);
    done(null, payload);
  });
  // Bodies are kept raw: the pipeline checks each tool's own size limit before parsing JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  answerWhatNodeWould(app.server, docsUrl);
  registerProblemHandlers(app, docsUrl, deps.observer, notFoundPageSender(docsUrl));
  registerRequestChecks(app, answeredEarly);
  registerClosingGuard(app);
  if (metrics) registerMetricsHooks(app, metrics);
  const oauth = options.oauth ? registerOAuth(app, deps, options.oauth, oauthErrorPage) : null;
  let openApi: object | undefined;
  const document = () => {
    openApi ??= apiDocument(deps, options);
    return openApi;
  };
  app.decorate("openApiDocument", document);
  const routes = httpRoutes(deps, options, document);
  // The API, which /openapi.json documents; the pages and files for browsers are not part of it.
  const api = [...routes, mcpEndpoint];
  const forBrowsers = referenceAssetRoutes();
  const signin = options.signin ?? null;
  const pages = [...consoleEndpoints, ...(oauth ? consentEndpoints : []), ...(signin ? signinEndpoints : [])];
  registerRoutes(app, [...routes, ...forBrowsers], door, createAdminEntrance(deps, door));
  const mcpDoor = options.oauth ? mcpFrontDoor(deps, options.oauth, readiness) : door;
  registerMcpEndpoint(app, deps, mcpDoor, { note: noteCall, observer: callLogObserver });
  const billing = options.billing ?? null;
  const pageContext = consolePageContext(deps, signin !== null, billing?.packs);
  registerConsole(app, deps, pageContext);
  if (signin) registerSignin(app, deps, signin, pageContext, billing);
  if (oauth) registerConsentPage(app, deps, oauth.consent, signin !== null);
  registerMethodNotAllowed(app, [...api, ...forBrowsers, ...pages], docsUrl);
  // After every method Node reads is added above: a capture's address takes them all.
  registerHook(app, deps);
  return app;
}

/** A hop count trusts the nearest `hops` proxies, as proxy-addr numbers its hops from the socket. */
function trustProxyOption(
  trust: boolean | number | readonly string[],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return typeof trust === "boolean" ? trust : [...trust];
}
