/**
 * The free reads of the tool catalog: list, search and one tool's contract, priced for the
 * calling key, of the tools it may use (call/scope.ts).
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import type { JsonSchema, ToolExample } from "../../tools/tool.ts";
import type { CoreDeps } from "../call/deps.ts";
import { resolveForKey, toolsForKey } from "../call/scope.ts";
import { callCost, planOf } from "../kernel/credits.ts";
import { ApiError } from "../kernel/errors.ts";
import type { RegisteredTool } from "../tools/registry.ts";

export interface CatalogEntry {
  slug: string;
  name: string;
  description: string;
  tool_version: string;
  credits: number;
  enabled: boolean;
  api: boolean;
}

export interface ToolContract extends CatalogEntry {
  input_schema: JsonSchema;
  output_schema: JsonSchema;
  examples: readonly ToolExample[];
  limits: { max_body_bytes: number };
}

async function entry(deps: CoreDeps, key: ApiKeyRecord, tool: RegisteredTool): Promise<CatalogEntry> {
  const switches = await deps.switches.of(tool);
  return {
    slug: tool.slug,
    name: tool.definition.name,
    description: tool.definition.description,
    tool_version: tool.definition.version,
    credits: callCost(tool.weight, planOf(key, deps.settings), deps.settings),
    enabled: switches.enabled,
    api: switches.api,
  };
}

export async function listTools(deps: CoreDeps, key: ApiKeyRecord): Promise<CatalogEntry[]> {
  return Promise.all(toolsForKey(deps.registry, key).map((tool) => entry(deps, key, tool)));
}

export const SEARCH_LIMIT_MAX = 50;

export async function searchTools(
  deps: CoreDeps,
  key: ApiKeyRecord,
  query: string | undefined,
  limit: number,
): Promise<CatalogEntry[]> {
  const terms = (query ?? "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
  if (terms.length === 0) {
    throw new ApiError("validation_error", "Give the search words in the q parameter.", {
      extras: { fields: { q: "is required" } },
    });
  }
  const scored = toolsForKey(deps.registry, key)
    .map((tool) => ({ tool, score: relevance(tool, terms) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.slug.localeCompare(b.tool.slug))
    .slice(0, limit);
  return Promise.all(scored.map((s) => entry(deps, key, s.tool)));
}

/** Each term scores by where it appears: slug and name weigh most, then keywords, then description. */
function relevance(tool: RegisteredTool, terms: readonly string[]): number {
  const { definition } = tool;
  const fields: [string[], number][] = [
    [words(tool.slug), 4],
    [words(definition.name), 4],
    [definition.keywords.flatMap(words), 2],
    [words(definition.description), 1],
  ];
  let score = 0;
  for (const term of terms) {
    for (const [fieldWords, weight] of fields) {
      if (fieldWords.includes(term)) score += weight;
      else if (term.length >= 3 && fieldWords.some((w) => w.startsWith(term))) score += weight / 2;
    }
  }
  return score;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

export async function describeTool(deps: CoreDeps, key: ApiKeyRecord, slug: string): Promise<ToolContract> {
  const tool = resolveForKey(deps.registry, key, slug);
  const row = await entry(deps, key, tool);
  return {
    ...row,
    input_schema: tool.definition.inputSchema,
    output_schema: tool.definition.outputSchema,
    examples: tool.definition.examples,
    limits: { max_body_bytes: tool.maxBodyBytes },
  };
}
