/**
 * One low-level SDK `Server` per HTTP request, bound to that request's key and id. The low-level
 * server is used because it publishes the JSON Schemas it is given as they are (the portable
 * rendering of the tools' own) and leaves argument validation to the pipeline, so MCP and HTTP
 * reject the same input with the same `fields`.
 */
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { translateBackendError } from "../core/backend-errors.ts";
import type { CoreDeps } from "../core/deps.ts";
import { listApiTools } from "./api-tools.ts";
import { callTool, type McpCallContext } from "./call-tool.ts";
import { freeTools } from "./free-tools.ts";
import { INSTRUCTIONS, SERVER_INFO, SUPPORTED_REVISIONS } from "./protocol.ts";

export function createToolServer(deps: CoreDeps, call: McpCallContext): Server {
  const server = new Server(
    { ...SERVER_INFO },
    {
      capabilities: { tools: {} },
      supportedProtocolVersions: [...SUPPORTED_REVISIONS],
      instructions: INSTRUCTIONS,
    },
  );
  server.setRequestHandler("tools/list", async () => {
    try {
      return {
        tools: [...(await listApiTools(deps, call.key)), ...[...freeTools.values()].map((t) => t.definition)],
      };
    } catch (error) {
      throw listFailure(error, call);
    }
  });
  server.setRequestHandler("tools/call", async (request) =>
    callTool(deps, call, request.params.name, request.params.arguments, request.params._meta),
  );
  return server;
}

/**
 * The list reads the operator's switches from the store; when that fails the client gets the code
 * HTTP would give (`backend_unavailable`...) as a JSON-RPC error, never the driver's message.
 */
function listFailure(error: unknown, call: McpCallContext): ProtocolError {
  const known = translateBackendError(error);
  call.logError(error, known?.code ?? "internal_error");
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    known?.detail ?? "Something failed inside the service.",
    { code: known?.code ?? "internal_error" },
  );
}
