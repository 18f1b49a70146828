/**
 * The free MCP tools: the reads of the core table that have an MCP name, under that name, with the
 * table's parameter and response schemas (in the portable rendering MCP clients accept) and the
 * same validation as their HTTP routes.
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { CoreDeps } from "../core/deps.ts";
import { toPortableJsonSchema } from "../core/portable-schema.ts";
import { type FreeRead, freeReads } from "../core/reads.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { toolAnnotations } from "./annotations.ts";

export interface FreeTool {
  readonly definition: Tool;
  run(deps: CoreDeps, key: ApiKeyRecord, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

function freeTool(read: FreeRead & { mcpName: string }): FreeTool {
  return {
    definition: {
      name: read.mcpName,
      title: read.title,
      description: `${read.description} Free: costs no credits (it does take a rate-limit slot).`,
      inputSchema: toPortableJsonSchema(read.parameters) as Tool["inputSchema"],
      outputSchema: toPortableJsonSchema(read.response) as Tool["outputSchema"],
      annotations: toolAnnotations(read.title, false),
    },
    run: async (deps, key, args) => ({ ...(await read.call(deps, key, args)) }),
  };
}

export const freeTools: ReadonlyMap<string, FreeTool> = new Map(
  freeReads
    .filter((read): read is FreeRead & { mcpName: string } => read.mcpName !== undefined)
    .map((read) => [read.mcpName, freeTool(read)]),
);
