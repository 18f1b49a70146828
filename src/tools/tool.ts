/**
 * The contract every tool implements. Tools are pure: they know nothing of HTTP, MCP, storage,
 * credits or keys, and import nothing of ours outside `src/tools/`.
 *
 * The pipeline (src/core/call/invoke.ts) validates the request body against `inputSchema` before
 * `run` is called, after turning numeric strings into numbers for properties declared with
 * `numberOrNumericString` (see ./schema.ts). `run` therefore receives well-typed, in-bounds input.
 */

/** A JSON Schema 2020-12 document, kept as plain data so it can be published as is. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface ToolExample {
  readonly title: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface ToolDefinition<Input = Record<string, unknown>, Output = Record<string, unknown>> {
  /** URL slug, also the MCP tool name. */
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  /** Extra words for `/v1/tools/search`. */
  readonly keywords: readonly string[];
  /** Output-contract version, three dotted numbers. */
  readonly version: string;
  /** Defaults an operator may override in the configuration file. */
  readonly defaults: { readonly weight: number; readonly maxBodyBytes: number };
  /** JSON Schema 2020-12 of the request body: the one published and the one that validates. */
  readonly inputSchema: JsonSchema;
  /** JSON Schema 2020-12 of `outputs`. */
  readonly outputSchema: JsonSchema;
  readonly examples: readonly ToolExample[];
  /** Pure compute. Throws `UnprocessableInputError` when the input is valid but has no answer. */
  run(input: Input): Output;
}

/**
 * Thrown by `run` when well-formed input has no result (HTTP 422 `unprocessable_input`, refunded).
 * `message` is shown to the client as the problem's `detail`, so write it for a person.
 */
export class UnprocessableInputError extends Error {
  override readonly name = "UnprocessableInputError";
}

/** Erases the input/output types so tools of different shapes fit in one list. */
export type AnyTool = ToolDefinition<never, Record<string, unknown>>;
