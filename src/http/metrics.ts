/**
 * `GET /metrics` in the Prometheus text format (prom-client), and the counters behind it: tool-call
 * outcomes and credits (heard from the core through its Observer), HTTP requests by route pattern
 * (never the raw URL, so a scanner cannot grow the series without bound), rate-limit refusals,
 * backend errors, and prom-client's process defaults.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { CoreDeps } from "../core/call/deps.ts";
import type { Observer, ToolCallEvent } from "../core/call/observer.ts";
import { ApiError } from "../core/kernel/errors.ts";
import { sendProblem } from "./problem.ts";
import type { HttpRoute } from "./register.ts";

export const METRICS_PATH = "/metrics";

/** Requests that matched no route share one label value. */
const UNMATCHED_ROUTE = "(unmatched)";

export interface Metrics extends Observer {
  readonly registry: Registry;
  rateLimited(): void;
  httpRequest(route: string, method: string, status: number, seconds: number): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const toolCalls = new Counter({
    name: "toolrun_tool_calls_total",
    help: "Metered tool calls by how they ended: charged, refunded (the tool failed) or refused (no credits, or the plan's monthly cap).",
    labelNames: ["tool", "outcome"] as const,
    registers: [registry],
  });
  const creditsCharged = new Counter({
    name: "toolrun_credits_charged_total",
    help: "Credits charged by tool calls (refunded and refused calls charge none).",
    labelNames: ["tool"] as const,
    registers: [registry],
  });
  const upstreamFailures = new Counter({
    name: "toolrun_upstream_failures_total",
    help: "HTTP-tool calls that failed on their upstream's answer (a redirect, 401, 403, 407, a 5xx), by tool and upstream status. 401, 403 and 407 mean the upstream refused the credentials the tool is configured with.",
    labelNames: ["tool", "status"] as const,
    registers: [registry],
  });
  const httpRequests = new Counter({
    name: "toolrun_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "toolrun_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by route pattern and method.",
    labelNames: ["route", "method"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "toolrun_rate_limited_total",
    help: "Requests refused with 429 rate_limited.",
    registers: [registry],
  });
  const backendErrors = new Counter({
    name: "toolrun_backend_errors_total",
    help: "Requests that found a backend (database, rate-limiter) unreachable.",
    labelNames: ["backend"] as const,
    registers: [registry],
  });
  // Zero series from the start, so a rate() over them works before the first event.
  rateLimited.inc(0);
  for (const backend of ["database", "rate-limiter"]) backendErrors.inc({ backend }, 0);

  return {
    registry,
    toolCall(event: ToolCallEvent) {
      toolCalls.inc({ tool: event.tool, outcome: event.outcome });
      creditsCharged.inc({ tool: event.tool }, event.credits);
      if (event.upstreamStatus !== undefined)
        upstreamFailures.inc({ tool: event.tool, status: String(event.upstreamStatus) });
    },
    backendError(backend) {
      backendErrors.inc({ backend });
    },
    rateLimited() {
      rateLimited.inc();
    },
    httpRequest(route, method, status, seconds) {
      httpRequests.inc({ route, method, status: String(status) });
      httpDuration.observe({ route, method }, seconds);
    },
  };
}

/** The hooks that count every request (and the rate-limit refusals among them). */
export function registerMetricsHooks(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onError", async (_request, _reply, error) => {
    if (error instanceof ApiError && error.code === "rate_limited") metrics.rateLimited();
  });
  app.addHook("onResponse", async (request, reply) =>
    countRequest(metrics, request, reply, reply.statusCode),
  );
}

/** Counts a request under its route pattern with `status` (499 for an answer its client never took). */
export function countRequest(
  metrics: Metrics,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
): void {
  metrics.httpRequest(
    request.routeOptions.url ?? UNMATCHED_ROUTE,
    request.method,
    status,
    reply.elapsedTime / 1000,
  );
}

/** `GET /metrics`. With a token, only `Authorization: Bearer <token>` may read the metrics. */
export function metricsRoute(deps: CoreDeps, metrics: Metrics, token: string | null): HttpRoute {
  const expected = token === null ? null : digest(`Bearer ${token}`);
  return {
    method: "GET",
    path: METRICS_PATH,
    operationId: "metrics",
    summary: "Prometheus metrics",
    description:
      "Tool-call outcomes and credits, HTTP requests by route pattern, rate-limit refusals, backend errors and process metrics, in the Prometheus text format. Takes no API key and no slot; when the operator sets `TOOLRUN_METRICS_TOKEN` it needs `Authorization: Bearer <TOOLRUN_METRICS_TOKEN>`.",
    tag: "Operations",
    keyed: false,
    answers: [{ status: 200, description: "The metrics.", contentType: "text/plain" }],
    errors: ["invalid_api_key"],
    handler: async (request, reply) => {
      if (expected !== null && !timingSafeEqual(digest(request.headers.authorization ?? ""), expected)) {
        return sendProblem(
          reply,
          request,
          deps.settings.docsUrl,
          new ApiError(
            "invalid_api_key",
            "GET /metrics needs Authorization: Bearer <TOOLRUN_METRICS_TOKEN>.",
            {
              headers: { "www-authenticate": 'Bearer realm="metrics"' },
            },
          ),
        );
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  };
}

/** Fixed-length digests, so the comparison takes the same time whatever was sent. */
function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
