/**
 * `toPortableJsonSchema`: renders a JSON Schema 2020-12 document (the form the HTTP catalog
 * publishes and the pipeline validates with) in the portable form MCP clients accept
 (docs/mcp.md): a subset that means the same to draft-07 and 2020-12 validators and that
 * the MCP Inspector's `--strict` portability check passes with no error and no warning.
 * Written by hand because the published converters only go the other way (draft-04 up to 2020-12)
 * or to OpenAPI; the rules are few:
 *
 * - no `$schema`: the result is valid in both dialects (MCP reads a schema without one as 2020-12);
 * - boolean subschemas become objects: `false` is `{"not": {}}`, `true` is `{}`;
 * - a tuple (`prefixItems`) becomes `items: {"anyOf": [...]}` over its positions, with its length as
 *   `maxItems` when no item may follow: the same rows, without their order;
 * - a `type` array becomes `anyOf` branches of one type each, every type-specific keyword moving into
 *   the branch it applies to (so a numeric string stays accepted: number or decimal string);
 * - `$defs` become `definitions` (their `$ref`s follow), a `$ref` with siblings moves into `allOf`,
 *   and `dependentRequired`/`dependentSchemas` become `dependencies`;
 * - vendor keywords (`x-...`) are dropped: they instruct our own pipeline, they describe nothing.
 * A keyword draft-07 cannot express throws, naming its path, so a tool author learns it in a test.
 */
import type { JsonSchema } from "../tools/tool.ts";

/** 2019-09/2020-12 keywords with no draft-07 meaning; the rendering would silently drop a constraint. */
const INEXPRESSIBLE = new Set([
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$anchor",
  "$vocabulary",
  "minContains",
  "maxContains",
]);

/** Keywords holding one subschema, where a boolean schema stays legal and portable as it is. */
const BOOLEAN_ALLOWED = new Set(["additionalProperties", "additionalItems"]);
const SINGLE_SUBSCHEMA = [
  "items",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  ...BOOLEAN_ALLOWED,
];
const SUBSCHEMA_LIST = ["allOf", "anyOf", "oneOf"];
const SUBSCHEMA_MAP = ["properties", "patternProperties", "definitions"];

/** Keywords that constrain only instances of one type: they follow that type into its branch. */
const KEYWORDS_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  string: ["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType"],
  array: ["items", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems"],
  object: [
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependencies",
  ],
};

export function toPortableJsonSchema(schema: JsonSchema): JsonSchema {
  return render(schema, "#");
}

function render(schema: unknown, path: string): JsonSchema {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  if (!isObject(schema)) throw new Error(`${path} is not a JSON Schema`);
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    const at = `${path}/${keyword}`;
    if (INEXPRESSIBLE.has(keyword)) throw new Error(`${at}: ${keyword} has no draft-07 equivalent`);
    if (keyword === "$schema" || keyword.startsWith("x-")) continue;
    if (keyword === "$defs" || keyword === "definitions") {
      out.definitions = { ...(out.definitions as object | undefined), ...renderMap(value, at) };
    } else if (keyword === "dependentRequired" || keyword === "dependentSchemas") {
      const dependencies = keyword === "dependentRequired" ? { ...(value as object) } : renderMap(value, at);
      out.dependencies = { ...(out.dependencies as object | undefined), ...dependencies };
    } else if (keyword === "$ref") {
      out.$ref = typeof value === "string" ? value.replace(/^#\/\$defs\//, "#/definitions/") : value;
    } else if (keyword === "prefixItems" || (keyword === "items" && "prefixItems" in schema)) {
      // Both are rendered together, once, below.
    } else if (SUBSCHEMA_MAP.includes(keyword)) {
      out[keyword] = renderMap(value, at);
    } else if (SUBSCHEMA_LIST.includes(keyword)) {
      out[keyword] = renderList(value, at);
    } else if (SINGLE_SUBSCHEMA.includes(keyword)) {
      out[keyword] = typeof value === "boolean" && BOOLEAN_ALLOWED.has(keyword) ? value : render(value, at);
    } else {
      // Assertions on values (`enum`, `const`, `required`...) and annotations are copied as they are.
      out[keyword] = value;
    }
  }
  if ("prefixItems" in schema) Object.assign(out, renderTuple(schema, path));
  return splitTypeUnion(moveRefSiblings(out));
}

/** `prefixItems` + `items` as one `items` schema over every position, and the tuple's bounds. */
function renderTuple(schema: Record<string, unknown>, path: string): Record<string, unknown> {
  const positions = renderList(schema.prefixItems, `${path}/prefixItems`);
  const rest = schema.items;
  // `false`, or its object spelling `{"not": {}}`: no item may follow the tuple.
  const closed =
    rest === false ||
    (isObject(rest) &&
      Object.keys(rest).length === 1 &&
      isObject(rest.not) &&
      Object.keys(rest.not).length === 0);
  const branches = closed || rest === undefined ? positions : [...positions, render(rest, `${path}/items`)];
  const out: Record<string, unknown> = {};
  // With no `items`, anything may follow the tuple: the positions then constrain nothing portable.
  if (rest !== undefined) out.items = branches.length === 1 ? branches[0] : { anyOf: branches };
  if (closed) {
    const max =
      typeof schema.maxItems === "number" ? Math.min(schema.maxItems, positions.length) : positions.length;
    out.maxItems = max;
  }
  return out;
}

/** In draft-07 a `$ref`'s siblings are ignored; inside `allOf` they apply in both dialects. */
function moveRefSiblings(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.$ref === undefined || Object.keys(schema).length === 1) return schema;
  const { $ref, allOf, ...rest } = schema;
  return { ...rest, allOf: [{ $ref }, ...((allOf as unknown[] | undefined) ?? [])] };
}

/** `type: [a, b]` as `anyOf: [{type: a, ...a's keywords}, {type: b, ...b's keywords}]`. */
function splitTypeUnion(schema: Record<string, unknown>): Record<string, unknown> {
  const { type } = schema;
  if (!Array.isArray(type)) return schema;
  if (type.length === 1) return { ...schema, type: type[0] };
  const moved = new Set<string>();
  const branches = type.map((name: string) => {
    const branch: Record<string, unknown> = { type: name };
    for (const keyword of KEYWORDS_OF_TYPE[name === "integer" ? "number" : name] ?? []) {
      if (keyword in schema) {
        branch[keyword] = schema[keyword];
        moved.add(keyword);
      }
    }
    return branch;
  });
  const rest = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== "type" && !moved.has(k)));
  if (rest.anyOf === undefined) return { ...rest, anyOf: branches };
  // The schema already has an anyOf of its own: both must hold.
  return { ...rest, allOf: [...((rest.allOf as unknown[] | undefined) ?? []), { anyOf: branches }] };
}

function renderMap(value: unknown, path: string): Record<string, JsonSchema> {
  if (!isObject(value)) throw new Error(`${path} is not an object of schemas`);
  return Object.fromEntries(
    Object.entries(value).map(([name, sub]) => [name, render(sub, `${path}/${name}`)]),
  );
}

function renderList(value: unknown, path: string): JsonSchema[] {
  if (!Array.isArray(value)) throw new Error(`${path} is not a list of schemas`);
  return value.map((sub, i) => render(sub, `${path}/${i}`));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
