/**
 * Where a text stops being JSON, for error details that must say where without quoting what
 * (a body may hold a secret; JSON.parse's own message quotes the body's first characters).
 * jsonc-parser locates the first syntax error, run strict (no comments, no trailing commas).
 */
import { type ParseErrorCode, visit } from "jsonc-parser";

export interface JsonSyntaxError {
  /** 1-based line and column of the first character that is not valid JSON there. */
  readonly line: number;
  readonly column: number;
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

/** "at line 1, column 7" for the detail of a malformed body, or "" when no position is known. */
export function describeJsonSyntaxError(text: string): string {
  const at = jsonSyntaxError(text);
  return at ? ` at line ${at.line}, column ${at.column}` : "";
}
