/**
 * HTTP tools declared as data (`httpTools` in the configuration file): a declaration is checked,
 * its header secrets read from the environment, and it becomes a checked tool like any other,
 * whose `run` makes one request through the Upstream port and maps what the upstream did to the
 * call's answer. The upstream's JSON object is the outputs; a 4xx is the client's input refused
 * (422), except 401, 403 and 407, which refuse the credentials the operator configured; anything
 * else is a failure (500 `processing_error`) whose message says what the upstream did and never
 * echoes its body, the URL or a header value.
 */
import type { Upstream, UpstreamMethod, UpstreamResult } from "../../ports/upstream.ts";
import {
  type JsonSchema,
  type ToolAnnotations,
  type ToolContext,
  type ToolEffects,
  type ToolExample,
  type ToolJobs,
  UnprocessableInputError,
} from "../../tools/tool.ts";
import {
  CATALOG_MEMBERS,
  type CheckedTool,
  checkDefinition,
  checkInteger,
  DEFAULT_TIMEOUT_MS,
  isObject,
  MAX_COUNT,
  MAX_OUTPUT_BYTES,
  maxTimeoutOf,
} from "./check-definition.ts";
import { envReferences, expandEnvReferences } from "./env-references.ts";
import { ToolFailure } from "./tool-failure.ts";
import { expandUrl, parseUrlTemplate, type UrlTemplate } from "./url-template.ts";

/** One entry of `httpTools`, as an operator writes it (and `toolrun tools import` prints it). */
export interface HttpToolDeclaration {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly keywords?: readonly string[];
  readonly version: string;
  readonly weight: number;
  readonly maxBodyBytes?: number;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly url: string;
  readonly method: UpstreamMethod;
  /** Values may hold `${NAME}`: the environment variable NAME, read at start-up. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** `"none"` for a call that changes nothing upstream (a lookup); default `"none"` for GET, else `"external"`. */
  readonly effects?: ToolEffects;
  /** Whether a call may run as a job (ToolJobs); default `"optional"` for effects outside, else `"no"`. */
  readonly jobs?: ToolJobs;
  /** MCP's behaviour hints, each replacing the one toolrun derives (`openWorldHint` is true). */
  readonly annotations?: ToolAnnotations;
  readonly examples?: readonly ToolExample[];
  /** Input members sent as request headers, by header name (`{"Organization-Id": "organizationId"}`). */
  readonly headerFields?: Readonly<Record<string, string>>;
  /** The upstream's JSON answer, whatever its type, becomes the outputs' member of this name (`items`). */
  readonly wrapAnswer?: string;
}

/** A declaration that passed its checks: its URL template and the tool it is, not yet bound to an upstream. */
export interface CheckedHttpTool {
  readonly declaration: HttpToolDeclaration;
  readonly template: UrlTemplate;
  /** The checked definition; its `run` fails until bindHttpTool gives it headers and an upstream. */
  readonly tool: CheckedTool;
}

export const HTTP_TOOL_DEFAULTS = {
  timeoutMs: DEFAULT_TIMEOUT_MS,
  maxResponseBytes: 1024 * 1024,
  maxBodyBytes: 64 * 1024,
};

const METHODS: readonly UpstreamMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const WITH_BODY: ReadonlySet<UpstreamMethod> = new Set(["POST", "PUT", "PATCH"]);
const MEMBERS = [
  ...CATALOG_MEMBERS,
  "weight",
  "maxBodyBytes",
  "inputSchema",
  "outputSchema",
  "url",
  "method",
  "headers",
  "timeoutMs",
  "maxResponseBytes",
  "effects",
  "jobs",
  "annotations",
  "examples",
  "headerFields",
  "wrapAnswer",
];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by toolrun or by the HTTP client itself; an operator's value would break the exchange. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-connection",
  "idempotency-key",
]);
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean"]);
const DOT_SEGMENTS = { not: { enum: [".", ".."] } };
/** What a header value may not hold, whatever the input's schema says. */
const HEADER_SAFE = { pattern: "^[^\\r\\n\\u0000]*$" };

/**
 * Checks a declaration: what is particular to one (its members, URL template, method, headers with
 * the syntax of their `${NAME}`, not the environment, and limits), and what every tool definition
 * must be (slug, names, version, schemas that compile), on the definition it becomes. Every
 * problem at once, each one phrase.
 */
export function checkHttpTool(
  raw: unknown,
):
  | { readonly ok: true; readonly checked: CheckedHttpTool }
  | { readonly ok: false; readonly problems: string[] } {
  if (!isObject(raw)) return { ok: false, problems: ["must be an object"] };
  const problems: string[] = [];
  for (const key of Object.keys(raw))
    if (!MEMBERS.includes(key)) problems.push(`unknown member "${key}" (expected ${MEMBERS.join(", ")})`);
  const limits: [string, number, number][] = [
    ["weight", 0, MAX_COUNT],
    ["maxBodyBytes", 2, MAX_COUNT],
    ["timeoutMs", 1, maxTimeoutOf(raw.jobs, raw.effects ?? defaultEffects(raw.method))],
    ["maxResponseBytes", 1, MAX_OUTPUT_BYTES],
  ];
  for (const [name, min, max] of limits) {
    if (name !== "weight" && raw[name] === undefined) continue;
    const problem = checkInteger(raw[name], name, min, max);
    if (problem) problems.push(problem);
  }
  if (typeof raw.method !== "string" || !(METHODS as readonly string[]).includes(raw.method))
    problems.push(`method must be one of ${METHODS.join(", ")}`);
  problems.push(...checkHeaders(raw.headers));

  let template: UrlTemplate | undefined;
  if (typeof raw.url !== "string") problems.push("url must be a string");
  else {
    const parsed = parseUrlTemplate(raw.url);
    if ("problem" in parsed) problems.push(`url ${parsed.problem}`);
    else template = parsed.template;
  }
  const fieldProblems =
    template && isObject(raw.inputSchema) ? checkTemplateFields(template, raw.inputSchema) : [];
  problems.push(...fieldProblems);
  if (
    template &&
    isObject(raw.inputSchema) &&
    typeof raw.method === "string" &&
    !WITH_BODY.has(raw.method as UpstreamMethod)
  )
    problems.push(...checkFixedQuery(template, raw.inputSchema));
  const headerProblems = checkHeaderFields(raw.headerFields, raw.headers, raw.inputSchema, template);
  problems.push(...headerProblems);
  if (raw.wrapAnswer !== undefined && (typeof raw.wrapAnswer !== "string" || raw.wrapAnswer === ""))
    problems.push("wrapAnswer must be a member name");

  const declaration = raw as unknown as HttpToolDeclaration;
  const definition = checkDefinition({
    slug: declaration.slug,
    name: declaration.name,
    description: declaration.description,
    keywords: declaration.keywords ?? [],
    version: declaration.version,
    defaults: {
      weight: declaration.weight,
      maxBodyBytes: declaration.maxBodyBytes ?? HTTP_TOOL_DEFAULTS.maxBodyBytes,
    },
    inputSchema:
      template && fieldProblems.length === 0 && headerProblems.length === 0
        ? effectiveInputSchema(
            declaration.inputSchema,
            template.pathFields,
            Object.values(declaration.headerFields ?? {}),
          )
        : declaration.inputSchema,
    outputSchema: declaration.outputSchema ?? { type: "object" },
    examples: declaration.examples ?? [],
    effects: declaration.effects ?? (declaration.method === "GET" ? "none" : "external"),
    ...(declaration.jobs !== undefined && { jobs: declaration.jobs }),
    // It reaches a world toolrun cannot see, whatever it does there.
    annotations: { openWorldHint: true, ...declaration.annotations },
    timeoutMs: declaration.timeoutMs ?? HTTP_TOOL_DEFAULTS.timeoutMs,
    // The answer served is held to the bound its upstream's body is read to.
    maxOutputBytes: Math.max(2, declaration.maxResponseBytes ?? HTTP_TOOL_DEFAULTS.maxResponseBytes),
    run: unbound,
  });
  // The limits were named above, by the declaration's own member names.
  if (!definition.ok)
    problems.push(
      ...definition.problems.filter((p) => !p.startsWith("defaults.") && !p.startsWith("timeoutMs")),
    );
  if (problems.length > 0 || template === undefined || !definition.ok) return { ok: false, problems };
  return { ok: true, checked: { declaration, template, tool: definition.tool } };
}

/** The declaration's headers with `${NAME}` read from `env`; a problem per header that cannot be. */
export function resolveHeaders(
  declaration: HttpToolDeclaration,
  env: Readonly<Record<string, string | undefined>>,
): { readonly headers: Readonly<Record<string, string>> } | { readonly problems: string[] } {
  const headers: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(declaration.headers ?? {})) {
    const expanded = expandEnvReferences(value, env);
    if ("problem" in expanded) problems.push(`headers.${name} ${expanded.problem}`);
    else if (/[\r\n\0]/.test(expanded.value))
      problems.push(
        `headers.${name}: a variable it reads holds a line break or NUL, which no header may hold`,
      );
    else headers[name] = expanded.value;
  }
  return problems.length > 0 ? { problems } : { headers };
}

/**
 * The checked tool, its `run` now making its request through `upstream` with the resolved
 * `headers`: the template filled from the input (GET and DELETE send the other fields as query
 * parameters; POST, PUT and PATCH the whole input as the JSON body), the call's idempotency key
 * as the `Idempotency-Key` header.
 */
export function bindHttpTool(
  { declaration, template, tool }: CheckedHttpTool,
  headers: Readonly<Record<string, string>>,
  upstream: Upstream,
): CheckedTool {
  const { timeoutMs } = tool.definition;
  const maxResponseBytes = declaration.maxResponseBytes ?? HTTP_TOOL_DEFAULTS.maxResponseBytes;
  const templateFields = new Set([...template.pathFields, ...template.queryFields]);
  const headerFields = Object.entries(declaration.headerFields ?? {});
  const asHeaders = new Set(headerFields.map(([, field]) => field));
  const declared = declaredMembers(declaration.inputSchema);
  const hasBody = WITH_BODY.has(declaration.method);
  const { wrapAnswer } = declaration;
  const run = async (given: Record<string, unknown>, context: ToolContext) => {
    // Only what the schema declares goes out, even where the operator's schema lets more in; a
    // member sent as a header goes nowhere else.
    const input = Object.fromEntries(
      Object.entries(given).filter(([name]) => declared.has(name) && !asHeaders.has(name)),
    );
    const sent: Record<string, string> = { ...headers };
    for (const [header, field] of headerFields)
      if (given[field] !== undefined) sent[header] = String(given[field]);
    if (context.idempotencyKey !== undefined) sent["idempotency-key"] = context.idempotencyKey;
    const asQuery = hasBody
      ? new Set<string>()
      : new Set(Object.keys(input).filter((k) => !templateFields.has(k)));
    const target = expandUrl(template, input, asQuery);
    if ("field" in target)
      throw new UnprocessableInputError(
        `The field ${target.field} cannot make an empty path segment, nor "." or "..".`,
      );
    const result = await upstream.send({
      url: target.url,
      method: declaration.method,
      headers: sent,
      body: hasBody ? JSON.stringify(input) : undefined,
      timeoutMs,
      maxResponseBytes,
      signal: context.signal,
    });
    return outputsOf(result, { tool: declaration.slug, timeoutMs, maxResponseBytes, wrapAnswer });
  };
  return {
    definition: Object.freeze({ ...tool.definition, run }),
    checkOutput: tool.checkOutput,
    timeoutDetail: upstreamTimeout(timeoutMs),
  };
}

/** What a declaration's method makes its effects when it says none; undefined for no method. */
function defaultEffects(method: unknown): ToolEffects | undefined {
  if (method === "GET") return "none";
  return (METHODS as readonly unknown[]).includes(method) ? "external" : undefined;
}

function unbound(): never {
  throw new Error("an HTTP tool runs once bindHttpTool has given it an upstream");
}

/**
 * Upstream statuses that refuse the credentials in the tool's headers (or its proxy's): the
 * operator's to fix, so never blamed on the client's input.
 */
const CREDENTIALS_REFUSED = new Set([401, 403, 407]);

/** The upstream's answer as the call's outputs, or the error the call ends with. */
export function outputsOf(
  result: UpstreamResult,
  limits: {
    readonly tool: string;
    readonly timeoutMs: number;
    readonly maxResponseBytes: number;
    /** The member the answer is put under, whatever its JSON type. */
    readonly wrapAnswer?: string | undefined;
  },
): Record<string, unknown> {
  const { tool, timeoutMs, maxResponseBytes, wrapAnswer } = limits;
  switch (result.kind) {
    case "timeout":
      throw new ToolFailure(upstreamTimeout(timeoutMs));
    case "aborted":
      throw new ToolFailure("The call was stopped before the upstream service answered.");
    case "unreachable":
      throw new ToolFailure(unreachable(result.reason), { reason: result.code });
    case "too_large":
    case "response":
      break;
  }
  // The status decides first: a refusal is a refusal however long its body.
  const { status } = result;
  const failed = { tool, upstreamStatus: status };
  if (CREDENTIALS_REFUSED.has(status))
    throw new ToolFailure(
      `The upstream service refused the tool's configured credentials with HTTP ${status}: the operator must fix them; the input is not at fault.`,
      failed,
    );
  if (status >= 400 && status < 500)
    throw new UnprocessableInputError(`The upstream service refused the input with HTTP ${status}.`);
  if (status >= 300 && status < 400)
    throw new ToolFailure(
      `The upstream service answered HTTP ${status}, a redirect, which is not followed.`,
      failed,
    );
  if (status < 200 || status >= 300)
    throw new ToolFailure(`The upstream service failed with HTTP ${status}.`, failed);
  if (result.kind === "too_large")
    throw new ToolFailure(
      `The upstream service answered HTTP ${status} with a body larger than ${maxResponseBytes} bytes.`,
    );
  // A success without a body (a 204 to a DELETE) has nothing to say beyond its success.
  if (result.body.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(result.body.toString("utf8").replace(/^\uFEFF/, ""));
  } catch {
    throw new ToolFailure(`The upstream service answered HTTP ${status} with a body that is not JSON.`);
  }
  if (wrapAnswer !== undefined) return { [wrapAnswer]: value };
  if (!isObject(value))
    throw new ToolFailure(`The upstream service answered HTTP ${status} with JSON that is not an object.`);
  return value;
}

function upstreamTimeout(timeoutMs: number): string {
  return `The upstream service did not answer within ${timeoutMs} ms.`;
}

function unreachable(reason: Extract<UpstreamResult, { kind: "unreachable" }>["reason"]): string {
  switch (reason) {
    case "refused":
      return "The upstream service refused the connection.";
    case "reset":
      return "The upstream service closed the connection without a complete answer.";
    case "unknown_host":
      return "The upstream service's host name did not resolve.";
    case "other":
      return "The upstream service could not be reached.";
  }
}

function checkHeaders(headers: unknown): string[] {
  if (headers === undefined) return [];
  if (!isObject(headers)) return ["headers must be an object of strings"];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) problems.push(`headers has "${name}", which is not a header name`);
    else if (RESERVED_HEADERS.has(name.toLowerCase()))
      problems.push(`headers.${name} is set by toolrun or the HTTP client and cannot be configured`);
    if (typeof value !== "string") {
      problems.push(`headers.${name} must be a string`);
      continue;
    }
    // The value itself is never quoted: it may be a secret written in the file.
    if (/[\r\n\0]/.test(value)) problems.push(`headers.${name} holds a line break or NUL`);
    const { problem } = envReferences(value);
    if (problem) problems.push(`headers.${name} ${problem}`);
  }
  return problems;
}

/** Every `{field}` of the URL must be a required input property holding a string, number or boolean. */
function checkTemplateFields(template: UrlTemplate, inputSchema: Record<string, unknown>): string[] {
  const properties = isObject(inputSchema.properties) ? inputSchema.properties : {};
  const required = Array.isArray(inputSchema.required) ? inputSchema.required : [];
  const problems: string[] = [];
  for (const field of new Set([...template.pathFields, ...template.queryFields])) {
    const property = Object.hasOwn(properties, field) ? properties[field] : undefined;
    if (!isObject(property)) {
      problems.push(`url has {${field}}, which inputSchema.properties does not declare`);
      continue;
    }
    if (!required.includes(field))
      problems.push(`url has {${field}}, which inputSchema must list as required`);
    const types = Array.isArray(property.type) ? property.type : [property.type];
    if (!types.every((type) => SCALAR_TYPES.has(type as string)))
      problems.push(`url has {${field}}, whose "type" must be string, number, integer or boolean`);
  }
  return problems;
}

/** Keywords with which a schema says what it does with members `properties` does not name. */
const OTHER_MEMBERS = ["additionalProperties", "unevaluatedProperties", "patternProperties"];

/**
 * The schema calls are validated with, and published: members it does not declare refused (400
 * naming them) unless the operator said otherwise, and a string path field that is empty, `.` or
 * `..` refused (400 naming it) rather than making `//` or a segment the URL parser resolves.
 */
function effectiveInputSchema(
  inputSchema: JsonSchema,
  pathFields: readonly string[],
  headerFields: readonly string[],
): JsonSchema {
  const closed = OTHER_MEMBERS.some((keyword) => inputSchema[keyword] !== undefined)
    ? inputSchema
    : { ...inputSchema, additionalProperties: false };
  if (pathFields.length === 0 && headerFields.length === 0) return closed;
  const properties = { ...(inputSchema.properties as Record<string, JsonSchema>) };
  for (const field of headerFields) {
    const property = properties[field] as JsonSchema;
    properties[field] = {
      ...property,
      allOf: [...((property.allOf as JsonSchema[] | undefined) ?? []), HEADER_SAFE],
    };
  }
  for (const field of pathFields) {
    let property = properties[field] as JsonSchema;
    const types = Array.isArray(property.type) ? property.type : [property.type];
    if (!types.includes("string")) continue;
    if (typeof property.minLength !== "number" || property.minLength < 1)
      property = { ...property, minLength: 1 };
    properties[field] =
      property.not === undefined
        ? { ...property, ...DOT_SEGMENTS }
        : { ...property, allOf: [...((property.allOf as JsonSchema[] | undefined) ?? []), DOT_SEGMENTS] };
  }
  return { ...closed, properties };
}

/**
 * Every header a member fills must be a header name toolrun lets an operator set, not one of the
 * fixed `headers`, and name a declared scalar member that the URL does not use.
 */
function checkHeaderFields(
  headerFields: unknown,
  headers: unknown,
  inputSchema: unknown,
  template: UrlTemplate | undefined,
): string[] {
  if (headerFields === undefined) return [];
  if (!isObject(headerFields)) return ["headerFields must be an object of header name to input member"];
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  const fixed = new Set(Object.keys(isObject(headers) ? headers : {}).map((name) => name.toLowerCase()));
  const inUrl = new Set([...(template?.pathFields ?? []), ...(template?.queryFields ?? [])]);
  const problems: string[] = [];
  for (const [name, field] of Object.entries(headerFields)) {
    if (!TOKEN.test(name)) problems.push(`headerFields has "${name}", which is not a header name`);
    else if (RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase() === "authorization")
      problems.push(`headerFields.${name} cannot come from input`);
    else if (fixed.has(name.toLowerCase())) problems.push(`headerFields.${name} is also in headers`);
    const property =
      typeof field === "string" && Object.hasOwn(properties, field) ? properties[field] : undefined;
    if (!isObject(property)) {
      problems.push(`headerFields.${name} must name a member inputSchema.properties declares`);
      continue;
    }
    const types = Array.isArray(property.type) ? property.type : [property.type];
    if (!types.every((type) => SCALAR_TYPES.has(type as string)))
      problems.push(
        `headerFields.${name} names ${String(field)}, whose "type" must be string, number, integer or boolean`,
      );
    if (inUrl.has(String(field)))
      problems.push(`headerFields.${name} names ${String(field)}, which the url uses`);
  }
  return problems;
}

function declaredMembers(inputSchema: JsonSchema): ReadonlySet<string> {
  return new Set(isObject(inputSchema.properties) ? Object.keys(inputSchema.properties) : []);
}

/**
 * A GET or DELETE sends its declared members as query parameters: one named like a parameter the
 * URL fixes would send that parameter twice (`?mode=safe&mode=unsafe`), which upstreams read
 * differently.
 */
function checkFixedQuery(template: UrlTemplate, inputSchema: Record<string, unknown>): string[] {
  const fixed = template.query.flatMap((part) => ("literal" in part ? [part.literal] : [])).join("&");
  const names = new Set(
    fixed
      .split("&")
      .map((pair) => pair.split("=", 1)[0] ?? "")
      .filter((name) => name !== "")
      .map((name) => {
        try {
          return decodeURIComponent(name);
        } catch {
          return name;
        }
      }),
  );
  const templateFields = new Set(template.queryFields);
  return [...declaredMembers(inputSchema)]
    .filter((name) => names.has(name) && !templateFields.has(name))
    .map(
      (name) =>
        `url fixes the query parameter ${name}, which inputSchema also declares: a call would send it twice; write ${name}={${name}} in the url, or leave the member out`,
    );
}
