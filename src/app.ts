/**
 * buildApp(deps): the Fastify application with every plugin and route. Reads no environment and
 * never listens, so tests build it in-process and call it with `app.inject`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import { consoleEndpoints, registerConsole } from "./console/routes.ts";
import type { CoreDeps } from "./core/deps.ts";
import { createFrontDoor } from "./core/front-door.ts";
import { openApiDocument } from "./http/openapi.ts";
import { registerProblemHandlers } from "./http/problem.ts";
import { type HttpRoute, registerMethodNotAllowed, registerRoutes } from "./http/register.ts";
import { requestIdFrom } from "./http/request-id.ts";
import { docsRoutes } from "./http/routes/docs.ts";
import { healthRoutes } from "./http/routes/health.ts";
import { readRoutes } from "./http/routes/reads.ts";
import { toolRoutes } from "./http/routes/tools.ts";
import { mcpEndpoint, registerMcpEndpoint } from "./mcp/transport.ts";

export interface AppOptions {
  /** Fastify's logger option: false in tests, pino options in production. */
  readonly logger?: FastifyServerOptions["logger"];
}

/** One log line per request, written when it ends with the request's fields, instead of two. */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(...[error, request, reply]: Parameters<LogController["requestCompleted"]>): void {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        "request errored",
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
    }
  }
}

export function buildApp(deps: CoreDeps, options: AppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: (request) => requestIdFrom(request.headers["x-request-id"]),
    requestIdHeader: false,
    bodyLimit: deps.registry.maxBodyBytes,
    return503OnClosing: true,
    logController: new OneLinePerRequest(),
  });
  const { docsUrl } = deps.settings;
  const door = createFrontDoor(deps);

  app.decorateRequest("apiKey", null);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  // Bodies are kept raw: the pipeline checks each tool's own size limit before parsing JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  registerProblemHandlers(app, docsUrl);
  let openApi: object | undefined;
  const routes: HttpRoute[] = [
    ...toolRoutes(deps),
    ...readRoutes(deps),
    ...healthRoutes(deps),
    ...docsRoutes(docsUrl, () => {
      openApi ??= openApiDocument(endpoints, deps.registry, docsUrl);
      return openApi;
    }),
  ];
  const endpoints = [...routes, mcpEndpoint, ...consoleEndpoints];
  registerRoutes(app, routes, door);
  registerMcpEndpoint(app, deps, door);
  registerConsole(app, deps);
  registerMethodNotAllowed(app, endpoints, docsUrl);
  return app;
}
