/**
 * The public tool contract: what a tool module's default export is, what `run` receives, and the
 * one error that ends a call with 422. The built-in tools (src/tools/<slug>/) and every operator's
 * module are written against these types and loaded by the same loader (src/core/tools/loader.ts);
 * docs/tools/writing-a-tool.md explains them with a worked example.
 *
 * How a module outside this repository uses it. An operator's module may live in any folder that
 * `TOOLRUN_TOOLS` names, with no `node_modules` near it, and Node refuses to strip the types of a
 * `.ts` file inside `node_modules`, so nothing here may have to be resolved at run time:
 * - types come from `import type { ToolDefinition } from "toolrun/tool"` (or a JSDoc
 *   `import("toolrun/tool")` in plain JS): type stripping erases the import, so it is never
 *   resolved when the service runs the module; an editor or `tsc` resolves it through this
 *   package's `exports` entry once toolrun is a dev dependency (`npm i -D /path/to/toolrun`);
 * - the one value a tool needs, the 422 error, is handed to `run` on its context
 *   (`context.UnprocessableInputError`), and `checkInput` returns the fields it refuses instead of
 *   throwing an error of ours, so a module imports nothing of ours at run time.
 * The error is recognised by a brand registered with `Symbol.for`, not by class identity, so one
 * made from another copy of this file (vendored for types, or from another checkout) still ends
 * the call with 422.
 *
 * This file imports nothing, so it type-checks in whatever project includes it.
 */

/** A JSON Schema 2020-12 document, kept as plain data so it can be published as is. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface ToolExample {
  readonly title: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * What calling the tool does outside toolrun. `"none"`: it only computes, so the call is run and
 * then charged in one step. `"external"`: it acts outside (calls an API, sends a message), so its
 * cost is reserved before it runs, captured when it succeeds and released when it fails.
 */
export type ToolEffects = "none" | "external";

/**
 * Whether a call may run as a job, answered 202 at once and read later (`GET /v1/jobs/{id}`):
 * `"no"`, never; `"optional"`, when the client asks (`Prefer: respond-async`, an MCP client with
 * the tasks extension); `"required"`, always. Default `"no"` for a tool that only computes,
 * `"optional"` for one with effects outside. A job may run up to an hour (`timeoutMs`); a
 * synchronous call stops at the service's synchronous limit (`TOOLRUN_SYNC_TIMEOUT_S`).
 */
export type ToolJobs = "no" | "optional" | "required";

/** What `run` receives beside its input. */
export interface ToolContext {
  /** Fires when the tool's `timeoutMs` has passed or the client has gone: stop, and pass it on. */
  readonly signal: AbortSignal;
  /** The call's request id, as the client sees it in the answer and the logs show it. */
  readonly requestId: string;
  /** The configuration file's `tools.<slug>.secrets`, with `${NAME}` replaced from the environment. */
  readonly secrets: Readonly<Record<string, string>>;
  /**
   * Present when the client sent an `Idempotency-Key`: a key derived from it and the account,
   * the same on every retry of the call. Send it with whatever the tool does outside so a retried
   * call never acts twice.
   */
  readonly idempotencyKey: string | undefined;
  /** The error that ends the call with 422, here so a module needs no import at run time. */
  readonly UnprocessableInputError: typeof UnprocessableInputError;
}

/**
 * MCP's behaviour hints, where the tool knows better than toolrun can guess from `effects` and
 * its price: a lookup that changes nothing (`destructiveHint: false`), a call safe to repeat
 * (`idempotentHint: true`), one that reaches the outside world (`openWorldHint: true`). A tool
 * with effects outside is never `readOnlyHint`.
 */
export interface ToolAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolDefinition<Input = Record<string, unknown>, Output = Record<string, unknown>> {
  /** URL slug, also the MCP tool name: lowercase letters, digits and single hyphens, at most 64. */
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  /** Extra words for `/v1/tools/search`. */
  readonly keywords: readonly string[];
  /** Output-contract version, three dotted numbers. */
  readonly version: string;
  /** Defaults an operator may override in the configuration file. */
  readonly defaults: { readonly weight: number; readonly maxBodyBytes: number };
  /** JSON Schema 2020-12 of the request body (an object): the one published and the one that validates. */
  readonly inputSchema: JsonSchema;
  /** JSON Schema 2020-12 of `outputs` (an object). */
  readonly outputSchema: JsonSchema;
  readonly examples: readonly ToolExample[];
  readonly effects: ToolEffects;
  /**
   * How long `run` may take before the call fails and `context.signal` fires; default 30000, at
   * most 300000, or 3600000 (an hour) for a tool whose `jobs` is not `"no"`.
   */
  readonly timeoutMs?: number;
  /** Whether a call may run as a job (ToolJobs); default from `effects`. */
  readonly jobs?: ToolJobs;
  /**
   * The largest `outputs` the tool may answer, in bytes of JSON: past it the call fails (500
   * `processing_error`, refunded) instead of being served and kept for retries. Default 1048576
   * (1 MiB), at most 104857600.
   */
  readonly maxOutputBytes?: number;
  /** MCP's behaviour hints, each replacing the one toolrun derives; optional. */
  readonly annotations?: ToolAnnotations;
  /**
   * Rules between fields that `inputSchema` cannot state (a value bounded by another field, a field
   * that applies only in some cases), checked after it and before anything is charged. Returns the
   * fields it refuses, each with its reason worded like the schema's messages ("must be at most
   * the friction angle (30)"): the call answers 400 `validation_error` naming them. Returns
   * nothing (or `{}`) when the input passes. Optional.
   */
  checkInput?(input: Input): Readonly<Record<string, string>> | undefined;
  /**
   * Receives input already validated against `inputSchema`; returns (or resolves to) the outputs.
   * Throws `UnprocessableInputError` when the input is valid but has no answer (422); anything
   * else it throws ends the call with 500 `processing_error`. Either way the call is refunded.
   */
  run(input: Input, context: ToolContext): Output | Promise<Output>;
}

/** Erases the input/output types so tools of different shapes fit in one list. */
export type AnyToolDefinition = ToolDefinition<never, Record<string, unknown>>;

const BRAND = Symbol.for("toolrun.UnprocessableInputError");

/**
 * Thrown by `run` when well-formed input has no result (HTTP 422 `unprocessable_input`, refunded).
 * `message` is shown to the client as the problem's `detail`, so write it for a person.
 */
export class UnprocessableInputError extends Error {
  override readonly name = "UnprocessableInputError";
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** Whether `error` is the 422 error, made from this copy of the contract or any other. */
export function isUnprocessableInputError(error: unknown): error is UnprocessableInputError {
  return typeof error === "object" && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;
}
