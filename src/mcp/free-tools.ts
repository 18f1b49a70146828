/**
 * The free MCP tools: the catalog and account reads of the HTTP API (`GET /v1/tools/search`,
 * `GET /v1/tool/{slug}`, `GET /v1/me/credits`, `GET /v1/me/usage`) under tool names an agent can
 * call. They validate their arguments like a paid tool and call the same core functions.
 */
import type { Tool } from "@modelcontextprotocol/server";
import { getCredits, getUsage, USAGE_LIMIT_DEFAULT, USAGE_LIMIT_MAX } from "../core/account.ts";
import { describeTool, SEARCH_LIMIT_MAX, searchTools } from "../core/catalog.ts";
import type { CoreDeps } from "../core/deps.ts";
import { ApiError } from "../core/errors.ts";
import { toPortableJsonSchema } from "../core/portable-schema.ts";
import { compileInputValidator, type InputValidator } from "../core/validation.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import type { JsonSchema } from "../tools/tool.ts";
import { toolAnnotations } from "./annotations.ts";
import {
  contractOutputSchema,
  creditsOutputSchema,
  SCHEMA_DIALECT,
  searchOutputSchema,
  usageOutputSchema,
} from "./tool-schemas.ts";

const SEARCH_LIMIT_DEFAULT = 10;

export interface FreeTool {
  readonly definition: Tool;
  run(deps: CoreDeps, key: ApiKeyRecord, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

function freeTool(
  name: string,
  title: string,
  description: string,
  inputSchema: JsonSchema,
  outputSchema: JsonSchema,
  run: (deps: CoreDeps, key: ApiKeyRecord, args: Record<string, unknown>) => Promise<object>,
): FreeTool {
  const validate: InputValidator = compileInputValidator(inputSchema);
  return {
    definition: {
      name,
      title,
      description: `${description} Free: costs no credits (it does take a rate-limit slot).`,
      inputSchema: toPortableJsonSchema(inputSchema) as Tool["inputSchema"],
      outputSchema: toPortableJsonSchema(outputSchema) as Tool["outputSchema"],
      annotations: toolAnnotations(title, false),
    },
    async run(deps, key, args) {
      const checked = validate(args);
      if (!checked.ok) {
        throw new ApiError("validation_error", `The arguments of ${name} do not match its input schema.`, {
          extras: { fields: checked.fields },
        });
      }
      return { ...(await run(deps, key, checked.value)) };
    },
  };
}

const inputObject = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  $schema: SCHEMA_DIALECT,
  type: "object",
  additionalProperties: false,
  required,
  properties,
});

const tools: readonly FreeTool[] = [
  freeTool(
    "search_tools",
    "Search tools",
    "Finds tools by words in their slug, name, description and keywords, best match first, with the exact credit cost of one call for this key.",
    inputObject(
      {
        q: { type: "string", minLength: 1, maxLength: 500, description: "Search words." },
        limit: {
          type: "integer",
          minimum: 1,
          maximum: SEARCH_LIMIT_MAX,
          default: SEARCH_LIMIT_DEFAULT,
          description: "Most tools to return.",
        },
      },
      ["q"],
    ),
    searchOutputSchema,
    async (deps, key, args) => {
      const query = args.q as string;
      const limit = (args.limit as number | undefined) ?? SEARCH_LIMIT_DEFAULT;
      return { query, tools: await searchTools(deps, key, query, limit) };
    },
  ),
  freeTool(
    "describe_tool",
    "Describe a tool",
    "The contract of one tool: its input and output JSON Schemas, examples, size limit and the credit cost of one call for this key.",
    inputObject({ slug: { type: "string", minLength: 1, description: "The tool's slug." } }, ["slug"]),
    contractOutputSchema,
    async (deps, key, args) => describeTool(deps, key, args.slug as string),
  ),
  freeTool(
    "get_credits",
    "Credits left",
    "This key's plan, monthly allowance, credits used and left in the current month (UTC), and whether metering is on.",
    inputObject({}),
    creditsOutputSchema,
    async (deps, key) => getCredits(deps, key),
  ),
  freeTool(
    "get_usage",
    "Usage this month",
    "What this key spent its credits on this month: totals, totals per tool and the most recent calls, newest first, one page at a time.",
    inputObject({
      limit: {
        type: "integer",
        minimum: 1,
        maximum: USAGE_LIMIT_MAX,
        default: USAGE_LIMIT_DEFAULT,
        description: "Most recent calls per page.",
      },
      cursor: { type: "string", description: "next_cursor of the previous page." },
    }),
    usageOutputSchema,
    async (deps, key, args) => {
      const cursor = args.cursor as string | undefined;
      return getUsage(deps, key, {
        limit: (args.limit as number | undefined) ?? USAGE_LIMIT_DEFAULT,
        cursor: cursor === undefined || cursor === "" ? null : cursor,
      });
    },
  ),
];

export const freeTools: ReadonlyMap<string, FreeTool> = new Map(tools.map((t) => [t.definition.name, t]));
