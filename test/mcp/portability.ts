/**
 * What "portable" means for a tool schema in `tools/list`, checked two ways: a strict draft-07 Ajv
 * (the dialect SDK v1 clients validate with) must compile it, and the rules of the MCP Inspector's
 * `--strict` check must find nothing (no boolean subschema, no tuple, no `type` array, no subschema
 * that constrains nothing, no remote `$ref`).
 */
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/** Draft-07, strict, with formats: the SDK v1 client's validator, made stricter. */
export function draft07(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

export function compileDraft07(schema: object): ValidateFunction {
  return draft07().compile(schema);
}

const BOOLEAN_ALLOWED = new Set(["additionalProperties", "additionalItems"]);
const SINGLE = ["items", "contains", "not", "if", "then", "else", "propertyNames", ...BOOLEAN_ALLOWED];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAPS = ["properties", "patternProperties", "definitions", "$defs", "dependencies"];
/** Keywords that constrain an instance, as the Inspector's check counts them. */
const CONSTRAINING = new Set([
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "items",
  "prefixItems",
  "contains",
  "additionalItems",
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "dependencies",
  "$ref",
]);

/** Every portability problem in a schema, as `path: problem`; empty when there is none. */
export function portabilityFindings(schema: unknown, path = "", keyword?: string): string[] {
  if (typeof schema === "boolean") {
    return keyword !== undefined && BOOLEAN_ALLOWED.has(keyword) ? [] : [`${path}: boolean schema`];
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return [`${path}: not a schema`];
  const node = schema as Record<string, unknown>;
  const findings: string[] = [];
  if (path === "" && "$schema" in node) findings.push(`${path}: names a dialect ($schema)`);
  if (Array.isArray(node.type)) findings.push(`${path}: type array ${JSON.stringify(node.type)}`);
  if ("prefixItems" in node) findings.push(`${path}: prefixItems`);
  if (Array.isArray(node.items)) findings.push(`${path}: items as an array (a draft-07-only tuple)`);
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) findings.push(`${path}: remote $ref`);
  if (keyword !== "not" && !Object.keys(node).some((k) => CONSTRAINING.has(k))) {
    findings.push(`${path}: constrains nothing`);
  }
  for (const key of SINGLE) {
    if (key in node) findings.push(...portabilityFindings(node[key], `${path}/${key}`, key));
  }
  for (const key of LISTS) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries())
      findings.push(...portabilityFindings(sub, `${path}/${key}/${i}`, key));
  }
  for (const key of MAPS) {
    const map = node[key];
    if (typeof map !== "object" || map === null) continue;
    for (const [name, sub] of Object.entries(map)) {
      // draft-07 `dependencies` may map to a list of property names instead of a schema.
      if (key === "dependencies" && Array.isArray(sub)) continue;
      findings.push(...portabilityFindings(sub, `${path}/${key}/${name}`, key));
    }
  }
  return findings;
}
