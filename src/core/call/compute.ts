/**
 * Where a call's compute runs: on this thread, or, for a raw body of the offload's size or more,
 * through the compute offload (ports/compute-offload.ts), whose answers become the same ones this
 * thread gives. Either way the body is read (400), checked against the tool's input schema (400
 * naming the fields), and run only when the ledger says.
 */
import type { ComputeAnswer, ComputeOffload } from "../../ports/compute-offload.ts";
import type { WorkResult } from "../../ports/store.ts";
import { UnprocessableInputError } from "../../tools/tool.ts";
import { ApiError } from "../kernel/errors.ts";
import type { RegisteredTool } from "../tools/registry.ts";
import { outputSizeFailure, type RunOptions, type ToolRunResult } from "../tools/run.ts";
import { ToolFailure } from "../tools/tool-failure.ts";
import type { CoreDeps } from "./deps.ts";
import { type Computed, computedOf, outputsJson, WrittenOutputs, WrittenText } from "./envelope.ts";
import { parseJsonBody } from "./json-body.ts";
import type { ToolCall } from "./tool-call.ts";

/** What the ledger runs once it admits the call. */
export type Work = () => WorkResult<Computed> | Promise<WorkResult<Computed>>;

export interface CallCompute {
  /** 400 when the body is not JSON. A body the offload reads is read here only when this is asked. */
  readJson(): void;
  /**
   * 400 naming the bad fields, else the work. `runNow` says whether the offload may run the call in
   * the trip that validates it (the ledger will most likely admit it).
   */
  validate(runNow: () => Promise<boolean>): Promise<Work>;
}

export const INPUT_MISMATCH = "The request body does not match the tool's input schema.";

/**
 * Computing tools (`effects: "none"`) go to the offload with a large raw body: the worker imports
 * the built-in tools and the operator's module tools. A tool with effects outside stays here: its
 * wait costs this thread nothing, and its body is no larger than an HTTP API takes.
 */
export function computeOf(
  deps: CoreDeps,
  tool: RegisteredTool,
  call: ToolCall,
  run: RunOptions,
): CallCompute {
  const { offload } = deps;
  const { body } = call;
  if (offload && runsOnWorker(tool) && "raw" in body && body.raw.length >= offload.minBytes) {
    const claimed = call.idempotencyKey !== undefined;
    return offloaded(
      offload,
      tool,
      { raw: body.raw, owner: call.key.id, requestId: call.requestId },
      claimed,
      call.clientGone?.(),
    );
  }
  const json = "raw" in body ? parseJsonBody(body.raw) : body.parsed;
  return {
    readJson() {},
    async validate() {
      const input = validInput(tool, json);
      return () => {
        const result = tool.run(input, run);
        return "then" in result ? result.then((ran) => computed(tool, ran)) : computed(tool, result);
      };
    },
  };
}

/** A tool the worker has too: one that only computes, which an HTTP lookup (no effects either) is not. */
function runsOnWorker(tool: RegisteredTool): boolean {
  return tool.effects === "none" && tool.origin.kind !== "http";
}

/**
 * A run on this thread, its outputs written as the envelope's JSON before the ledger charges it,
 * and held to the tool's maxOutputBytes there (the run is told so: writesOutputs).
 */
function computed(tool: RegisteredTool, result: ToolRunResult): WorkResult<Computed> {
  if (!result.ok) return result;
  const text = outputsJson(result.value);
  if (text instanceof ToolFailure) return { ok: false, httpStatus: 500, error: text };
  const tooLarge = outputSizeFailure(tool.definition, Buffer.byteLength(text));
  if (tooLarge) return { ok: false, httpStatus: 500, error: tooLarge };
  return { ok: true, value: computedOf(new WrittenText(tool.slug, tool.definition.version, text)) };
}

/**
 * The offload validates the call and, when `runNow` says so, runs it in the same trip. Otherwise
 * it runs it when the ledger says: once the ledger holds the call's idempotency key, or when it
 * admits a call the balance seemed unable to pay for. A call whose client goes while it waits is
 * dropped (`signal`), except once its idempotency key is claimed: it then runs, and its answer is
 * kept for the client's retry.
 */
function offloaded(
  offload: ComputeOffload,
  tool: RegisteredTool,
  { raw, owner, requestId }: { readonly raw: Buffer; readonly owner: string; readonly requestId: string },
  claimed: boolean,
  signal: AbortSignal | undefined,
): CallCompute {
  const slug = tool.slug;
  return {
    readJson: () => void parseJsonBody(raw),
    async validate(runNow) {
      const answer = await offload.compute({ slug, raw, owner, requestId, run: await runNow() }, signal);
      if (answer.kind === "refused") throw invalidBody(answer);
      if (answer.kind === "valid") {
        return async () =>
          resultOf(
            tool,
            await offload.compute({ slug, raw, owner, requestId, run: true }, claimed ? undefined : signal),
          );
      }
      const result = resultOf(tool, answer);
      return () => result;
    },
  };
}

/** The tool's input, checked against its schema; a 400 naming the fields when it does not match. */
export function validInput(tool: RegisteredTool, body: unknown): Record<string, unknown> {
  const validation = tool.validate(body);
  if (!validation.ok)
    throw new ApiError("validation_error", INPUT_MISMATCH, { extras: { fields: validation.fields } });
  return validation.value;
}

function invalidBody(answer: Extract<ComputeAnswer, { kind: "refused" }>): ApiError {
  return new ApiError(
    "validation_error",
    answer.detail,
    answer.fields === undefined ? {} : { extras: { fields: answer.fields } },
  );
}

/** What the offload's run gave, as the ledger takes it; its failure rebuilt as this thread would have thrown it. */
function resultOf(tool: RegisteredTool, answer: ComputeAnswer): WorkResult<Computed> {
  if (answer.kind === "ran")
    return { ok: true, value: computedOf(new WrittenOutputs(tool.slug, tool.definition.version, answer)) };
  if (answer.kind === "failed") {
    const error =
      answer.httpStatus === 422
        ? new UnprocessableInputError(answer.message)
        : answer.shown
          ? new ToolFailure(answer.message)
          : new Error(answer.message);
    if (answer.stack !== undefined) error.stack = answer.stack;
    return { ok: false, httpStatus: answer.httpStatus, error };
  }
  throw new Error(`the compute offload answered "${answer.kind}" to a validated call it was asked to run`);
}
