/**
 * A server span per MCP request, in the MCP semantic conventions: `tools/call {tool}` (or the
 * method alone), `mcp.method.name`, `jsonrpc.request.id`, and for a tool call `gen_ai.tool.name`
 * with `gen_ai.operation.name` `execute_tool`. Its parent is the context the client put in
 * `params._meta` (`traceparent`) when it sent one, linked to the HTTP request's span; else the
 * HTTP request's span. A result with `isError` sets `error.type` `tool_error`; a JSON-RPC error
 * sets its code.
 */
import { ProtocolError } from "@modelcontextprotocol/server";
import type { Telemetry } from "../ports/telemetry.ts";
import {
  GEN_AI_OPERATION_NAME,
  GEN_AI_TOOL_NAME,
  JSONRPC_REQUEST_ID,
  MCP_METHOD_NAME,
  NETWORK_PROTOCOL_NAME,
  NETWORK_TRANSPORT,
  RPC_RESPONSE_STATUS_CODE,
  TOOL_ERROR,
  TOOLRUN_PROBLEM_CODE,
} from "../ports/trace-attributes.ts";
import { PROBLEM_META_KEY } from "./tool-results.ts";

export interface McpMessage {
  readonly method: string;
  readonly id: string | number;
  /** The tool a `tools/call` names. */
  readonly tool?: string | undefined;
  /** The request's `params._meta`, where a client may send its trace context. */
  readonly meta?: Readonly<Record<string, unknown>> | undefined;
}

export async function traced<R>(
  telemetry: Telemetry | undefined,
  message: McpMessage,
  handle: () => Promise<R>,
): Promise<R> {
  if (telemetry === undefined) return handle();
  const { method, tool } = message;
  const span = telemetry.start(tool === undefined ? method : `${method} ${tool}`, {
    kind: "server",
    parent: message.meta,
    linkCurrent: true,
    attributes: {
      [MCP_METHOD_NAME]: method,
      [JSONRPC_REQUEST_ID]: String(message.id),
      [NETWORK_TRANSPORT]: "tcp",
      [NETWORK_PROTOCOL_NAME]: "http",
      ...(tool === undefined ? {} : { [GEN_AI_TOOL_NAME]: tool, [GEN_AI_OPERATION_NAME]: "execute_tool" }),
    },
  });
  try {
    const result = await telemetry.within(span, handle);
    const problem = toolErrorOf(result);
    if (problem !== undefined) {
      span.fail(TOOL_ERROR);
      if (problem !== "") span.set({ [TOOLRUN_PROBLEM_CODE]: problem });
    }
    return result;
  } catch (error) {
    const code = error instanceof ProtocolError ? String(error.code) : "_OTHER";
    span.set({ [RPC_RESPONSE_STATUS_CODE]: code });
    span.fail(code);
    throw error;
  } finally {
    span.end();
  }
}

/** A result with `isError`: its problem's code ("" when it carries none); else undefined. */
function toolErrorOf(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null || !("isError" in result) || result.isError !== true)
    return undefined;
  const meta = "_meta" in result ? (result._meta as Record<string, unknown> | undefined) : undefined;
  const problem = meta?.[PROBLEM_META_KEY] as { code?: unknown } | undefined;
  return typeof problem?.code === "string" ? problem.code : "";
}
