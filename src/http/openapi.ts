/**
 * The OpenAPI 3.1 document, assembled from the endpoint declarations and the tools' own schemas
 * (2020-12, which 3.1 uses natively). Written here rather than with @fastify/swagger because that
 * plugin reads Fastify's route schemas, which Fastify would also compile (draft-07 Ajv) and use to
 * serialize; our schemas are validated by the core's 2020-12 Ajv, shared with MCP.
 */
import pkg from "../../package.json" with { type: "json" };
import { replayedHeader } from "../core/call/idempotency.ts";
import { envelopeSchema, problemSchema } from "../core/contract/schemas.ts";
import {
  ADMIN_ERRORS,
  type EndpointSpec,
  EVERY_ENDPOINT_ERRORS,
  JSON_TYPE,
  KEYED_ERRORS,
  PATH_PARAMETER_ERRORS,
} from "../core/kernel/endpoint.ts";
import { type ErrorCode, errorCatalog } from "../core/kernel/errors.ts";
import type { RegisteredTool, ToolRegistry } from "../core/tools/registry.ts";
import type { JsonSchema } from "../tools/tool.ts";
import { PROBLEM_CONTENT_TYPE, PROBLEM_REF } from "./problem.ts";

type Json = Record<string, unknown>;

declare module "fastify" {
  interface FastifyInstance {
    /** The app's own OpenAPI document, as `GET /openapi.json` serves it. */
    openApiDocument(): object;
  }
}

/**
 * The schemas are JSON Schema 2020-12, which OpenAPI 3.1's base dialect extends: naming the base
 * dialect (also the default) lets renderers such as Swagger UI treat them as schemas, which they
 * decline to do, with a warning, under any other dialect.
 */
const OAS_BASE_DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base";

export function openApiDocument(
  endpoints: readonly EndpointSpec[],
  registry: ToolRegistry,
  docsUrl: string,
): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const add = (path: string, method: string, operation: Json) => {
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation };
  };
  for (const endpoint of endpoints) add(endpoint.path, endpoint.method, operation(endpoint, docsUrl));
  // Each tool also gets its own path: the generic call's declaration with the tool's schemas.
  const call = endpoints.find((e) => e.method === "POST" && e.path === "/v1/tool/{slug}");
  if (call !== undefined) {
    for (const tool of registry.all())
      add(`/v1/tool/${tool.slug}`, "POST", operation(toolCall(call, tool), docsUrl));
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: OAS_BASE_DIALECT,
    info: {
      title: "toolrun",
      version: pkg.version,
      description: `Runs named tools over HTTP and MCP, with API keys, per-key rate limits and metered credits. Every error is an RFC 9457 problem document (\`application/problem+json\`) whose \`code\` is stable; each code is explained at [${docsUrl}/errors](${docsUrl}/errors).`,
      license: { name: pkg.license, identifier: pkg.license },
    },
    tags: ["Tools", "Catalog", "Account", "MCP", "Health", "Operations", "Admin", "Reference"].map(
      (name) => ({ name }),
    ),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An API key: `Authorization: Bearer <API_KEY>`.",
        },
        adminBearer: {
          type: "http",
          scheme: "bearer",
          description:
            "An admin key (`tr_admin_...`, made by `toolrun admin-keys create`): `Authorization: Bearer <admin key>`. Only the admin API accepts it, and it accepts nothing else.",
        },
      },
      schemas: { Problem: withoutDialect(problemSchema) },
    },
  };
}

function toolCall(call: EndpointSpec, tool: RegisteredTool): EndpointSpec {
  const { parameters: _slug, ...generic } = call;
  const { definition } = tool;
  const path = `/v1/tool/${tool.slug}`;
  const examples = Object.fromEntries(
    definition.examples.map((example, i) => [
      `example${i + 1}`,
      { summary: example.title, value: example.input },
    ]),
  );
  return {
    ...generic,
    path,
    operationId: `callTool.${tool.slug}`,
    summary: definition.name,
    description: `${definition.description}\n\nCosts the key's plan price per call (\`credits\` in \`GET ${path}\`); a call that fails is refunded. At most ${tool.maxBodyBytes} bytes of body.${jobsNote(definition.jobs)}`,
    requestBody: { contentType: JSON_TYPE, schema: definition.inputSchema, examples },
    answers: [
      {
        status: 200,
        description: "The tool ran.",
        contentType: JSON_TYPE,
        schema: envelopeSchema(tool.slug, definition.outputSchema),
        // The generic call's response headers (Idempotent-Replayed) hold for every tool.
        ...(call.answers[0]?.headers && { headers: call.answers[0].headers }),
      },
      // A tool that may run as a job answers it as the generic call does.
      ...(definition.jobs === "no" ? [] : call.answers.filter((answer) => answer.status === 202)),
    ],
    // A tool's own path still answers 404 `tool_not_found` to a key limited to other tools.
    errors: call.errors,
  };
}

function jobsNote(jobs: "no" | "optional" | "required"): string {
  if (jobs === "required") return " Every call runs as a job: 202 with the job (`GET /v1/jobs/{id}`).";
  if (jobs === "optional") return " With `Prefer: respond-async` the call runs as a job: 202 with the job.";
  return "";
}

function operation(endpoint: EndpointSpec, docsUrl: string): Json {
  const op: Json = {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: endpoint.keyed ? [{ bearer: [] }] : endpoint.admin ? [{ adminBearer: [] }] : [],
  };
  if (endpoint.description !== undefined) op.description = endpoint.description;
  const parameters = parametersOf(endpoint);
  if (parameters.length > 0) op.parameters = parameters;
  if (endpoint.requestBody) {
    const { contentType, schema, examples, optional } = endpoint.requestBody;
    const media = { schema: withoutDialect(schema), ...(examples && { examples }) };
    op.requestBody = { required: optional !== true, content: { [contentType]: media } };
  }
  const responses: Record<string, Json> = {};
  for (const answer of endpoint.answers) {
    const existing = responses[String(answer.status)];
    const media = answer.schema === undefined ? {} : { schema: withoutDialect(answer.schema) };
    const content = { ...(existing?.content as Json | undefined) };
    if (answer.contentType !== undefined) content[answer.contentType] = media;
    responses[String(answer.status)] = {
      description: existing
        ? `${existing.description as string} Or: ${answer.description}`
        : answer.description,
      ...(answer.headers && { headers: answer.headers }),
      ...(Object.keys(content).length > 0 && { content }),
    };
  }
  const codes = [
    ...new Set<ErrorCode>([
      ...endpoint.errors,
      ...(endpoint.keyed ? KEYED_ERRORS : []),
      ...(endpoint.admin ? ADMIN_ERRORS : []),
      ...EVERY_ENDPOINT_ERRORS,
      ...(endpoint.path.includes("{") ? PATH_PARAMETER_ERRORS : []),
    ]),
  ];
  for (const [status, group] of byStatus(codes)) {
    const listed = group.map((code) => `[\`${code}\`](${docsUrl}/errors/${code})`).join(", ");
    const existing = responses[status];
    const content = {
      ...(existing?.content as Json | undefined),
      [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF },
    };
    responses[status] = {
      description: existing
        ? `${existing.description as string} Or a problem: ${listed}.`
        : `A problem: ${listed}.`,
      ...(headersOf(group) && { headers: headersOf(group) }),
      content,
    };
  }
  op.responses = responses;
  return op;
}

function parametersOf(endpoint: EndpointSpec): Json[] {
  const inPath = (name: string) => endpoint.path.includes(`{${name}}`);
  return [
    ...parametersFrom(endpoint.parameters, (name) => (inPath(name) ? "path" : "query")),
    ...parametersFrom(endpoint.headers, () => "header"),
  ];
}

function parametersFrom(schema: JsonSchema | undefined, where: (name: string) => string): Json[] {
  if (schema === undefined) return [];
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...rest } = property;
    const location = where(name);
    return {
      name,
      in: location,
      required: location === "path" || required.has(name),
      ...(typeof description === "string" && { description }),
      schema: rest,
    };
  });
}

function byStatus(codes: readonly ErrorCode[]): [string, ErrorCode[]][] {
  const groups = new Map<string, ErrorCode[]>();
  for (const code of codes) {
    const status = String(errorCatalog[code].status);
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

function headersOf(codes: readonly ErrorCode[]): Json | undefined {
  if (codes.includes("method_not_allowed")) {
    return { Allow: { description: "The methods the path accepts.", schema: { type: "string" } } };
  }
  const waits = [
    codes.includes("rate_limited") && "until the window ends (`rate_limited`)",
    codes.includes("too_many_large_calls") &&
      "until the key's large calls likely leave room (`too_many_large_calls`)",
    codes.includes("server_busy") && "before the queue of large calls likely has room (`server_busy`)",
  ].filter((wait): wait is string => wait !== false);
  if (waits.length > 0) {
    const description = `Seconds to wait: ${waits.join("; ")}.`;
    return { "Retry-After": { description, schema: { type: "integer" } } };
  }
  if (codes.includes("idempotency_key_in_use")) {
    return { "Retry-After": { description: "Always 1: retry in a second.", schema: { type: "integer" } } };
  }
  // The answers an Idempotency-Key stores, and replays.
  if (codes.includes("unprocessable_input") || codes.includes("processing_error"))
    return { ...replayedHeader };
  if (codes.includes("invalid_api_key")) {
    return {
      "WWW-Authenticate": { description: 'Always `Bearer realm="toolrun"`.', schema: { type: "string" } },
    };
  }
  return undefined;
}

/** `$schema` belongs at a document's root; inside the OpenAPI document the dialect is declared once. */
function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
