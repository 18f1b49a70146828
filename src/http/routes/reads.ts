/**
 * The free reads' GET routes, one per row of the core table: the query and path parameters are
 * validated by the read's own compiled schema, the one its MCP tool uses.
 */

import type { CoreDeps } from "../../core/call/deps.ts";
import { freeReads } from "../../core/contract/reads.ts";
import { JSON_TYPE } from "../../core/kernel/endpoint.ts";
import type { ErrorCode } from "../../core/kernel/errors.ts";
import { queryArgs } from "../query.ts";
import { type HttpRoute, keyOf } from "../register.ts";

export function readRoutes(deps: CoreDeps): HttpRoute[] {
  return freeReads.map((read) => {
    const { beforeSlot } = read;
    const errors: ErrorCode[] = ["validation_error"];
    if (beforeSlot) errors.push("tool_not_found");
    return {
      method: "GET",
      path: read.path,
      operationId: read.id,
      summary: read.title,
      description: `${read.description} Free: costs no credits (it does take a rate-limit slot).${
        read.mcpName === undefined ? "" : ` Over MCP: the tool \`${read.mcpName}\`.`
      }`,
      tag: read.path.startsWith("/v1/me") ? "Account" : "Catalog",
      keyed: true,
      parameters: read.parameters,
      answers: [{ status: 200, description: read.title, contentType: JSON_TYPE, schema: read.response }],
      errors,
      ...(beforeSlot && {
        beforeSlot: (request, key) => beforeSlot(deps, key, request.params as Record<string, unknown>),
      }),
      handler: async (request) =>
        read.call(deps, keyOf(request), {
          ...queryArgs(read.parameters, request.query),
          ...(request.params as Record<string, unknown>),
        }),
    } satisfies HttpRoute;
  });
}
