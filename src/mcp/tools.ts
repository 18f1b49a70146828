/**
 * The MCP tools, along the SDK's `tools/list` and `tools/call`: every API tool under its slug (priced
 * for the key, its input schema and the HTTP envelope as output schema) and the free reads of the
 * core table under their MCP names, all in the portable schema rendering MCP clients accept.
 *
 * A call goes through the same core function HTTP calls (invokeTool, startJob or the read), so it
 * is priced, metered, refunded and validated alike; its answer is written as tool-results.ts says.
 * A client with the tasks extension gets a task for a call that may run as a job (tasks.ts).
 */
import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  type Tool,
  type ToolAnnotations,
} from "@modelcontextprotocol/server";
import type { CoreDeps } from "../core/call/deps.ts";
import { jsonText } from "../core/call/envelope.ts";
import { IDEMPOTENCY_META_KEY, isReplayedError, readIdempotencyKey } from "../core/call/idempotency.ts";
import { invokeTool } from "../core/call/invoke.ts";
import { runsAsJob, startJob } from "../core/call/jobs.ts";
import type { Observer } from "../core/call/observer.ts";
import { type ClientInfo, callOrigin } from "../core/call/origin.ts";
import { keyMayUse, toolsForKey } from "../core/call/scope.ts";
import { type FailureLog, type ProblemContext, problemFor } from "../core/contract/error-mapper.ts";
import { type FreeRead, freeReads } from "../core/contract/reads.ts";
import { envelopeSchema } from "../core/contract/schemas.ts";
import { callCost, planOf } from "../core/kernel/credits.ts";
import type { RegisteredTool } from "../core/tools/registry.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { toPortableJsonSchema } from "./portable-schema.ts";
import { type CreateTaskResult, createTaskResult, TASKS_EXTENSION, tasksRequired } from "./tasks.ts";
import { markReplayed, problemResult, successResult } from "./tool-results.ts";

/** Who is calling, within which HTTP request. */
export interface McpCallContext {
  readonly key: ApiKeyRecord;
  /** The HTTP request's id (`x-request-id`): the envelope's and the usage ledger's `request_id`. */
  readonly requestId: string;
  /** Where internal failures are reported; they never reach the client. */
  readonly log: FailureLog;
  /** The request's log line: the tool each call asked for, and a failed call's problem code. */
  readonly note?: (note: { readonly tool?: string; readonly code?: string }) => void;
  /** Hears how each tool call ended, for the same line. */
  readonly observer?: Pick<Observer, "toolCall">;
}

/**
 * The behaviour hints, true to what a call does. A tool that only computes reaches nothing outside
 * the service (never open-world, never destructive), but a charged call spends credits, so it is
 * neither read-only nor idempotent; a free read, or any call while metering is off, changes nothing
 * (a rate-limit slot is traffic, not state the tool changes). A tool with effects outside
 * (`effects: "external"`) acts on a world toolrun cannot see: never read-only, open-world, not
 * idempotent, and possibly destructive (toolrun cannot tell what its upstream does).
 */
export function toolAnnotations(title: string, charged: boolean, external = false): ToolAnnotations {
  if (external)
    return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  return {
    title,
    readOnlyHint: !charged,
    destructiveHint: false,
    idempotentHint: !charged,
    openWorldHint: false,
  };
}

type NamedRead = FreeRead & { readonly mcpName: string };

const reads: ReadonlyMap<string, NamedRead> = new Map(
  freeReads
    .filter((read): read is NamedRead => read.mcpName !== undefined)
    .map((read) => [read.mcpName, read]),
);

const readDefinitions: readonly Tool[] = [...reads.values()].map((read) => ({
  name: read.mcpName,
  title: read.title,
  description: `${read.description} Free: costs no credits (it does take a rate-limit slot).`,
  inputSchema: toPortableJsonSchema(read.parameters) as Tool["inputSchema"],
  outputSchema: toPortableJsonSchema(read.response) as Tool["outputSchema"],
  annotations: toolAnnotations(read.title, false),
}));

export async function listTools(deps: CoreDeps, key: ApiKeyRecord): Promise<Tool[]> {
  const plan = planOf(key, deps.settings);
  const rows = await Promise.all(
    toolsForKey(deps.registry, key).map(async (tool) => ({ tool, switches: await deps.switches.of(tool) })),
  );
  // A tool without API surface is not offered; a disabled one is, and answers tool_disabled.
  const paid = rows
    .filter((row) => row.switches.api)
    .map((row) => apiToolDefinition(row.tool, callCost(row.tool.weight, plan, deps.settings)));
  return [...paid, ...readDefinitions];
}

/** The schemas of a tool never change while it is registered: rendered once per tool. */
const rendered = new WeakMap<RegisteredTool, Pick<Tool, "inputSchema" | "outputSchema">>();

function schemasOf(tool: RegisteredTool): Pick<Tool, "inputSchema" | "outputSchema"> {
  let schemas = rendered.get(tool);
  if (schemas === undefined) {
    const { inputSchema, outputSchema } = tool.definition;
    schemas = {
      inputSchema: toPortableJsonSchema(inputSchema) as Tool["inputSchema"],
      outputSchema: toPortableJsonSchema(envelopeSchema(tool.slug, outputSchema)) as Tool["outputSchema"],
    };
    rendered.set(tool, schemas);
  }
  return schemas;
}

function apiToolDefinition(tool: RegisteredTool, credits: number): Tool {
  const { definition } = tool;
  return {
    name: tool.slug,
    title: definition.name,
    description: `${definition.description}\n\nCosts ${credits} credit${credits === 1 ? "" : "s"} per call for this key; a call that fails is refunded.`,
    ...schemasOf(tool),
    annotations: {
      ...toolAnnotations(definition.name, credits > 0, tool.effects === "external"),
      ...definition.annotations,
    },
  };
}

/**
 * Whether `name` is one of the key's MCP tools: a free read, or an API tool it may use (one
 * outside a scoped key's tools is unknown to it, as a slug no tool has).
 */
export function isToolName(deps: CoreDeps, key: ApiKeyRecord, name: string): boolean {
  return reads.has(name) || (deps.registry.get(name) !== undefined && keyMayUse(key, name));
}

/**
 * Runs the call. `tasks` says the request declared the tasks extension: a tool that may run as a
 * job then runs as one and the answer is its task; without it, a tool whose every call is a job is
 * refused with the missing-capability error, charging nothing, and an `optional` one answers
 * synchronously.
 */
export async function callTool(
  deps: CoreDeps,
  call: McpCallContext,
  name: string,
  args: Record<string, unknown> | undefined,
  meta?: Record<string, unknown>,
  client?: ClientInfo,
  tasks = false,
): Promise<CallToolResult | CreateTaskResult> {
  const read = reads.get(name);
  if (!isToolName(deps, call.key, name)) {
    // Not a tool that ran and failed: the request names nothing we have (a protocol error).
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Unknown tool: tools/list lists them.");
  }
  const tool = read === undefined ? deps.registry.get(name) : undefined;
  if (!tasks && tool?.definition.jobs === "required")
    throw tasksRequired(
      `Every call of "${name}" runs as a job: call it over HTTP (docs/jobs.md), or from a client with the ${TASKS_EXTENSION} extension.`,
    );
  const input = args ?? {};
  try {
    if (read !== undefined) return successResult({ ...(await read.call(deps, call.key, input)) });
    call.note?.({ tool: name });
    const toolCall = {
      key: call.key,
      slug: name,
      origin: callOrigin(call.key, "mcp", client),
      body: { parsed: input, json: JSON.stringify(input) },
      requestId: call.requestId,
      idempotencyKey: readIdempotencyKey(meta?.[IDEMPOTENCY_META_KEY], `_meta.${IDEMPOTENCY_META_KEY}`),
      ...(call.observer && { observer: call.observer }),
    };
    if (tool !== undefined && runsAsJob(tool, tasks)) {
      const started = await startJob(deps, toolCall);
      return markReplayed(createTaskResult(deps, started.job), started.replayed);
    }
    const answer = await invokeTool(deps, toolCall);
    // The envelope's JSON, written before the call was charged, is the text as it is.
    return markReplayed(successResult({ ...answer.envelope }, jsonText(answer)), answer.replayed);
  } catch (error) {
    const mapped = problemFor(error, problemContext(deps, call));
    call.note?.({ code: mapped.problem.code });
    return markReplayed(problemResult(mapped.problem), isReplayedError(mapped.error));
  }
}

/** Where a failure of this call is logged and counted, and the documentation its problem links. */
export function problemContext(deps: CoreDeps, call: McpCallContext): ProblemContext {
  const context = { docsUrl: deps.settings.docsUrl, requestId: call.requestId, log: call.log };
  return deps.observer ? { ...context, observer: deps.observer } : context;
}
