/**
 * The paid tools as MCP tool definitions: every tool of the registry whose API switch is on, under
 * its slug, with the input schema that validates HTTP requests and the envelope as output schema.
 */
import type { Tool } from "@modelcontextprotocol/server";
import { envelopeSchema } from "../core/contract-schemas.ts";
import { callCost, planOf } from "../core/credits.ts";
import type { CoreDeps } from "../core/deps.ts";
import type { RegisteredTool } from "../core/registry.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { TOOL_ANNOTATIONS } from "./annotations.ts";

export async function listApiTools(deps: CoreDeps, key: ApiKeyRecord): Promise<Tool[]> {
  const plan = planOf(key, deps.settings);
  const rows = await Promise.all(
    deps.registry.all().map(async (tool) => ({ tool, switches: await deps.switches.of(tool) })),
  );
  // A tool without API surface is not offered; a disabled one is, and answers tool_disabled.
  return rows
    .filter((row) => row.switches.api)
    .map((row) => apiToolDefinition(row.tool, callCost(row.tool.weight, plan, deps.settings)));
}

function apiToolDefinition(tool: RegisteredTool, credits: number): Tool {
  const { definition } = tool;
  return {
    name: tool.slug,
    title: definition.name,
    description: `${definition.description}\n\nCosts ${credits} credit${credits === 1 ? "" : "s"} per call for this key; a call that fails is refunded.`,
    inputSchema: definition.inputSchema as Tool["inputSchema"],
    outputSchema: envelopeSchema(tool.slug, definition.outputSchema) as Tool["outputSchema"],
    annotations: { title: definition.name, ...TOOL_ANNOTATIONS },
  };
}
