/**
 * The key's own account: credits left this month and what they were spent on (free reads).
 */
import type { FastifyInstance } from "fastify";
import { getCredits, getUsage, USAGE_LIMIT_DEFAULT, USAGE_LIMIT_MAX } from "../../core/account.ts";
import type { CoreDeps } from "../../core/deps.ts";
import type { Readiness } from "../../core/readiness.ts";
import { keyGuard, keyOf } from "../guard.ts";
import { readLimit } from "../query.ts";

export function registerAccountRoutes(app: FastifyInstance, deps: CoreDeps, readiness: Readiness): void {
  const guard = keyGuard(deps, readiness);
  app.get("/v1/me/credits", { onRequest: guard }, async (request) => getCredits(deps, keyOf(request)));
  app.get<{ Querystring: Record<string, string | undefined> }>(
    "/v1/me/usage",
    { onRequest: guard },
    async (request) =>
      getUsage(deps, keyOf(request), {
        limit: readLimit(request.query.limit, USAGE_LIMIT_DEFAULT, USAGE_LIMIT_MAX),
        cursor:
          request.query.cursor === undefined || request.query.cursor === "" ? null : request.query.cursor,
      }),
  );
}
