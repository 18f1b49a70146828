/**
 * How a tool call's outcome reaches an MCP client: the same JSON the HTTP API sends, as
 * `structuredContent` and again as one text item for clients that only read text. A failure is a
 * result with `isError` carrying the problem document, not a JSON-RPC error: the tool ran and failed.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ProblemDocument } from "../core/errors.ts";

export function successResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

export function problemResult(problem: ProblemDocument): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(problem) }],
    structuredContent: { ...problem },
    isError: true,
  };
}
