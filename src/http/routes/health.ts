/**
 * Liveness and readiness for load balancers and orchestrators. Free and keyless.
 */
import type { FastifyInstance } from "fastify";
import type { CoreDeps } from "../../core/deps.ts";
import { ApiError, problemDocument } from "../../core/errors.ts";
import { noteCall } from "../../request-log.ts";
import { PROBLEM_CONTENT_TYPE } from "../problem.ts";

type Check = "ok" | "unreachable" | "missing" | "read_only" | "unchecked";

export function registerHealthRoutes(app: FastifyInstance, deps: CoreDeps): void {
  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (request, reply) => {
    const checks: Record<string, Check> = {
      database: await probe(() => deps.store.ping()),
      rate_limiter: await probe(() => deps.limiter.ping()),
      schema: "missing",
      // A database that can be read but not written would answer every paid call 503: not ready.
      writes: "unchecked",
    };
    if (checks.database === "ok") {
      checks.schema = (await deps.store.isMigrated().catch(() => false)) ? "ok" : "missing";
      if (checks.schema === "ok")
        checks.writes = (await probe(() => deps.store.probeWrite())) === "ok" ? "ok" : "read_only";
    }
    if (Object.values(checks).every((c) => c === "ok")) return { status: "ok", checks };
    const error =
      checks.database !== "ok" || checks.rate_limiter !== "ok"
        ? new ApiError("backend_unavailable", "A backend the service needs cannot be reached.")
        : checks.schema !== "ok"
          ? new ApiError("api_unconfigured", "The database has no schema yet: run `toolrun migrate`.")
          : new ApiError(
              "backend_unavailable",
              "The database can be read but not written (a read-only file, filesystem or database).",
            );
    noteCall(request, { code: error.code });
    return reply
      .code(503)
      .type(PROBLEM_CONTENT_TYPE)
      .send({ ...problemDocument(error, deps.settings.docsUrl, request.id), checks });
  });
}

async function probe(check: () => Promise<void>): Promise<Check> {
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 2000).unref()),
    ]);
    return "ok";
  } catch {
    return "unreachable";
  }
}
