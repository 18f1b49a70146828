/**
 * One run of a checked tool, as the ledger takes it: the outputs, or the status the refunded call
 * ends with. The context's signal fires at the tool's timeout or when the client goes, and the run
 * ends then whether or not the tool heeds it. A tool that answers synchronously gets its result
 * back synchronously, with no timer, promise or signal made for it unless it asks for the signal
 * (nor is the client's signal asked for): the built-in computing tools keep the cost they had.
 * A tool with effects outside does not start for a client already gone, and once started runs to
 * its end whatever the client does: its effect may already have happened, and must be charged.
 */
import type { WorkResult } from "../../ports/store.ts";
import { isUnprocessableInputError, type ToolContext, UnprocessableInputError } from "../../tools/tool.ts";
import { type CheckedTool, isObject } from "./check-definition.ts";
import { asToolRun } from "./running-tool.ts";
import { ToolFailure } from "./tool-failure.ts";

/** What one run of a tool is told of its call: what its context (ToolContext) is made of. */
export interface RunOptions {
  readonly requestId: string;
  /** The key derived for outward calls from the client's `Idempotency-Key`, when it sent one. */
  readonly idempotencyKey?: string | undefined;
  /** The tool's own secrets, from the configuration (the registry adds them). */
  readonly secrets?: Readonly<Record<string, string>> | undefined;
  /**
   * A signal that fires when the call's client has gone (the tool's signal fires with it); asked
   * for only by a run that waits. A tool with effects outside is only kept from starting by it.
   */
  readonly clientGone?: (() => AbortSignal) | undefined;
  /** How long the run may take, when not the tool's `timeoutMs` (a synchronous call of a job tool). */
  readonly timeoutMs?: number | undefined;
  /**
   * Fires the tool's signal and ends the run (a job canceled), even for a tool with effects
   * outside: its client asked for it to stop.
   */
  readonly cancel?: AbortSignal | undefined;
  /** The caller holds the outputs to `maxOutputBytes` where it writes them as JSON. */
  readonly writesOutputs?: boolean | undefined;
}

export type ToolRunResult = WorkResult<Record<string, unknown>>;

/** The status of a call whose client went away before its tool finished (nginx's, as the logs use). */
export const CLIENT_GONE_STATUS = 499;

/** The status of a job's run its client canceled (nothing answers with it: the job ends `canceled`). */
export const CANCELED_STATUS = 499;

const NO_SECRETS: Readonly<Record<string, string>> = Object.freeze({});

export function runToolCall(
  tool: CheckedTool,
  input: Record<string, unknown>,
  options: RunOptions,
): ToolRunResult | Promise<ToolRunResult> {
  const { effects } = tool.definition;
  const timeoutMs = options.timeoutMs ?? tool.definition.timeoutMs;
  if (effects === "external" && options.clientGone?.().aborted)
    return { ok: false, httpStatus: CLIENT_GONE_STATUS, error: clientWentAway() };
  const started = performance.now();
  const context = new RunContext(options);
  let value: unknown;
  try {
    value = asToolRun(tool.definition.slug, () => tool.definition.run(input, context));
  } catch (error) {
    return failed(error);
  }
  const measured = options.writesOutputs !== true;
  if (!isThenable(value)) return checked(tool, value, measured);

  // Once a tool with effects outside has started, its request may have acted: it is not stopped.
  const gone = effects === "external" ? undefined : options.clientGone?.();
  const { cancel } = options;
  return new Promise<ToolRunResult>((resolve) => {
    let settled = false;
    const finish = (result: ToolRunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      gone?.removeEventListener("abort", onGone);
      cancel?.removeEventListener("abort", onCancel);
      resolve(result);
    };
    const timer = setTimeout(
      // After the loop's poll: a timer that fired late (the loop was held) first lets the answer
      // that came meanwhile be read, rather than give away an effect that happened.
      () =>
        setImmediate(() => {
          if (settled) return;
          const error = new ToolFailure(
            options.timeoutMs === undefined && tool.timeoutDetail !== undefined
              ? tool.timeoutDetail
              : `The tool did not finish within ${timeoutMs} ms.`,
          );
          RunContext.abort(context, error);
          finish({ ok: false, httpStatus: 500, error });
        }),
      Math.max(0, timeoutMs - (performance.now() - started)),
    );
    const onGone = () => {
      const error = clientWentAway();
      RunContext.abort(context, error);
      finish({ ok: false, httpStatus: CLIENT_GONE_STATUS, error });
    };
    if (gone?.aborted) onGone();
    else gone?.addEventListener("abort", onGone, { once: true });
    const onCancel = () => {
      const error = new ToolFailure("The job was canceled.");
      RunContext.abort(context, error);
      finish({ ok: false, httpStatus: CANCELED_STATUS, error });
    };
    if (cancel?.aborted) onCancel();
    else cancel?.addEventListener("abort", onCancel, { once: true });
    (value as PromiseLike<unknown>).then(
      (outputs) => finish(checked(tool, outputs, measured)),
      (error: unknown) => finish(failed(error)),
    );
  });
}

/**
 * What `run` is given. A class, not an object literal with a getter, so that making one costs a
 * synchronous tool next to nothing; its signal is made only when the tool asks for it.
 */
class RunContext implements ToolContext {
  readonly requestId: string;
  readonly secrets: Readonly<Record<string, string>>;
  readonly idempotencyKey: string | undefined;
  #controller: AbortController | undefined;
  #abortedWith: Error | undefined;

  constructor(options: RunOptions) {
    this.requestId = options.requestId;
    this.secrets = options.secrets ?? NO_SECRETS;
    this.idempotencyKey = options.idempotencyKey;
  }

  get UnprocessableInputError(): typeof UnprocessableInputError {
    return UnprocessableInputError;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#abortedWith) this.#controller.abort(this.#abortedWith);
    }
    return this.#controller.signal;
  }

  /** Fires the context's signal (now, or when the tool first asks for it). */
  static abort(context: RunContext, reason: Error): void {
    context.#abortedWith = reason;
    context.#controller?.abort(reason);
  }
}

function clientWentAway(): ToolFailure {
  return new ToolFailure("The client went away before the tool finished.");
}

function checked(tool: CheckedTool, value: unknown, measured: boolean): ToolRunResult {
  if (!isObject(value))
    return { ok: false, httpStatus: 500, error: new ToolFailure("The tool's answer is not a JSON object.") };
  const problem = tool.checkOutput(value);
  if (problem !== "") {
    return {
      ok: false,
      httpStatus: 500,
      error: new ToolFailure("The tool's answer does not match its output schema.", { reason: problem }),
    };
  }
  const tooLarge = measured ? outputSizeFailure(tool.definition, answerBytes(value)) : undefined;
  return tooLarge ? { ok: false, httpStatus: 500, error: tooLarge } : { ok: true, value };
}

/** The answer's size as JSON; 0 when it cannot be written as JSON, which is not this check's to say. */
function answerBytes(value: Record<string, unknown>): number {
  try {
    return Buffer.byteLength(JSON.stringify(value));
  } catch {
    return 0;
  }
}

/**
 * The failure of an answer of `bytes` bytes of JSON larger than the tool may give: it is neither
 * served nor kept for retries, however it was computed.
 */
export function outputSizeFailure(
  definition: { readonly maxOutputBytes: number },
  bytes: number,
): ToolFailure | undefined {
  if (bytes <= definition.maxOutputBytes) return undefined;
  return new ToolFailure(
    `The tool's answer is ${bytes} bytes of JSON, more than the ${definition.maxOutputBytes} it may give.`,
  );
}

function failed(error: unknown): ToolRunResult {
  return { ok: false, httpStatus: isUnprocessableInputError(error) ? 422 : 500, error };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}
