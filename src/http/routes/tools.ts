/**
 * Tool endpoints: run a tool (charged), and the free catalog reads.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { describeTool, listTools, SEARCH_LIMIT_MAX, searchTools } from "../../core/catalog.ts";
import type { CoreDeps } from "../../core/deps.ts";
import { invokeTool, resolveTool } from "../../core/invoke.ts";
import type { Readiness } from "../../core/readiness.ts";
import { noteCall } from "../../request-log.ts";
import { keyGuard, keyOf } from "../guard.ts";
import { readLimit } from "../query.ts";

interface SlugParams {
  slug: string;
}

export function registerToolRoutes(app: FastifyInstance, deps: CoreDeps, readiness: Readiness): void {
  // An unknown slug is a 404 that takes no slot, so it is checked between auth and the slot.
  const guardWithSlug = keyGuard(deps, readiness, (request: FastifyRequest) => {
    resolveTool(deps, (request.params as SlugParams).slug);
  });
  const guard = keyGuard(deps, readiness);

  app.post<{ Params: SlugParams }>("/v1/tool/:slug", { onRequest: guardWithSlug }, async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    noteCall(request, { tool: request.params.slug });
    const envelope = await invokeTool(deps, {
      key: keyOf(request),
      slug: request.params.slug,
      body: { raw },
      requestId: request.id,
    });
    noteCall(request, { credits: envelope.credits_used });
    return envelope;
  });

  app.get<{ Params: SlugParams }>("/v1/tool/:slug", { onRequest: guardWithSlug }, async (request) =>
    describeTool(deps, keyOf(request), request.params.slug),
  );

  app.get("/v1/tools/list", { onRequest: guard }, async (request) => ({
    tools: await listTools(deps, keyOf(request)),
  }));

  app.get<{ Querystring: Record<string, string | undefined> }>(
    "/v1/tools/search",
    { onRequest: guard },
    async (request) => {
      const limit = readLimit(request.query.limit, 10, SEARCH_LIMIT_MAX);
      const query = request.query.q ?? "";
      return { query, tools: await searchTools(deps, keyOf(request), query, limit) };
    },
  );
}
