/**
 * The one reader of JSON request bodies, for tool calls, the admin API and MCP, with one set of
 * messages. A message says where a body stops being JSON, never what it holds (a body may hold a
 * secret, and JSON.parse's own message quotes its first characters): jsonc-parser, run strict (no
 * comments, no trailing commas), locates the first syntax error.
 */
import { type ParseErrorCode, visit } from "jsonc-parser";
import { ApiError } from "../contract/errors.ts";

export type JsonBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly detail: string };

export interface JsonSyntaxError {
  /** 1-based line and column of the first character that is not valid JSON there. */
  readonly line: number;
  readonly column: number;
}

/** The body as JSON, or why it is not (the detail of a 400). */
export function readJsonBody(raw: Uint8Array): JsonBody {
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("utf8");
  if (text.trim() === "") return { ok: false, detail: "The request body is empty; send a JSON object." };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, detail: `The request body is not valid JSON: a syntax error${where(text)}.` };
  }
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
