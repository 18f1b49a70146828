/**
 * A server span per HTTP request, its parent the caller's `traceparent` when sent: named by method
 * and route (`POST /v1/tool/:slug`), current while the handler runs, so what the call starts (the
 * ledger's settlement, an HTTP tool's upstream request, an MCP message's span) is its child. When
 * the request ends the span takes what its log line says: the status, the key's id, the tool, the
 * problem code. Registered only when tracing is on.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Telemetry, TraceSpan } from "../ports/telemetry.ts";
import {
  GEN_AI_TOOL_NAME,
  HTTP_REQUEST_METHOD,
  HTTP_RESPONSE_STATUS_CODE,
  HTTP_ROUTE,
  TOOLRUN_KEY_ID,
  TOOLRUN_PROBLEM_CODE,
  TOOLRUN_REQUEST_ID,
  URL_PATH,
  URL_SCHEME,
} from "../ports/trace-attributes.ts";
import { loggedUrl } from "./request-log.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The request's server span, while tracing is on. */
    traceSpan?: TraceSpan;
  }
}

export function registerTracing(app: FastifyInstance, telemetry: Telemetry): void {
  // Fastify runs the handler from the body's events, outside the hook's context: each handler is
  // therefore run inside its request's span itself.
  app.addHook("onRoute", (route) => {
    const handler = route.handler;
    route.handler = function traced(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const span = request.traceSpan;
      return span === undefined
        ? handler.call(this, request, reply)
        : telemetry.within(span, () => handler.call(this, request, reply));
    };
  });
  app.addHook("onRequest", (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = telemetry.start(route === undefined ? request.method : `${request.method} ${route}`, {
      kind: "server",
      parent: request.headers,
      attributes: {
        [HTTP_REQUEST_METHOD]: request.method,
        [URL_PATH]: pathOf(request.url),
        [URL_SCHEME]: request.protocol,
        [TOOLRUN_REQUEST_ID]: request.id,
        ...(route === undefined ? {} : { [HTTP_ROUTE]: route }),
      },
    });
    request.traceSpan = span;
    telemetry.within(span, done);
  });
  app.addHook("onResponse", (request, reply, done) => {
    finish(request, reply.statusCode);
    done();
  });
  app.addHook("onRequestAbort", (request, done) => {
    request.traceSpan?.fail("client_closed_request");
    finish(request, undefined);
    done();
  });
}

/** The path as the log line shows it: no query, a key pasted into it masked. */
function pathOf(url: string): string {
  const logged = loggedUrl(url);
  const question = logged.indexOf("?");
  return question === -1 ? logged : logged.slice(0, question);
}

function finish(request: FastifyRequest, status: number | undefined): void {
  const span = request.traceSpan;
  if (span === undefined) return;
  const log = request.callLog;
  const keyId = log?.keyId ?? request.apiKey?.id;
  span.set({
    ...(status === undefined ? {} : { [HTTP_RESPONSE_STATUS_CODE]: status }),
    ...(keyId === undefined ? {} : { [TOOLRUN_KEY_ID]: keyId }),
    ...(log?.tool === undefined ? {} : { [GEN_AI_TOOL_NAME]: log.tool }),
    ...(log?.code === undefined ? {} : { [TOOLRUN_PROBLEM_CODE]: log.code }),
  });
  if (status !== undefined && status >= 500) span.fail(String(status));
  span.end();
}
