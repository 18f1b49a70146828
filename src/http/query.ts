/**
 * Query strings carry text; a read's parameter schema says which parameters are numbers. A query
 * value that reads as a decimal number becomes one for those parameters, and everything else is left
 * as sent, so the read's own schema (the one MCP validates with) names what is wrong.
 */
import type { JsonSchema } from "../tools/tool.ts";

const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

export function queryArgs(parameters: JsonSchema, query: unknown): Record<string, unknown> {
  const properties = (parameters.properties ?? {}) as Record<string, JsonSchema>;
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const type = properties[name]?.type;
    const numeric = type === "integer" || type === "number";
    args[name] = numeric && typeof value === "string" && DECIMAL.test(value) ? Number(value) : value;
  }
  return args;
}
