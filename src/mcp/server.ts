/**
 * The MCP server: how it names itself, which protocol revisions it speaks (2026-07-28 negotiated
 * through `server/discover`, the 2025 ones through `initialize`), and one low-level SDK `Server` per
 * HTTP request, bound to that request's key and id. The low-level server is used because it
 * publishes the JSON Schemas it is given as they are (the portable rendering of the tools' own) and
 * leaves argument validation to the pipeline, so MCP and HTTP reject the same input with the same
 * `fields`. The 2026-07-28 server also serves the tasks extension (tasks.ts).
 */
import { type CallToolResult, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import pkg from "../../package.json" with { type: "json" };
import type { CoreDeps } from "../core/call/deps.ts";
import { problemFor } from "../core/contract/error-mapper.ts";
import {
  cancelTask,
  declaresTasks,
  getTask,
  TASKS_CAPABILITY,
  taskIdParams,
  tasksRequired,
} from "./tasks.ts";
import { callTool, isToolName, listTools, type McpCallContext, problemContext } from "./tools.ts";
import { traced } from "./tracing.ts";

const MODERN_REVISION = "2026-07-28";

/** The 2025-era revisions clients still use; an `initialize` naming any other is answered with the first. */
const LEGACY_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

/** Newest first: the SDK offers the first 2025-era entry when a client asks for a revision not listed. */
const SUPPORTED_REVISIONS: readonly string[] = [MODERN_REVISION, ...LEGACY_REVISIONS];

const SERVER_INFO = { name: "toolrun", version: pkg.version } as const;

const INSTRUCTIONS =
  "Each tool named by a slug runs a toolrun tool and costs credits (the price is in its description); " +
  "search_tools, describe_tool, get_credits and get_usage are free. A failed call returns isError with an " +
  'RFC 9457 problem document (as text, and in _meta["toolrun/problem"]) whose `code` says what went wrong; ' +
  "refused and failed calls cost nothing.";

/** `modern`: the server answers 2026-07-28 requests, and serves the tasks extension. */
export function createToolServer(deps: CoreDeps, call: McpCallContext, modern = false): Server {
  const server = new Server(
    { ...SERVER_INFO },
    {
      capabilities: modern ? { tools: {}, extensions: { ...TASKS_CAPABILITY } } : { tools: {} },
      supportedProtocolVersions: [...SUPPORTED_REVISIONS],
      instructions: INSTRUCTIONS,
    },
  );
  server.setRequestHandler("tools/list", async (request, ctx) =>
    traced(deps.telemetry, { ...messageOf(ctx), meta: request.params?._meta }, async () => {
      try {
        return { tools: await listTools(deps, call.key) };
      } catch (error) {
        throw internalFailure(deps, error, call);
      }
    }),
  );
  server.setRequestHandler("tools/call", async (request, ctx) =>
    traced(
      deps.telemetry,
      {
        ...messageOf(ctx),
        tool: isToolName(deps, call.key, request.params.name) ? request.params.name : undefined,
        meta: request.params._meta,
      },
      // The client's clientInfo: from this request's envelope under 2026-07-28 (the SDK fills it in
      // per request); a 2025-era client said it in its `initialize`, which this stateless server
      // served in another exchange, so it is not known here. A task is an answer the SDK's
      // 2026-07-28 encoder lets through for tools/call (`resultType`).
      async () =>
        (await callTool(
          deps,
          call,
          request.params.name,
          request.params.arguments,
          request.params._meta,
          server.getClientVersion(),
          declaresTasks(ctx.mcpReq.envelope),
        )) as CallToolResult,
    ),
  );
  if (modern) serveTasks(server, deps, call);
  return server;
}

/** `tasks/get` and `tasks/cancel`, for a request that declares the extension (else -32021). */
function serveTasks(server: Server, deps: CoreDeps, call: McpCallContext): void {
  for (const [method, answer] of [
    ["tasks/get", getTask],
    ["tasks/cancel", cancelTask],
  ] as const) {
    server.setRequestHandler(method, { params: taskIdParams }, async (params, ctx) =>
      traced(deps.telemetry, messageOf(ctx), async () => {
        if (!declaresTasks(ctx.mcpReq.envelope))
          throw tasksRequired(
            `${method} is part of the tasks extension: declare it in the request's capabilities.`,
          );
        try {
          return await answer(deps, call.key, params.taskId);
        } catch (error) {
          throw error instanceof ProtocolError ? error : internalFailure(deps, error, call);
        }
      }),
    );
  }
}

function messageOf(ctx: { readonly mcpReq: { readonly method: string; readonly id: string | number } }) {
  return { method: ctx.mcpReq.method, id: ctx.mcpReq.id };
}

/**
 * The list and the task methods read the store; when that fails the client gets the code HTTP would
 * give (`backend_unavailable`...) as a JSON-RPC error, never the driver's message.
 */
function internalFailure(deps: CoreDeps, error: unknown, call: McpCallContext): ProtocolError {
  const { problem } = problemFor(error, problemContext(deps, call));
  return new ProtocolError(ProtocolErrorCode.InternalError, problem.detail ?? problem.title, {
    code: problem.code,
  });
}
