/**
 * `toolrun tools import`: the operations of an OpenAPI 3.0 or 3.1 document as `httpTools`
 * declarations. Takes the document already validated and dereferenced (the CLI does that with an
 * OpenAPI parser); one declaration per operation, its slug the operationId in kebab-case, its
 * parameters and JSON request body merged into one input schema, its schemas turned into the JSON
 * Schema 2020-12 the service validates with. What cannot be carried over (a form body, a cookie
 * parameter, a recursive schema) is left out with a warning naming the operation; every
 * declaration printed passes the checks the service makes when it loads `httpTools`.
 */

import type { UpstreamMethod } from "../../ports/upstream.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { compileOutputValidator } from "../kernel/validation.ts";
import { checkSlug, isObject } from "./check-definition.ts";
import { checkHttpTool, type HttpToolDeclaration } from "./http-tool.ts";

export interface ImportOptions {
  /** Replaces the document's first server. */
  readonly baseUrl?: string | undefined;
  /** Only these operationIds; every one must exist. */
  readonly operations?: readonly string[] | undefined;
}

export interface ImportResult {
  readonly declarations: HttpToolDeclaration[];
  /** One line each: what was left out, and why. */
  readonly warnings: string[];
  /** The operations asked for by `operations` that could not be imported. */
  readonly skipped: string[];
}

/** The document cannot be imported at all; `usage` when the fix is in how the command was called. */
export class ImportError extends Error {
  override readonly name = "ImportError";
  readonly usage: boolean;
  constructor(message: string, usage: boolean) {
    super(message);
    this.usage = usage;
  }
}

const METHODS: readonly UpstreamMethod[] = ["GET", "PUT", "POST", "DELETE", "PATCH"];
const OTHER_METHODS = ["options", "head", "trace"];
const WITH_BODY = new Set<UpstreamMethod>(["POST", "PUT", "PATCH"]);
const SEMVER = /^\d+\.\d+\.\d+$/;

export function declarationsFromOpenApi(document: unknown, options: ImportOptions = {}): ImportResult {
  if (!isObject(document) || typeof document.openapi !== "string" || !/^3\.[01]\./.test(document.openapi)) {
    const version = isObject(document) ? (document.openapi ?? document.swagger) : undefined;
    throw new ImportError(
      `only OpenAPI 3.0 and 3.1 documents can be imported${version ? `; this one is ${version}` : ""}`,
      false,
    );
  }
  const dialect = document.openapi.startsWith("3.0") ? "3.0" : "3.1";
  const baseUrl = baseUrlOf(document, options.baseUrl);
  const info = isObject(document.info) ? document.info : {};
  const version = typeof info.version === "string" && SEMVER.test(info.version) ? info.version : "1.0.0";
  const schemes =
    isObject(document.components) && isObject(document.components.securitySchemes)
      ? document.components.securitySchemes
      : {};

  const operations = listOperations(document);
  const wanted = options.operations;
  if (wanted && wanted.length > 0) {
    const known = new Set(operations.flatMap((op) => (op.id ? [op.id] : [])));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw new ImportError(
        `--operation ${unknown.join(", ")}: no operation has ${unknown.length > 1 ? "these ids" : "this id"} (the document has ${[...known].join(", ") || "none"})`,
        true,
      );
  }

  const declarations: HttpToolDeclaration[] = [];
  const warnings: string[] = [];
  const skipped: string[] = [];
  // What holds for the whole document (a variable to set, a format left out) is said once.
  const once = new Set<string>();
  const slugs = new Map<string, string>();
  for (const op of operations) {
    const label = op.id ?? `${op.method} ${op.path}`;
    if (wanted && wanted.length > 0 && (op.id === undefined || !wanted.includes(op.id))) continue;
    const built = op.id
      ? declarationOf(op as Operation & { id: string }, {
          baseUrl,
          version,
          dialect,
          schemes,
          document,
          once,
        })
      : { problem: "has no operationId, which its slug is made from" };
    let problem = "problem" in built ? built.problem : undefined;
    if ("declaration" in built) {
      const taken = slugs.get(built.declaration.slug);
      if (taken) problem = `its slug "${built.declaration.slug}" is already ${taken}'s`;
    }
    if (problem !== undefined || !("declaration" in built)) {
      warnings.push(`operation ${label} is left out: ${problem}`);
      if (op.id && wanted && wanted.length > 0) skipped.push(op.id);
      continue;
    }
    slugs.set(built.declaration.slug, label);
    warnings.push(...built.notes.map((note) => `operation ${label}: ${note}`));
    declarations.push(built.declaration);
  }
  return { declarations, warnings: [...warnings, ...once], skipped };
}

/** `getUserByID` -> `get-user-by-id`, `list_items.v2` -> `list-items-v2`. */
export function kebabCase(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .join("-")
    .toLowerCase();
}

interface Operation {
  readonly id: string | undefined;
  readonly method: UpstreamMethod;
  readonly path: string;
  readonly operation: Record<string, unknown>;
  readonly parameters: readonly Record<string, unknown>[];
}

interface Context {
  readonly baseUrl: string;
  readonly version: string;
  readonly dialect: "3.0" | "3.1";
  readonly schemes: Record<string, unknown>;
  readonly document: Record<string, unknown>;
  readonly once: Set<string>;
}

type Built =
  | { readonly declaration: HttpToolDeclaration; readonly notes: string[] }
  | { readonly problem: string };

function listOperations(document: Record<string, unknown>): Operation[] {
  const operations: Operation[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters.filter(isObject) : [];
    for (const method of METHODS) {
      const operation = item[method.toLowerCase()];
      if (!isObject(operation)) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters.filter(isObject) : [];
      // An operation's parameter overrides the path's of the same name and place.
      const key = (p: Record<string, unknown>) => `${p.in}:${p.name}`;
      const ownKeys = new Set(own.map(key));
      operations.push({
        id: typeof operation.operationId === "string" ? operation.operationId : undefined,
        method,
        path,
        operation,
        parameters: [...shared.filter((p) => !ownKeys.has(key(p))), ...own],
      });
    }
    for (const method of OTHER_METHODS) {
      const operation = item[method];
      if (isObject(operation) && typeof operation.operationId === "string")
        operations.push({
          id: operation.operationId,
          method: method.toUpperCase() as UpstreamMethod,
          path,
          operation,
          parameters: [],
        });
    }
  }
  return operations;
}

function declarationOf(op: Operation & { id: string }, context: Context): Built {
  if (!METHODS.includes(op.method))
    return { problem: `${op.method} is not a method an HTTP tool makes (${METHODS.join(", ")})` };
  const slug = kebabCase(op.id);
  if (checkSlug(slug)) return { problem: `its operationId does not make a slug ("${slug}")` };
  const notes: string[] = [];
  // A Map, so a member named __proto__ is a member like any other.
  const properties = new Map<string, JsonSchema>();
  const required: string[] = [];
  const queryTemplate: string[] = [];
  const hasBody = WITH_BODY.has(op.method);

  const headerFields: Record<string, string> = {};
  const pathParameters = new Set<string>();
  for (const parameter of op.parameters) {
    const name = String(parameter.name);
    const where = parameter.in;
    if (where === "cookie") {
      notes.push(`its cookie parameter ${name} is left out (an HTTP tool sends no cookies)`);
      continue;
    }
    if (where !== "path" && where !== "query" && where !== "header") continue;
    if (!isObject(parameter.schema)) return { problem: `its parameter ${name} has no schema` };
    const converted = convertSchema(parameter.schema, context.dialect, context.once, `parameter ${name}`);
    if ("problem" in converted) return converted;
    const isRequired = where === "path" || parameter.required === true;
    if (where === "header") {
      const member = headerMember(name, properties);
      if (member === undefined || HEADERS_SET_ELSEWHERE.has(name.toLowerCase())) {
        notes.push(`its header parameter ${name} is left out (toolrun sets that header itself)`);
        continue;
      }
      headerFields[name] = member;
      properties.set(member, withDescription(converted.schema, parameter.description));
      if (isRequired) required.push(member);
      continue;
    }
    if (where === "path") pathParameters.add(name);
    if (where === "query" && hasBody) {
      if (!isRequired) {
        notes.push(
          `its optional query parameter ${name} is left out (a ${op.method} sends its input as the body)`,
        );
        continue;
      }
      queryTemplate.push(name);
    }
    properties.set(name, withDescription(converted.schema, parameter.description));
    if (isRequired) required.push(name);
  }

  const body = requestBodyOf(op, context.dialect, context.once);
  if ("problem" in body) return body;
  if (body.shape) {
    for (const [name, schema] of Object.entries(body.shape.properties)) {
      // What the server writes (an id, a creation time, links) is no input.
      if (schema.readOnly === true) continue;
      // Update-by-id: the path's `id` and the body's are one value, sent in both places.
      if (pathParameters.has(name)) continue;
      if (properties.has(name))
        return { problem: `its request body's member ${name} has the name of one of its parameters` };
      properties.set(name, schema);
    }
    if (body.required)
      required.push(...body.shape.required.filter((name) => body.shape?.properties[name]?.readOnly !== true));
  }

  const output = outputSchemaOf(op, context.dialect, notes, context.once);
  if ("problem" in output) return output;
  for (const [name, schema] of properties) properties.set(name, withoutReadOnly(schema));
  const headers = headersOf(op, context);
  const query = queryTemplate.map((name) => `${encodeURIComponent(name)}={${name}}`).join("&");
  const summary = typeof op.operation.summary === "string" ? op.operation.summary.trim() : "";
  const description = typeof op.operation.description === "string" ? op.operation.description.trim() : "";
  const tags = Array.isArray(op.operation.tags)
    ? op.operation.tags.filter((t) => typeof t === "string" && t !== "")
    : [];
  const declaration: Record<string, unknown> = {
    slug,
    name: summary || op.id,
    description: description || summary || `${op.method} ${op.path}`,
    ...(tags.length > 0 && { keywords: tags }),
    version: context.version,
    weight: 1,
    inputSchema: {
      type: "object",
      additionalProperties: false,
      ...(required.length > 0 && { required: [...new Set(required)] }),
      properties: Object.fromEntries(properties),
    },
    ...(output.schema && { outputSchema: output.schema }),
    url: `${context.baseUrl}${op.path}${query ? `?${query}` : ""}`,
    method: op.method,
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(Object.keys(headerFields).length > 0 && { headerFields }),
    ...(output.wrapped && { wrapAnswer: ITEMS }),
  };
  let check = checkHttpTool(declaration);
  if (!check.ok && declaration.outputSchema !== undefined) {
    // An answer schema the service cannot compile is dropped rather than the whole operation.
    const { outputSchema: _, ...withoutOutput } = declaration;
    const retry = checkHttpTool(withoutOutput);
    if (retry.ok) {
      notes.push(`its answer's schema is left out (${check.problems.join("; ")})`);
      check = retry;
    }
  }
  if (!check.ok) return { problem: check.problems.join("; ") };
  return { declaration: check.checked.declaration, notes };
}

function baseUrlOf(document: Record<string, unknown>, given: string | undefined): string {
  let raw = given;
  if (raw === undefined) {
    const first = Array.isArray(document.servers) ? document.servers[0] : undefined;
    if (!isObject(first) || typeof first.url !== "string")
      throw new ImportError("the document names no server; pass --base-url URL", true);
    const variables = isObject(first.variables) ? first.variables : {};
    raw = first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = variables[name];
      return isObject(variable) && typeof variable.default === "string" ? variable.default : whole;
    });
    if (!/^https?:\/\//i.test(raw))
      throw new ImportError(
        `the document's first server, ${first.url}, is not an absolute http(s) URL; pass --base-url URL`,
        true,
      );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ImportError(`--base-url ${raw} is not a URL`, true);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "")
    throw new ImportError(`--base-url ${raw} must be an http(s) URL without a query or fragment`, true);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

interface Shape {
  readonly properties: Record<string, JsonSchema>;
  readonly required: string[];
}

function requestBodyOf(
  op: Operation,
  dialect: "3.0" | "3.1",
  once: Set<string>,
): { readonly shape?: Shape; readonly required?: boolean } | { readonly problem: string } {
  const body = op.operation.requestBody;
  if (!isObject(body)) return {};
  if (!WITH_BODY.has(op.method)) return { problem: `a ${op.method} with a request body cannot be called` };
  const schema = jsonContent(body.content);
  if (schema === undefined) return { problem: "its request body is not JSON" };
  const converted = convertSchema(schema, dialect, once, "request body");
  if ("problem" in converted) return converted;
  const shape = objectShape(converted.schema);
  if (!shape) return { problem: "its request body is not a JSON object with named members" };
  return { shape, required: body.required === true };
}

function outputSchemaOf(
  op: Operation,
  dialect: "3.0" | "3.1",
  notes: string[],
  once: Set<string>,
): { readonly schema?: JsonSchema; readonly wrapped?: boolean } | { readonly problem: string } {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const success = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort()[0];
  const response = success === undefined ? undefined : responses[success];
  if (!isObject(response)) return {};
  const schema = jsonContent(response.content);
  if (schema === undefined) return {};
  const converted = convertSchema(schema, dialect, once, "answer");
  if ("problem" in converted) {
    notes.push(`its answer's schema is left out (${converted.problem})`);
    return {};
  }
  const type = converted.schema.type;
  // A list endpoint's array becomes the member `items` of the tool's answer.
  if (type === "array")
    return {
      schema: { type: "object", required: [ITEMS], properties: { [ITEMS]: converted.schema } },
      wrapped: true,
    };
  if (type !== undefined && type !== "object" && !(Array.isArray(type) && type.includes("object")))
    return { problem: `its ${success} answer is of type ${String(type)}, and a tool answers a JSON object` };
  // A schema that says nothing of the answer's shape adds nothing to the default (any object).
  if (objectShape(converted.schema) === undefined) return {};
  return { schema: { ...converted.schema, type: "object" } };
}

/** The schema of the JSON media type of a `content` map: `application/json`, else any `+json`. */
function jsonContent(content: unknown): Record<string, unknown> | undefined {
  if (!isObject(content)) return undefined;
  const type =
    Object.keys(content).find((t) => t.split(";")[0]?.trim().toLowerCase() === "application/json") ??
    Object.keys(content).find((t) => /\+json\s*(;|$)/i.test(t));
  const media = type === undefined ? undefined : content[type];
  return isObject(media) && isObject(media.schema) ? media.schema : undefined;
}

/** The members of an object schema, or of an `allOf` of object schemas. */
function objectShape(schema: JsonSchema): Shape | undefined {
  if (Array.isArray(schema.allOf) && schema.properties === undefined) {
    const parts = schema.allOf.map((part) => (isObject(part) ? objectShape(part) : undefined));
    if (parts.some((part) => part === undefined)) return undefined;
    return {
      properties: Object.fromEntries(parts.flatMap((part) => Object.entries(part?.properties ?? {}))),
      required: parts.flatMap((part) => part?.required ?? []),
    };
  }
  if (schema.type !== "object" && !isObject(schema.properties)) return undefined;
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === "string")
    : [];
  return { properties, required };
}

function headersOf(op: Operation, context: Context): Record<string, string> {
  const requirements = Array.isArray(op.operation.security)
    ? op.operation.security
    : Array.isArray(context.document.security)
      ? context.document.security
      : [];
  const first = requirements.find(isObject);
  const headers: Record<string, string> = {};
  for (const name of Object.keys(first ?? {})) {
    const scheme = context.schemes[name];
    const variable = name
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .toUpperCase();
    if (!isObject(scheme)) continue;
    const bearer =
      (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "bearer") ||
      scheme.type === "oauth2" ||
      scheme.type === "openIdConnect";
    if (bearer) {
      headers.Authorization = `Bearer \${${variable}}`;
      context.once.add(
        `set the environment variable ${variable} to the bearer token of security scheme ${name}`,
      );
    } else if (scheme.type === "apiKey" && scheme.in === "header" && typeof scheme.name === "string") {
      headers[scheme.name] = `\${${variable}}`;
      context.once.add(`set the environment variable ${variable} to the API key of security scheme ${name}`);
    } else
      context.once.add(
        `security scheme ${name} (${String(scheme.type)}) is not carried over; add its header yourself`,
      );
  }
  return headers;
}

/** The member an array answer is put under. */
const ITEMS = "items";
/** Headers an imported tool sets otherwise: its credentials (from the security schemes) and toolrun's own. */
const HEADERS_SET_ELSEWHERE = new Set([
  "authorization",
  "idempotency-key",
  "content-type",
  "content-length",
  "accept",
  "host",
]);

/**
 * The input member a header parameter fills: its name in camel case (`Organization-Id` becomes
 * `organizationId`), unless a parameter already has that name.
 */
function headerMember(header: string, taken: ReadonlyMap<string, unknown>): string | undefined {
  const [first = "", ...rest] = header.split(/[^A-Za-z0-9]+/).filter((part) => part !== "");
  const member =
    first.toLowerCase() +
    rest.map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase()).join("");
  return member === "" || taken.has(member) ? undefined : member;
}

/** An input member's schema without the `readOnly` members inside it: the client never sends them. */
function withoutReadOnly(schema: JsonSchema): JsonSchema {
  if (!isObject(schema.properties)) return schema;
  const kept = Object.entries(schema.properties as Record<string, JsonSchema>)
    .filter(([, member]) => member.readOnly !== true)
    .map(([name, member]) => [name, withoutReadOnly(member)] as const);
  const names = new Set(kept.map(([name]) => name));
  return {
    ...schema,
    properties: Object.fromEntries(kept),
    ...(Array.isArray(schema.required) && { required: schema.required.filter((name) => names.has(name)) }),
  };
}

function withDescription(schema: JsonSchema, description: unknown): JsonSchema {
  return typeof description === "string" && description !== "" && schema.description === undefined
    ? { ...schema, description }
    : schema;
}

const KEEP = new Set([
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "minimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "$comment",
  "contentEncoding",
  "contentMediaType",
]);
const ONE_SCHEMA = new Set([
  "not",
  "if",
  "then",
  "else",
  "items",
  "contains",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas"]);
/** OpenAPI's own annotations, which say nothing a validator checks. */
const DROPPED = new Set(["discriminator", "xml", "externalDocs", "$schema", "$id", "$anchor", "$defs"]);
const knownFormats = new Map<string, boolean>();

/**
 * An OpenAPI schema as JSON Schema 2020-12: 3.0's `nullable`, `example` and boolean exclusive
 * bounds rewritten; extensions and OpenAPI annotations dropped; a `format` the service's validator
 * does not know dropped with a note in `once` (the validator would refuse to compile it).
 */
export function convertSchema(
  schema: unknown,
  dialect: "3.0" | "3.1",
  once: Set<string>,
  where: string,
): { readonly schema: JsonSchema } | { readonly problem: string } {
  const seen = new Set<unknown>();
  const convert = (value: unknown): unknown => {
    if (typeof value === "boolean") return value;
    if (!isObject(value))
      throw new ImportError(`the ${where} schema holds something that is not a schema`, false);
    if (seen.has(value)) throw new ImportError(`the ${where} schema is recursive`, false);
    seen.add(value);
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (key === "$ref")
        throw new ImportError(`the ${where} schema is recursive ($ref ${String(member)})`, false);
      if (key.startsWith("x-") || DROPPED.has(key) || key === "nullable") continue;
      if (KEEP.has(key)) out[key] = member;
      else if (ONE_SCHEMA.has(key)) out[key] = convert(member);
      else if (SCHEMA_LISTS.has(key) && Array.isArray(member)) out[key] = member.map(convert);
      else if (SCHEMA_MAPS.has(key) && isObject(member))
        out[key] = Object.fromEntries(Object.entries(member).map(([name, sub]) => [name, convert(sub)]));
      else if (key === "example") {
        if (value.examples === undefined) out.examples = [member];
      } else if (key === "format" && typeof member === "string") {
        if (formatKnown(member)) out.format = member;
        else once.add(`format "${member}" is left out wherever it appears (the service does not check it)`);
      } else if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof member === "boolean") {
        const bound = key === "exclusiveMinimum" ? "minimum" : "maximum";
        if (member && typeof value[bound] === "number") out[key] = value[bound];
      } else if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof member === "number")
        out[key] = member;
      else once.add(`the keyword "${key}" is left out wherever it appears (it is not JSON Schema 2020-12)`);
    }
    // 3.0's exclusive bounds replace the inclusive one they qualify.
    if (value.exclusiveMinimum === true) delete out.minimum;
    if (value.exclusiveMaximum === true) delete out.maximum;
    if (dialect === "3.0" && value.nullable === true) {
      if (typeof out.type === "string") out.type = [out.type, "null"];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    seen.delete(value);
    return out;
  };
  try {
    return { schema: convert(schema) as JsonSchema };
  } catch (error) {
    if (error instanceof ImportError) return { problem: error.message };
    throw error;
  }
}

function formatKnown(format: string): boolean {
  let known = knownFormats.get(format);
  if (known === undefined) {
    try {
      compileOutputValidator({ type: "string", format });
      known = true;
    } catch {
      known = false;
    }
    knownFormats.set(format, known);
  }
  return known;
}
