/**
 * Query strings carry text; a read's parameter schema says which parameters are numbers. A query
 * value that reads as a decimal number becomes one for those parameters, and everything else is left
 * as sent, so the read's own schema (the one MCP validates with) names what is wrong. A parameter
 * given twice is refused by name here: which of its values was meant cannot be known.
 */
import { ApiError } from "../core/kernel/errors.ts";
import type { JsonSchema } from "../tools/tool.ts";

const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

/** Parameter names come from the client (`__proto__`, `constructor`): defined, never assigned. */
function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Fastify's querystring parser: every name the client sent becomes an own member, a repeated one
 * an array of its values.
 */
export function parseQuery(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = Object.hasOwn(query, name) ? query[name] : undefined;
    define(query, name, seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]);
  }
  return query;
}

export function queryArgs(parameters: JsonSchema, query: unknown): Record<string, unknown> {
  const properties = (parameters.properties ?? {}) as Record<string, JsonSchema>;
  const args: Record<string, unknown> = {};
  const repeated: Record<string, string> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) {
      define(repeated, name, "is given more than once");
      continue;
    }
    const type = Object.hasOwn(properties, name) ? properties[name]?.type : undefined;
    const numeric = type === "integer" || type === "number";
    define(args, name, numeric && typeof value === "string" && DECIMAL.test(value) ? Number(value) : value);
  }
  if (Object.keys(repeated).length > 0) {
    throw new ApiError("validation_error", "A query parameter is given more than once.", {
      extras: { fields: repeated },
    });
  }
  return args;
}
