/**
 * The free reads as one table: each read's parameters and response as JSON Schema, the core
 * function it calls, its HTTP path and its MCP tool name. HTTP registers its GET routes from this
 * table and MCP its free tools, both validating arguments with the same compiled schema, so the same
 * bad argument gets the same `fields` on both; the OpenAPI document describes them from it too.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import type { CoreDeps } from "../call/deps.ts";
import { resolveForKey } from "../call/scope.ts";
import { ApiError } from "../kernel/errors.ts";
import { lazyInputValidator } from "../kernel/validation.ts";
import { getCredits, getUsage, USAGE_LIMIT_DEFAULT, USAGE_LIMIT_MAX } from "./account.ts";
import { describeTool, listTools, SEARCH_LIMIT_MAX, searchTools } from "./catalog.ts";
import {
  contractOutputSchema,
  creditsOutputSchema,
  listOutputSchema,
  SCHEMA_DIALECT,
  searchOutputSchema,
  usageOutputSchema,
} from "./schemas.ts";

const SEARCH_LIMIT_DEFAULT = 10;

type Args = Record<string, unknown>;

export interface FreeRead {
  /** The OpenAPI operationId. */
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The GET path in OpenAPI form (`/v1/tool/{slug}`); `{name}` segments are path parameters. */
  readonly path: string;
  /** The MCP tool name, when MCP offers this read. */
  readonly mcpName: string | undefined;
  /** An object schema of every parameter (path and query alike). */
  readonly parameters: JsonSchema;
  readonly response: JsonSchema;
  /** A check that must not cost a rate-limit slot (an unknown slug's 404), run on the raw arguments. */
  readonly beforeSlot?: (deps: CoreDeps, key: ApiKeyRecord, args: Args) => void;
  /** Validates the arguments (400 `validation_error` naming each bad one), then reads. */
  call(deps: CoreDeps, key: ApiKeyRecord, args: Args): Promise<object>;
}

interface ReadSpec extends Omit<FreeRead, "call" | "parameters"> {
  readonly properties: Record<string, JsonSchema>;
  readonly required?: readonly string[];
  run(deps: CoreDeps, key: ApiKeyRecord, args: Args): Promise<object>;
}

function read(spec: ReadSpec): FreeRead {
  const { properties, required = [], run, ...rest } = spec;
  const parameters: JsonSchema = {
    $schema: SCHEMA_DIALECT,
    type: "object",
    additionalProperties: false,
    required: [...required],
    properties,
  };
  const validate = lazyInputValidator(parameters);
  return {
    ...rest,
    parameters,
    async call(deps, key, args) {
      const checked = validate(args);
      if (!checked.ok) {
        throw new ApiError("validation_error", `The parameters of ${spec.title.toLowerCase()} are invalid.`, {
          extras: { fields: checked.fields },
        });
      }
      return run(deps, key, checked.value);
    },
  };
}

const limit = (max: number, fallback: number, description: string): JsonSchema => ({
  type: "integer",
  minimum: 1,
  maximum: max,
  default: fallback,
  description,
});

export const freeReads: readonly FreeRead[] = [
  read({
    id: "listTools",
    title: "List tools",
    description: "Every tool with the exact credit cost of one call for this key.",
    path: "/v1/tools/list",
    mcpName: undefined,
    properties: {},
    response: listOutputSchema,
    run: async (deps, key) => ({ tools: await listTools(deps, key) }),
  }),
  read({
    id: "searchTools",
    title: "Search tools",
    description:
      "Finds tools by words in their slug, name, description and keywords, best match first, with the exact credit cost of one call for this key.",
    path: "/v1/tools/search",
    mcpName: "search_tools",
    properties: {
      q: { type: "string", minLength: 1, maxLength: 500, description: "Search words." },
      limit: limit(SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT, "Most tools to return."),
    },
    required: ["q"],
    response: searchOutputSchema,
    run: async (deps, key, args) => {
      const query = args.q as string;
      const count = (args.limit as number | undefined) ?? SEARCH_LIMIT_DEFAULT;
      return { query, tools: await searchTools(deps, key, query, count) };
    },
  }),
  read({
    id: "describeTool",
    title: "Describe a tool",
    description:
      "The contract of one tool: its input and output JSON Schemas, examples, size limit and the credit cost of one call for this key.",
    path: "/v1/tool/{slug}",
    mcpName: "describe_tool",
    properties: { slug: { type: "string", minLength: 1, description: "The tool's slug." } },
    required: ["slug"],
    response: contractOutputSchema,
    beforeSlot: (deps, key, args) => {
      if (typeof args.slug === "string") resolveForKey(deps.registry, key, args.slug);
    },
    run: async (deps, key, args) => describeTool(deps, key, args.slug as string),
  }),
  read({
    id: "getCredits",
    title: "Credits left",
    description:
      "This key's plan, monthly allowance, credits used and left in the current month (UTC), whether metering is on, and the key's scope (its tools and access).",
    path: "/v1/me/credits",
    mcpName: "get_credits",
    properties: {},
    response: creditsOutputSchema,
    run: async (deps, key) => getCredits(deps, key, key),
  }),
  read({
    id: "getUsage",
    title: "Usage this month",
    description:
      "What this key spent its credits on this month: totals, totals per tool and the most recent calls, newest first, one page at a time.",
    path: "/v1/me/usage",
    mcpName: "get_usage",
    properties: {
      limit: limit(USAGE_LIMIT_MAX, USAGE_LIMIT_DEFAULT, "Most recent calls per page."),
      cursor: { type: "string", description: "next_cursor of the previous page." },
    },
    response: usageOutputSchema,
    run: async (deps, key, args) => {
      const cursor = args.cursor as string | undefined;
      return getUsage(deps, key, {
        limit: (args.limit as number | undefined) ?? USAGE_LIMIT_DEFAULT,
        cursor: cursor === undefined || cursor === "" ? null : cursor,
      });
    },
  }),
];
