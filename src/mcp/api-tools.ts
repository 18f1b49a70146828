/**
 * The paid tools as MCP tool definitions: every tool of the registry whose API switch is on, under
 * its slug, with the input schema that validates HTTP requests and the envelope as output schema,
 * both in the portable rendering MCP clients accept.
 */
import type { Tool } from "@modelcontextprotocol/server";
import { envelopeSchema } from "../core/contract-schemas.ts";
import { callCost, planOf } from "../core/credits.ts";
import type { CoreDeps } from "../core/deps.ts";
import { toPortableJsonSchema } from "../core/portable-schema.ts";
import type { RegisteredTool } from "../core/registry.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { toolAnnotations } from "./annotations.ts";

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

/** The schemas of a tool never change while it is registered: rendered once per tool. */
const rendered = new WeakMap<RegisteredTool, Pick<Tool, "inputSchema" | "outputSchema">>();

function schemasOf(tool: RegisteredTool): Pick<Tool, "inputSchema" | "outputSchema"> {
  let schemas = rendered.get(tool);
  if (schemas === undefined) {
    const { inputSchema, outputSchema } = tool.definition;
    schemas = {
      inputSchema: toPortableJsonSchema(inputSchema) as Tool["inputSchema"],
      outputSchema: toPortableJsonSchema(envelopeSchema(tool.slug, outputSchema)) as Tool["outputSchema"],
    };
    rendered.set(tool, schemas);
  }
  return schemas;
}

function apiToolDefinition(tool: RegisteredTool, credits: number): Tool {
  const { definition } = tool;
  return {
    name: tool.slug,
    title: definition.name,
    description: `${definition.description}\n\nCosts ${credits} credit${credits === 1 ? "" : "s"} per call for this key; a call that fails is refunded.`,
    ...schemasOf(tool),
    annotations: toolAnnotations(definition.name, credits > 0),
  };
}
