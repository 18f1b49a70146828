/**
 * The one path every tool call takes, from HTTP and from MCP: resolve the tool, check its size and
 * switches, validate, then one metered call through the ledger: claim the idempotency key if one
 * was sent, reserve the credits, run the pure compute, charge or refund (with the stored answer).
 * Pricing and the answers a call ends with live here only, and so does the choice of the calls whose
 * compute leaves the main thread (offload.ts).
 */
import type { ApiKeyRecord, CallOutcome, RanOutcome, RefusalReason, WorkResult } from "../ports/store.ts";
import { InvalidInputError, UnprocessableInputError } from "../tools/tool.ts";
import { callCost, monthlyAllowance, periodOf, planOf } from "./credits.ts";
import type { CoreDeps } from "./deps.ts";
import { ApiError } from "./errors.ts";
import {
  answerForClaimed,
  type CallAnswer,
  claimFor,
  fingerprintOf,
  isIdempotencyRefusal,
  storeAnswer,
} from "./idempotency.ts";
import { describeJsonSyntaxError } from "./json-syntax.ts";
import {
  type ComputeOffload,
  envelopeHead,
  failureError,
  type OffloadedCall,
  refusalError,
  SerializedOutputs,
} from "./offload.ts";
import type { RegisteredTool } from "./registry.ts";
import { FREE_PLAN_ID } from "./settings.ts";

/** The request body, raw from HTTP or already parsed (MCP arguments) with its serialized size. */
export type CallBody = { readonly raw: Buffer } | { readonly parsed: unknown; readonly bytes: number };

export interface ToolCall {
  readonly key: ApiKeyRecord;
  readonly slug: string;
  readonly body: CallBody;
  readonly requestId: string;
  /** The client's idempotency key, already checked by readIdempotencyKey. */
  readonly idempotencyKey?: string | undefined;
  /**
   * A signal that aborts if the client goes away before its answer: asked for only by a call
   * that waits for a worker thread, which is then dropped without running or charging.
   */
  readonly clientGone?: () => AbortSignal;
}

/** What a call answers: the envelope, and whether it is the stored answer of an earlier request. */
export interface ToolAnswer {
  readonly envelope: Envelope;
  readonly replayed: boolean;
}

export interface Envelope {
  tool: string;
  tool_version: string;
  outputs: Outputs;
  credits_used: number;
  credits_remaining: number | null;
  request_id: string;
}

/** A tool's outputs: as it returned them, or as a worker serialized them. */
export type Outputs = Record<string, unknown> | SerializedOutputs;

export function resolveTool(deps: CoreDeps, slug: string): RegisteredTool {
  const tool = deps.registry.get(slug);
  if (!tool) throw new ApiError("tool_not_found", "No tool has this slug. GET /v1/tools/list lists them.");
  return tool;
}

export async function invokeTool(deps: CoreDeps, call: ToolCall): Promise<ToolAnswer> {
  const tool = resolveTool(deps, call.slug);
  checkSize(tool, call.body);
  const offload = offloadFor(deps, call);
  // A worker parses what it runs.
  const body = offload ? undefined : parseBody(call.body);
  const switches = await deps.switches.of(tool);
  if (!switches.enabled || !switches.api) {
    // A malformed body is answered before a switched-off tool (decisions section 3).
    if (offload) parseBody(call.body);
    if (!switches.enabled)
      throw new ApiError("tool_disabled", `The tool "${tool.slug}" is temporarily disabled.`);
    throw new ApiError("tool_not_allowed", `The tool "${tool.slug}" is not available through the API.`);
  }

  const { settings } = deps;
  const plan = planOf(call.key, settings);
  const now = deps.now();
  const period = periodOf(now);
  const allowance = settings.metering ? monthlyAllowance(call.key, plan, period) : null;
  const credits = callCost(tool.weight, plan, settings);
  // Validated before the 402 (decisions section 3). Without an idempotency key, a worker validates
  // and runs in one trip, unless the balance read just before shows the call cannot be paid for
  // (the ledger still decides); with one, it validates now and runs once the ledger holds the key.
  const work = offload
    ? await offloadedWork(
        offload,
        tool,
        call.body as RawBody,
        async () =>
          call.idempotencyKey === undefined &&
          (allowance === null ||
            (await deps.store.creditsUsed(call.key.id, period.id)) + credits <= allowance),
        call.clientGone?.(),
        call.idempotencyKey !== undefined,
      )
    : inlineWork(tool, body);
  const fingerprint =
    call.idempotencyKey === undefined
      ? undefined
      : fingerprintOf(tool.slug, "raw" in call.body ? call.body.raw : JSON.stringify(call.body.parsed));
  const answerOf = (outcome: CallOutcome<Outputs>): CallAnswer => {
    if (outcome.status === "claimed") return answerForClaimed(outcome.existing, fingerprint ?? "");
    const remaining = allowance === null ? null : Math.max(0, allowance - outcome.creditsUsed);
    if (outcome.status === "refused") return refusal(outcome.reason, tool, plan.label, credits, remaining);
    if (outcome.status === "refunded") return failure(outcome.error, tool, remaining);
    return {
      tool: tool.slug,
      tool_version: tool.definition.version,
      outputs: outcome.value,
      credits_used: credits,
      credits_remaining: remaining,
      request_id: call.requestId,
    };
  };
  const outcome = await deps.store.runCall(
    {
      callId: deps.newCallId(),
      requestId: call.requestId,
      keyId: call.key.id,
      tool: tool.slug,
      period: period.id,
      credits,
      allowance,
      monthlyCallCap: call.key.plan === FREE_PLAN_ID ? tool.freeTierMonthlyCalls : null,
      at: now.toISOString(),
      ...(call.idempotencyKey !== undefined &&
        fingerprint !== undefined && {
          idempotency: claimFor(call.idempotencyKey, fingerprint, now, settings.idempotencyTtlS),
        }),
    },
    work,
    (ran: RanOutcome<Outputs>) => storeAnswer(answerOf(ran), call.requestId),
  );
  const answer = answerOf(outcome);
  const replayed = outcome.status === "claimed" && !isIdempotencyRefusal(answer);
  deps.observer?.toolCall({
    tool: tool.slug,
    keyId: call.key.id,
    requestId: call.requestId,
    outcome: outcome.status === "claimed" ? (replayed ? "replayed" : "refused") : outcome.status,
    credits: outcome.status === "charged" ? credits : 0,
  });
  if (answer instanceof ApiError) throw answer;
  return { envelope: answer, replayed };
}

function refusal(
  reason: RefusalReason,
  tool: RegisteredTool,
  planLabel: string,
  credits: number,
  remaining: number | null,
): ApiError {
  const extras = { credits_used: 0, credits_remaining: remaining ?? 0 };
  if (reason === "tier_limit") {
    return new ApiError(
      "vendor_api_tier_limit_exceeded",
      `The ${planLabel} plan allows ${tool.freeTierMonthlyCalls} calls of "${tool.slug}" per month, all used.`,
      { extras },
    );
  }
  return new ApiError(
    "insufficient_credits",
    `This call costs ${credits} credits and ${remaining ?? 0} remain this month. The allowance renews on the 1st (UTC).`,
    { extras },
  );
}

function failure(error: unknown, tool: RegisteredTool, remaining: number | null): ApiError {
  const refunded: { credits_used: number; credits_remaining?: number } = { credits_used: 0 };
  if (remaining !== null) refunded.credits_remaining = remaining;
  if (error instanceof UnprocessableInputError) {
    return new ApiError("unprocessable_input", error.message, { extras: refunded, cause: error });
  }
  return new ApiError("processing_error", `The tool "${tool.slug}" failed to run. The call was refunded.`, {
    extras: refunded,
    cause: error,
  });
}

/** The tool's pure compute; a failure becomes the status the refunded call ends with. */
export function runTool(
  tool: RegisteredTool,
  input: Record<string, unknown>,
): WorkResult<Record<string, unknown>> {
  try {
    return { ok: true, value: tool.definition.run(input) };
  } catch (error) {
    return { ok: false, httpStatus: error instanceof UnprocessableInputError ? 422 : 500, error };
  }
}

function checkSize(tool: RegisteredTool, body: CallBody): void {
  const bytes = "raw" in body ? body.raw.length : body.bytes;
  if (bytes > tool.maxBodyBytes) {
    throw new ApiError(
      "payload_too_large",
      `The request body is ${bytes} bytes; "${tool.slug}" accepts at most ${tool.maxBodyBytes} bytes.`,
    );
  }
}

/** The body as JSON; a 400 when it is not. */
export function parseBody(body: CallBody): unknown {
  if (!("raw" in body)) return body.parsed;
  if (body.raw.length === 0) throw malformed("The request body is empty; send a JSON object.");
  const text = body.raw.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    // Where, never what: JSON.parse's message quotes the body, which may hold a secret.
    throw malformed(`The request body is not valid JSON: a syntax error${describeJsonSyntaxError(text)}.`);
  }
}

/**
 * The tool's input, checked against its schema and then its rules between fields; a 400 naming the
 * fields when it breaks either.
 */
export function validInput(tool: RegisteredTool, body: unknown): Record<string, unknown> {
  const validation = tool.validate(body);
  if (!validation.ok) {
    throw new ApiError("validation_error", "The request body does not match the tool's input schema.", {
      extras: { fields: validation.fields },
    });
  }
  try {
    tool.definition.checkInput?.(validation.value);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new ApiError("validation_error", "The request body breaks a rule between the tool's fields.", {
      extras: { fields: error.fields },
    });
  }
  return validation.value;
}

/** The work of a call computed on this thread: validated now, run when the ledger says. */
function inlineWork(tool: RegisteredTool, body: unknown): () => WorkResult<Outputs> {
  const input = validInput(tool, body);
  return () => runTool(tool, input);
}

type RawBody = Extract<CallBody, { readonly raw: Buffer }>;

/**
 * The pool for this call, or undefined to compute it on the main thread: raw bodies of the pool's
 * size or more.
 */
function offloadFor(deps: CoreDeps, call: ToolCall): ComputeOffload | undefined {
  const { offload } = deps;
  if (!offload || !("raw" in call.body)) return undefined;
  return call.body.raw.length >= offload.minBytes ? offload : undefined;
}

/**
 * The work of a call computed on a worker: validated and, when `runNow` says so, run there in the
 * same trip, the result handed to the ledger. Otherwise it is run there when the ledger says: once
 * it holds the call's idempotency key, or when it admits a call the balance seemed unable to pay
 * for. A call whose client goes while it waits for the worker is dropped (`signal`), except once
 * its idempotency key is claimed: it then runs, and its answer is kept for the client's retry.
 */
async function offloadedWork(
  offload: ComputeOffload,
  tool: RegisteredTool,
  body: RawBody,
  runNow: () => Promise<boolean>,
  signal: AbortSignal | undefined,
  claimed: boolean,
): Promise<() => WorkResult<Outputs> | Promise<WorkResult<Outputs>>> {
  const answer: OffloadedCall = await offload.call(tool.slug, body.raw, await runNow(), signal);
  if (answer.kind === "refused") throw refusalError(answer);
  if (answer.kind === "valid") {
    return async () => {
      const ran = await offload.call(tool.slug, body.raw, true, claimed ? undefined : signal);
      if (ran.kind === "refused" || ran.kind === "valid")
        throw new Error(`a worker answered "${ran.kind}" to a validated call it was asked to run`);
      return workResultOf(tool, ran);
    };
  }
  const result = workResultOf(tool, answer);
  return () => result;
}

/** What a worker's run gave, as the ledger takes it. */
function workResultOf(
  tool: RegisteredTool,
  answer: Extract<OffloadedCall, { kind: "ran" | "failed" }>,
): WorkResult<Outputs> {
  if (answer.kind === "failed")
    return { ok: false, httpStatus: answer.httpStatus, error: failureError(answer) };
  const head = envelopeHead(tool.slug, tool.definition.version);
  return { ok: true, value: new SerializedOutputs(answer, Buffer.byteLength(head)) };
}

function malformed(detail: string): ApiError {
  return new ApiError("validation_error", detail);
}
