/**
 * How a tool call's answer is written as an MCP `CallToolResult`, whether it answers the call at
 * once or completes a task later. Success: the HTTP JSON as `structuredContent` and again as one
 * text item for clients that only read text. Failure: an `isError` result (the tool ran and failed,
 * not a protocol error) whose text is the problem document, with no `structuredContent` because
 * clients in use today validate it against the success schema even on errors; programs read the
 * document from `_meta`.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { REPLAYED_META_KEY } from "../core/call/idempotency.ts";
import type { ProblemDocument } from "../core/kernel/errors.ts";

/** Where a failed call's problem document travels as data. */
export const PROBLEM_META_KEY = "toolrun/problem";

export function successResult(value: Record<string, unknown>, text = JSON.stringify(value)): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: value };
}

export function problemResult(problem: ProblemDocument): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(problem) }],
    isError: true,
    _meta: { [PROBLEM_META_KEY]: { ...problem } },
  };
}

/** A replayed answer says so in `_meta`, as HTTP does with `Idempotent-Replayed: true`. */
export function markReplayed<T extends { _meta?: Record<string, unknown> }>(result: T, replayed: boolean): T {
  return replayed ? { ...result, _meta: { ...result._meta, [REPLAYED_META_KEY]: true } } : result;
}
