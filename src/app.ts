/**
 * buildApp(deps): the Fastify application with every plugin and route. Reads no environment and
 * never listens, so tests build it in-process and call it with `app.inject`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { registerConsole } from "./console/routes.ts";
import type { CoreDeps } from "./core/deps.ts";
import { createReadiness } from "./core/readiness.ts";
import {
  type AnsweredEarly,
  clientErrorHandler,
  DEFAULT_REQUEST_TIMEOUT_MS,
  frameworkErrors,
  registerRequestChecks,
  slowClientOptions,
} from "./http/client-errors.ts";
import { registerClosingGuard } from "./http/closing.ts";
import { type Metrics, registerMetrics } from "./http/metrics.ts";
import { registerMethodNotAllowed, registerProblemHandlers } from "./http/problem.ts";
import { requestIdFrom } from "./http/request-id.ts";
import { registerDocsRoutes } from "./http/routes/docs.ts";
import { registerHealthRoutes } from "./http/routes/health.ts";
import { registerAccountRoutes } from "./http/routes/me.ts";
import { registerToolRoutes } from "./http/routes/tools.ts";
import { MCP_PATH } from "./mcp/protocol.ts";
import { registerMcpEndpoint } from "./mcp/route.ts";
import { OneLinePerRequest, requestLogOptions } from "./request-log.ts";

export interface AppOptions {
  /** Fastify's logger option: false in tests, pino options in production. */
  readonly logger?: FastifyServerOptions["logger"];
  /** `GET /metrics` and the request counters; `token`, where set, guards the page. */
  readonly metrics?: { readonly metrics: Metrics; readonly token: string | null };
  /** How long a request's headers, and the whole request, may take to arrive (default 30 s). */
  readonly requestTimeoutMs?: number;
}

export function buildApp(deps: CoreDeps, options: AppOptions = {}): FastifyInstance {
  const answeredEarly: AnsweredEarly = new WeakSet();
  const app = Fastify({
    logger: requestLogOptions(options.logger ?? false),
    genReqId: (request) => requestIdFrom(request.headers["x-request-id"]),
    requestIdHeader: false,
    bodyLimit: deps.registry.maxBodyBytes,
    // registerClosingGuard answers with a problem document instead.
    return503OnClosing: false,
    logController: new OneLinePerRequest(),
    ...slowClientOptions(options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
    clientErrorHandler: clientErrorHandler(deps.settings.docsUrl, answeredEarly),
    frameworkErrors: frameworkErrors(deps.settings.docsUrl),
  });
  const { docsUrl } = deps.settings;
  const readiness = createReadiness(deps.store, () => deps.now().getTime());

  app.decorateRequest("apiKey", null);
  app.decorateRequest("callLog", null);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  // Bodies are kept raw: the pipeline checks each tool's own size limit before parsing JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  registerProblemHandlers(app, docsUrl);
  registerRequestChecks(app, answeredEarly);
  registerClosingGuard(app);
  if (options.metrics) registerMetrics(app, deps, options.metrics.metrics, options.metrics.token);
  registerToolRoutes(app, deps, readiness);
  registerAccountRoutes(app, deps, readiness);
  registerHealthRoutes(app, deps);
  registerDocsRoutes(app, docsUrl);
  registerMcpEndpoint(app, deps, readiness);
  registerConsole(app, deps);

  const allowed: Record<string, string[]> = {
    "/v1/tool/:slug": ["GET", "POST"],
    "/v1/tools/list": ["GET"],
    "/v1/tools/search": ["GET"],
    "/v1/me/credits": ["GET"],
    "/v1/me/usage": ["GET"],
    "/healthz": ["GET"],
    "/readyz": ["GET"],
    "/docs": ["GET"],
    "/docs/errors": ["GET"],
    "/docs/errors/:code": ["GET"],
    "/": ["GET"],
    "/tools/:slug": ["GET"],
    "/account": ["GET"],
    "/console/:file": ["GET"],
    [MCP_PATH]: ["POST"],
  };
  for (const [url, methods] of Object.entries(allowed)) registerMethodNotAllowed(app, url, methods, docsUrl);
  return app;
}
