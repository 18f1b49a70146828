/**
 * Liveness and readiness for load balancers and orchestrators. Free and keyless.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CoreDeps } from "../../core/call/deps.ts";
import { JSON_TYPE } from "../../core/kernel/endpoint.ts";
import { ApiError, problemDocument } from "../../core/kernel/errors.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { PROBLEM_CONTENT_TYPE } from "../problem.ts";
import type { HttpRoute } from "../register.ts";
import { noteCall } from "../request-log.ts";

const CHECK_STATES = ["ok", "unreachable", "missing", "read_only", "full", "locked", "unchecked"] as const;
type Check = (typeof CHECK_STATES)[number];

const checkState: JsonSchema = { type: "string", enum: [...CHECK_STATES] };

const readySchema: JsonSchema = {
  type: "object",
  required: ["status", "checks"],
  properties: {
    status: { type: "string", const: "ok" },
    checks: {
      type: "object",
      required: ["database", "rate_limiter", "schema", "writes"],
      properties: { database: checkState, rate_limiter: checkState, schema: checkState, writes: checkState },
    },
  },
};

export function healthRoutes(deps: CoreDeps): HttpRoute[] {
  const health = { tag: "Health", keyed: false } as const;
  return [
    {
      ...health,
      method: "GET",
      path: "/healthz",
      operationId: "healthz",
      summary: "Liveness",
      description: "The process is up. Free, keyless, takes no slot.",
      answers: [
        {
          status: 200,
          description: "Alive.",
          contentType: JSON_TYPE,
          schema: { type: "object", required: ["status"], properties: { status: { const: "ok" } } },
        },
      ],
      errors: [],
      handler: async () => ({ status: "ok" }),
    },
    {
      ...health,
      method: "GET",
      path: "/readyz",
      operationId: "readyz",
      summary: "Readiness",
      description:
        "Whether the database (read and written), its schema and the rate-limit store are usable; 503 names the failing check in `checks`. `writes` is `locked` while another process holds the database's write lock: still ready, since writes wait for it. Free, keyless, takes no slot.",
      answers: [{ status: 200, description: "Ready.", contentType: JSON_TYPE, schema: readySchema }],
      errors: ["api_unconfigured", "backend_unavailable"],
      handler: (request, reply) => ready(deps, request, reply),
    },
  ];
}

async function ready(deps: CoreDeps, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const checks: Record<string, Check> = {
    database: await probe(() => deps.store.ping()),
    rate_limiter: await probe(() => deps.limiter.ping()),
    schema: "missing",
    // A database that can be read but not written would answer every paid call 503: not ready.
    writes: "unchecked",
  };
  if (checks.database === "ok") {
    checks.schema = (await deps.store.isMigrated().catch(() => false)) ? "ok" : "missing";
    if (checks.schema === "ok") checks.writes = await probe(() => deps.store.probeWrite());
  }
  const { writes, ...rest } = checks;
  if (Object.values(rest).every((c) => c === "ok") && (writes === "ok" || writes === "locked"))
    return { status: "ok", checks };
  const error =
    checks.database !== "ok" || checks.rate_limiter !== "ok" || writes === "unreachable"
      ? new ApiError("backend_unavailable", "A backend the service needs cannot be reached.")
      : checks.schema !== "ok"
        ? new ApiError("api_unconfigured", "The database has no schema yet: run `toolrun migrate`.")
        : writes === "full"
          ? new ApiError(
              "backend_unavailable",
              "The database's disk is full: writes fail until there is room.",
            )
          : new ApiError(
              "backend_unavailable",
              "The database can be read but not written (a read-only file, filesystem or database).",
            );
  noteCall(request, { code: error.code });
  return reply
    .code(503)
    .type(PROBLEM_CONTENT_TYPE)
    .send({ ...problemDocument(error, deps.settings.docsUrl, request.id), checks });
}

/** The state `check` answers within 2 s (`ok` when it answers none), else `unreachable`. */
async function probe(check: () => Promise<unknown>): Promise<Check> {
  try {
    const state = await Promise.race([
      check(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), 2000).unref()),
    ]);
    return (CHECK_STATES as readonly unknown[]).includes(state) ? (state as Check) : "ok";
  } catch {
    return "unreachable";
  }
}
