/**
 * JSON Schemas (2020-12) of what the service answers: the tool-call envelope, the free reads'
 * bodies and the problem document. The HTTP routes, the MCP tools and the OpenAPI document all use
 * these. They are written to stay draft-07-portable (no boolean schemas, no `prefixItems`, no type
 * arrays: nullable is `anyOf` with `null`), so MCP clients with older validators accept them too.
 * Objects stay open so a new member never breaks a client.
 */
import type { JsonSchema } from "../../tools/tool.ts";
import { errorCatalog } from "../kernel/errors.ts";

export const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: "null" }] };
}

const count: JsonSchema = { type: "integer", minimum: 0 };

/** The tool-call envelope of the HTTP API (interface 2.1) around one tool's `outputs`. */
export function envelopeSchema(slug: string | undefined, outputs: JsonSchema): JsonSchema {
  // One `$schema` at the root; `$defs` move there too so `#/$defs/...` references keep resolving.
  const { $schema: _dialect, $defs, ...inner } = outputs;
  return {
    $schema: SCHEMA_DIALECT,
    type: "object",
    required: ["tool", "tool_version", "outputs", "credits_used", "credits_remaining"],
    properties: {
      tool: slug === undefined ? { type: "string" } : { type: "string", const: slug },
      tool_version: { type: "string" },
      outputs: inner,
      credits_used: count,
      credits_remaining: nullable(count),
      request_id: { type: "string" },
    },
    ...($defs === undefined ? {} : { $defs }),
  };
}

const catalogEntry: JsonSchema = {
  type: "object",
  required: ["slug", "name", "description", "tool_version", "credits", "enabled", "api"],
  properties: {
    slug: { type: "string" },
    name: { type: "string" },
    description: { type: "string" },
    tool_version: { type: "string" },
    credits: { ...count, description: "Exact cost of one call for the calling key." },
    enabled: { type: "boolean" },
    api: { type: "boolean" },
  },
};

export const listOutputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["tools"],
  properties: { tools: { type: "array", items: catalogEntry } },
};

export const searchOutputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["query", "tools"],
  properties: { query: { type: "string" }, tools: { type: "array", items: catalogEntry } },
};

export const contractOutputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: [...(catalogEntry.required as string[]), "input_schema", "output_schema", "examples", "limits"],
  properties: {
    ...(catalogEntry.properties as Record<string, JsonSchema>),
    input_schema: { type: "object", description: "JSON Schema 2020-12 of the request body." },
    output_schema: { type: "object", description: "JSON Schema 2020-12 of `outputs`." },
    examples: {
      type: "array",
      items: {
        type: "object",
        required: ["title", "input"],
        properties: { title: { type: "string" }, input: { type: "object" } },
      },
    },
    limits: {
      type: "object",
      required: ["max_body_bytes"],
      properties: { max_body_bytes: count },
    },
  },
};

const timestamp: JsonSchema = { type: "string", format: "date-time" };

/** A key's tools as every answer shows them. */
export const keyToolsSchema: JsonSchema = {
  ...nullable({ type: "array", items: { type: "string" } }),
  description: "The slugs of the only tools the key may see and call; null when it may use every tool.",
};

export const keyAccessSchema: JsonSchema = {
  type: "string",
  enum: ["full", "read"],
  description:
    "`full`: it may call its tools. `read`: the free reads only; a tool call answers 403 `key_read_only`.",
};

export const creditsOutputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: [
    "account_id",
    "account_name",
    "plan",
    "monthly_allowance",
    "credits_used",
    "monthly_remaining",
    "credits_remaining",
    "grants",
    "period_start",
    "period_end",
    "metering",
    "key",
  ],
  properties: {
    account_id: {
      type: "string",
      description: "The account the key spends for: every figure here is the account's, shared by its keys.",
    },
    account_name: { type: "string", description: "The account's name, as its operator set it." },
    plan: { type: "string" },
    monthly_allowance: {
      ...nullable(count),
      description:
        "This month's allowance alone (grants come on top); null when metering is off. It renews on the 1st (UTC).",
    },
    credits_used: { ...count, description: "Credits of this month's allowance used." },
    monthly_remaining: {
      ...nullable(count),
      description: "What is left of this month's allowance; null when metering is off.",
    },
    credits_remaining: {
      ...nullable(count),
      description:
        "What the account can spend now: `monthly_remaining` plus what its live grants have left. A call costing more answers 402. Null when metering is off.",
    },
    grants: {
      type: "array",
      description:
        "Its live grants with credits left, in the order calls spend them once the allowance is used: earliest `expires_at` first, never-expiring last, then oldest.",
      items: {
        type: "object",
        required: ["id", "remaining", "expires_at", "category"],
        properties: {
          id: { type: "string", description: "`grt_...`" },
          remaining: count,
          expires_at: { ...nullable(timestamp), description: "When what is left is gone; null: never." },
          category: { type: "string", enum: ["paid", "promotional"] },
        },
      },
    },
    period_start: timestamp,
    period_end: timestamp,
    metering: { type: "boolean" },
    key: {
      type: "object",
      required: ["id", "tools", "access"],
      properties: {
        id: { type: "string", description: "The key's id (`key_...`)." },
        tools: keyToolsSchema,
        access: keyAccessSchema,
      },
      description:
        "The key asking and its scope (over OAuth: the key as the authorization acts, narrowed to the tools approved at consent).",
    },
  },
};

export const usageOutputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["period_start", "period_end", "credits_used", "calls", "by_tool", "recent", "next_cursor"],
  properties: {
    period_start: timestamp,
    period_end: timestamp,
    credits_used: count,
    calls: count,
    by_tool: {
      type: "array",
      items: {
        type: "object",
        required: ["tool", "calls", "credits"],
        properties: { tool: { type: "string" }, calls: count, credits: count },
      },
    },
    recent: {
      type: "array",
      items: {
        type: "object",
        required: ["request_id", "key_id", "tool", "status", "credits", "at"],
        properties: {
          request_id: { type: "string" },
          key_id: { type: "string", description: "The key of the account that made the call." },
          tool: { type: "string" },
          status: { type: "string" },
          http_status: nullable({ type: "integer" }),
          credits: count,
          at: { type: "string" },
        },
      },
    },
    next_cursor: nullable({ type: "string" }),
  },
};

/** RFC 9457 problem document with toolrun's members (interface 2.4). */
export const problemSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["type", "title", "status", "code"],
  properties: {
    type: {
      type: "string",
      format: "uri",
      description: "`{docs_url}/errors/{code}`: a page explaining the code.",
    },
    title: { type: "string" },
    status: { type: "integer", minimum: 400, maximum: 599 },
    code: { type: "string", enum: Object.keys(errorCatalog), description: "Stable: branch on this." },
    detail: { type: "string" },
    request_id: { type: "string" },
    fields: {
      description: "Each bad field and its message, or one message when the failure is not tied to a field.",
      anyOf: [{ type: "object", additionalProperties: { type: "string" } }, { type: "string" }],
    },
    retry_after: { type: "integer", minimum: 0 },
    credits_used: count,
    credits_remaining: count,
  },
};
