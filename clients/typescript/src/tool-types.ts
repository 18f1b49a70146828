/**
 * TypeScript types for a deployment's tools, written from its `/openapi.json`: each tool's input
 * (the request body's schema) and outputs (the `outputs` member of its answer), converted from
 * JSON Schema 2020-12. The result is a module exporting `interface Tools`, for
 * `createToolrunClient<Tools>(...)`; `toolrun-types` (types-cli.ts) writes it.
 */

type Schema = { readonly [keyword: string]: unknown };

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property name as TypeScript writes it: bare where it can be, quoted otherwise. */
function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A description as a doc comment, so an editor shows it; nothing in it can end the comment. */
function docComment(schema: Schema, indent: string): string {
  const text = [schema.title, schema.description].filter((t) => typeof t === "string").join(": ");
  if (text === "") return "";
  const lines = text.replaceAll("*/", "*\\/").split("\n");
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

/** A union or intersection member that needs parentheses where it is an array's element. */
const grouped = (type: string) => (/^[\w$".[\]-]+$/.test(type) ? type : `(${type})`);

function union(types: readonly string[]): string {
  const distinct = [...new Set(types)];
  if (distinct.includes("unknown")) return "unknown";
  return distinct.length === 0 ? "never" : distinct.join(" | ");
}

/**
 * The TypeScript type of a JSON Schema. `resolve` follows a `$ref` into the document; a reference
 * it cannot follow, or one back into a schema being converted (a recursive schema), is `unknown`.
 */
export function schemaType(
  schema: unknown,
  resolve: (ref: string) => unknown = () => undefined,
  indent = "",
  seen: ReadonlySet<unknown> = new Set(),
): string {
  if (schema === true || (isSchema(schema) && Object.keys(schema).length === 0)) return "unknown";
  if (schema === false) return "never";
  if (!isSchema(schema) || seen.has(schema)) return "unknown";
  const inner = new Set(seen).add(schema);
  const recurse = (sub: unknown, subIndent = indent) => schemaType(sub, resolve, subIndent, inner);

  if (typeof schema.$ref === "string") return recurse(resolve(schema.$ref));
  if ("const" in schema) return JSON.stringify(schema.const) ?? "unknown";
  if (Array.isArray(schema.enum))
    return union(schema.enum.map((value) => JSON.stringify(value) ?? "unknown"));
  const alternatives = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : null;
  if (alternatives !== null) return union(alternatives.map((sub) => recurse(sub)));
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((sub) => recurse(sub)).filter((t) => t !== "unknown");
    return parts.length === 0 ? "unknown" : parts.map(grouped).join(" & ");
  }

  const types = Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === "string")
    : typeof schema.type === "string"
      ? [schema.type]
      : isSchema(schema.properties) || "additionalProperties" in schema
        ? ["object"]
        : "items" in schema || "prefixItems" in schema
          ? ["array"]
          : [];
  if (types.length === 0) return "unknown";
  return union(
    types.map((type) => {
      switch (type) {
        case "string":
          return "string";
        case "number":
        case "integer":
          return "number";
        case "boolean":
          return "boolean";
        case "null":
          return "null";
        case "array":
          return arrayType(schema, recurse);
        case "object":
          return objectType(schema, recurse, indent);
        default:
          return "unknown";
      }
    }),
  );
}

function arrayType(schema: Schema, recurse: (sub: unknown) => string): string {
  const rest = schema.items === undefined ? "unknown" : schema.items === false ? null : recurse(schema.items);
  if (Array.isArray(schema.prefixItems)) {
    const first = schema.prefixItems.map((sub) => recurse(sub));
    return `[${[...first, ...(rest === null ? [] : [`...${grouped(rest)}[]`])].join(", ")}]`;
  }
  return `${grouped(rest ?? "never")}[]`;
}

function objectType(
  schema: Schema,
  recurse: (sub: unknown, indent: string) => string,
  indent: string,
): string {
  const properties = isSchema(schema.properties) ? Object.entries(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const extra = schema.additionalProperties;
  const inner = `${indent}  `;
  const members = properties.map(
    ([name, sub]) =>
      `${isSchema(sub) ? docComment(sub, inner) : ""}${inner}${propertyName(name)}${required.has(name) ? "" : "?"}: ${recurse(sub, inner)};`,
  );
  if (extra !== false) {
    // Named members must fit the index signature, so beside them it can only say `unknown`.
    const value =
      properties.length === 0 && extra !== undefined && extra !== true ? recurse(extra, inner) : "unknown";
    if (properties.length === 0) return `Record<string, ${value}>`;
    members.push(`${inner}[name: string]: unknown;`);
  }
  return members.length === 0 ? "Record<string, never>" : `{\n${members.join("\n")}\n${indent}}`;
}

/** The path `/v1/tool/{slug}` of each tool in the document, with its operation. */
function toolOperations(document: Schema): [slug: string, operation: Schema][] {
  const paths = isSchema(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, item]) => {
    const slug = /^\/v1\/tool\/([^/{}]+)$/.exec(path)?.[1];
    const post = isSchema(item) ? item.post : undefined;
    return slug !== undefined && isSchema(post) ? [[slug, post] as [string, Schema]] : [];
  });
}

const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((node, key) => (isSchema(node) ? node[key] : undefined), value);

/**
 * The module for a deployment's document: `export interface Tools` with each tool's slug and its
 * `input` and `outputs` types. `source` says where the document came from, in the header.
 */
export function toolTypesModule(document: unknown, source: string): string {
  if (!isSchema(document) || !isSchema(document.paths))
    throw new Error(`${source} is not an OpenAPI document (it has no paths)`);
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith("#/")) return undefined;
    return at(
      document,
      ...ref
        .slice(2)
        .split("/")
        .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~")),
    );
  };
  const tools = toolOperations(document).map(([slug, operation]) => {
    const input = at(operation, "requestBody", "content", "application/json", "schema");
    const envelope = at(operation, "responses", "200", "content", "application/json", "schema");
    const outputs = at(
      isSchema(envelope) && typeof envelope.$ref === "string" ? resolve(envelope.$ref) : envelope,
      "properties",
      "outputs",
    );
    const summary =
      typeof operation.summary === "string" ? docComment({ description: operation.summary }, "  ") : "";
    return `${summary}  ${JSON.stringify(slug)}: {\n    input: ${schemaType(input ?? {}, resolve, "    ")};\n    outputs: ${schemaType(outputs ?? {}, resolve, "    ")};\n  };`;
  });
  return [
    `// Generated by toolrun-types from ${source}. Do not edit: run it again when the tools change.`,
    "",
    "/** The tools of the deployment, by slug: the body each takes and the `outputs` it answers. */",
    tools.length === 0 ? "export interface Tools {}" : `export interface Tools {\n${tools.join("\n")}\n}`,
    "",
  ].join("\n");
}
