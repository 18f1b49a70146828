/**
 * How a tool call's outcome reaches an MCP client. Success: the same JSON the HTTP API sends, as
 * `structuredContent` and again as one text item for clients that only read text. Failure: a result
 * with `isError` (the tool ran and failed, not a protocol error) whose text is the problem document,
 * with no `structuredContent`, because clients in use today validate `structuredContent` against the
 * success output schema even on errors; programs read the document from `_meta` instead.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ProblemDocument } from "../core/errors.ts";

/** Where a failed call's problem document travels as data (decisions.md section 8). */
export const PROBLEM_META_KEY = "toolrun/problem";

export function successResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

export function problemResult(problem: ProblemDocument): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(problem) }],
    isError: true,
    _meta: { [PROBLEM_META_KEY]: { ...problem } },
  };
}
