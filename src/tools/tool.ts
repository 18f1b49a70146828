/**
 * The contract every tool implements. Tools are pure: they know nothing of HTTP, MCP, storage,
 * credits or keys, and import nothing of ours outside `src/tools/`.
 *
 * The pipeline (src/core/call/invoke.ts) validates the request body against `inputSchema` before
 * `run` is called, after turning numeric strings into numbers for properties declared with
 * `numberOrNumericString` (see ./schema.ts), then calls `checkInput` where a tool has rules between
 * fields that a schema cannot state. `run` therefore receives well-typed, in-bounds input.
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
  /**
   * Rules between fields that the schema cannot state (a value bounded by another field, a field
   * that applies only in some cases). Called after the schema, before anything is charged; throws
   * `InvalidInputError` naming the fields. Optional.
   */
  checkInput?(input: Input): void;
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

/**
 * Thrown by `checkInput` when input that matches the schema breaks a rule between its fields (HTTP
 * 400 `validation_error`, nothing charged). `fields` maps each field to the reason, worded like the
 * schema's own messages ("must be at most the friction angle (30)").
 */
export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
  readonly fields: Readonly<Record<string, string>>;
  constructor(fields: Readonly<Record<string, string>>) {
    super(
      Object.entries(fields)
        .map(([field, reason]) => `${field} ${reason}`)
        .join("; "),
    );
    this.fields = fields;
  }
}

/** Erases the input/output types so tools of different shapes fit in one list. */
export type AnyTool = ToolDefinition<never, Record<string, unknown>>;
