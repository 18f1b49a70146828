/**
 * The one reader of JSON request bodies, for tool calls, the admin API and MCP, with one set of
 * messages. A message says where a body stops being JSON, never what it holds (a body may hold a
 * secret, and JSON.parse's own message quotes its first characters): jsonc-parser, run strict (no
 * comments, no trailing commas), locates the first syntax error. A body nested deeper than
 * MAX_JSON_DEPTH is refused here, before anything that recurses (a validator, JSON.stringify)
 * walks it: JSON.parse itself does not recurse, they do, and thousands of levels overflow a stack.
 */
import { type ParseErrorCode, visit } from "jsonc-parser";
import { ApiError } from "../kernel/errors.ts";

export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly detail: string;
      /** Parsed, but nested deeper than MAX_JSON_DEPTH. */
      readonly tooDeep?: true;
    };

/** Objects and arrays within one another; no tool input or JSON-RPC message needs more. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` has objects or arrays nested more than `max` deep (the top one is 1), without recursing. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== "object" || node === null) continue;
    if (depth > max) return true;
    for (const member of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof member === "object" && member !== null) stack.push([member, depth + 1]);
    }
  }
  return false;
}

export interface JsonSyntaxError {
  /** 1-based line and column of the first character that is not valid JSON there. */
  readonly line: number;
  readonly column: number;
}

/** The body as JSON, or why it is not (the detail of a 400). */
export function readJsonBody(raw: Uint8Array): JsonBody {
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("utf8");
  if (text.trim() === "") return { ok: false, detail: "The request body is empty; send a JSON object." };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, detail: `The request body is not valid JSON: a syntax error${where(text)}.` };
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      tooDeep: true,
      detail: `The request body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`,
    };
  }
  return { ok: true, value };
}

/** The body as JSON; a 400 `validation_error` without `fields` when it is not. */
export function parseJsonBody(raw: Uint8Array): unknown {
  const body = readJsonBody(raw);
  if (!body.ok) throw new ApiError("validation_error", body.detail);
  return body.value;
}

/** The position of the first syntax error in `text`, or null when jsonc-parser finds none. */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  let offset: number | null = null;
  visit(
    text,
    {
      onError: (_error: ParseErrorCode, at: number) => {
        offset ??= at;
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  if (offset === null) return null;
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** " at line 1, column 7", or "" when no position is known. */
function where(text: string): string {
  const at = jsonSyntaxError(text);
  return at ? ` at line ${at.line}, column ${at.column}` : "";
}
