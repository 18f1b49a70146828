/**
 * JSON Schemas of what the MCP tools return. A paid tool returns the HTTP envelope, so its output
 * schema is the envelope with the tool's own output schema as `outputs`; the free tools return the
 * bodies of the matching GET endpoints. Objects stay open so a new member never breaks a client.
 */
import type { JsonSchema } from "../tools/tool.ts";

export const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The tool-call envelope of the HTTP API (interface 2.1) around one tool's `outputs`. */
export function envelopeSchema(slug: string, outputs: JsonSchema): JsonSchema {
  // One `$schema` at the root; `$defs` move there too so `#/$defs/...` references keep resolving.
  const { $schema: _dialect, $defs, ...inner } = outputs;
  return {
    $schema: SCHEMA_DIALECT,
    type: "object",
    required: ["tool", "tool_version", "outputs", "credits_used", "credits_remaining"],
    properties: {
      tool: { type: "string", const: slug },
      tool_version: { type: "string" },
      outputs: inner,
      credits_used: { type: "integer", minimum: 0 },
      credits_remaining: { type: ["integer", "null"], minimum: 0 },
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
    credits: { type: "integer", minimum: 0, description: "Exact cost of one call for the calling key." },
    enabled: { type: "boolean" },
    api: { type: "boolean" },
  },
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
    input_schema: { type: "object" },
    output_schema: { type: "object" },
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
      properties: { max_body_bytes: { type: "integer", minimum: 0 } },
    },
  },
};

export const creditsOutputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: [
    "plan",
    "monthly_allowance",
    "credits_used",
    "credits_remaining",
    "period_start",
    "period_end",
    "metering",
  ],
  properties: {
    plan: { type: "string" },
    monthly_allowance: { type: ["integer", "null"], minimum: 0 },
    credits_used: { type: "integer", minimum: 0 },
    credits_remaining: { type: ["integer", "null"], minimum: 0 },
    period_start: { type: "string", format: "date-time" },
    period_end: { type: "string", format: "date-time" },
    metering: { type: "boolean" },
  },
};

export const usageOutputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["period_start", "period_end", "credits_used", "calls", "by_tool", "recent", "next_cursor"],
  properties: {
    period_start: { type: "string", format: "date-time" },
    period_end: { type: "string", format: "date-time" },
    credits_used: { type: "integer", minimum: 0 },
    calls: { type: "integer", minimum: 0 },
    by_tool: {
      type: "array",
      items: {
        type: "object",
        required: ["tool", "calls", "credits"],
        properties: {
          tool: { type: "string" },
          calls: { type: "integer", minimum: 0 },
          credits: { type: "integer", minimum: 0 },
        },
      },
    },
    recent: {
      type: "array",
      items: {
        type: "object",
        required: ["request_id", "tool", "status", "credits", "at"],
        properties: {
          request_id: { type: "string" },
          tool: { type: "string" },
          status: { type: "string" },
          http_status: { type: ["integer", "null"] },
          credits: { type: "integer", minimum: 0 },
          at: { type: "string" },
        },
      },
    },
    next_cursor: { type: ["string", "null"] },
  },
};
