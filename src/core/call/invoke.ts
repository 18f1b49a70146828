/**
 * The one path every tool call takes, from HTTP and from MCP, in the order its checks are answered:
 * the tool as the key sees it (404), the key's access (403 `key_read_only`), the body's size (413) and JSON (400), the operator's switches (503, 403), the
 * fields (400), then one metered call through the ledger: the idempotency key claimed if one was
 * sent, the credits (402), the run, and the charge or the refund (with the answer kept for the
 * key's retries). A tool that only computes runs, then is charged; one with effects outside is
 * reserved before it runs, then captured or released. docs/architecture.md walks through it.
 */
import type { CallOutcome, IdempotencyClaim } from "../../ports/store.ts";
import { creditsRemaining, grantsLeft } from "../kernel/credits.ts";
import { ApiError } from "../kernel/errors.ts";
import { syncTimeoutOf } from "../tools/loader.ts";
import type { RegisteredTool } from "../tools/registry.ts";
import { ToolFailure } from "../tools/tool-failure.ts";
import { answersOf, type Price, priceOf } from "./answers.ts";
import { type CallCompute, computeOf } from "./compute.ts";
import { recordDepletion } from "./depletion.ts";
import type { CoreDeps } from "./deps.ts";
import type { CallAnswer, Computed, ToolAnswer } from "./envelope.ts";
import {
  claimFor,
  fingerprintOf,
  isIdempotencyRefusal,
  keyInUse,
  outwardKeyOf,
  storeAnswer,
} from "./idempotency.ts";
import type { ToolCallOutcome } from "./observer.ts";
import { reservationOf } from "./reservation.ts";
import { checkMayCall, resolveForKey } from "./scope.ts";
import type { CallBody, ToolCall } from "./tool-call.ts";

export async function invokeTool(deps: CoreDeps, call: ToolCall): Promise<ToolAnswer> {
  const tool = resolveForKey(deps.registry, call.key, call.slug);
  checkMayCall(call.key, tool);
  checkSize(tool, call.body);
  const keyed = call.idempotencyKey !== undefined;
  const compute = computeOf(deps, tool, call, {
    requestId: call.requestId,
    idempotencyKey: keyed ? outwardKeyOf(call.key.accountId, call.idempotencyKey) : undefined,
    clientGone: keyed ? undefined : call.clientGone,
    writesOutputs: true,
    ...(tool.definition.jobs !== "no" && {
      timeoutMs: syncTimeoutOf(tool.definition, deps.settings.syncTimeoutS * 1000),
    }),
  });
  await checkSwitches(deps, tool, compute);
  const price = priceOf(deps, tool, call.key);
  const claim = claimOf(deps, tool, call, price.now);
  if (claim === undefined) return meteredCall(deps, call, tool, compute, price, undefined);
  // A retry of a call still running here is told so before it waits for anything.
  const leave = deps.keyedCalls.enter(call.key.accountId, claim.key, claim.fingerprint);
  if (leave === null) {
    report(deps, call, { tool: tool.slug, outcome: "refused", credits: 0 });
    throw keyInUse();
  }
  try {
    return await meteredCall(deps, call, tool, compute, price, claim);
  } finally {
    leave();
  }
}

/** The call through the ledger: validated, then admitted, run and charged, or refused or refunded. */
async function meteredCall(
  deps: CoreDeps,
  call: ToolCall,
  tool: RegisteredTool,
  compute: CallCompute,
  price: Price,
  claim: IdempotencyClaim | undefined,
): Promise<ToolAnswer> {
  const work = await compute.validate(
    async () => call.idempotencyKey === undefined && (await canPay(deps, call, price)),
  );
  const answerOf = answersOf(tool, price, call.requestId, claim?.fingerprint);
  const way = tool.effects === "external" ? "runReservedCall" : "runCall";
  const outcome = await deps.store[way](
    { ...reservationOf(call, tool, price, deps.newCallId()), ...(claim && { idempotency: claim }) },
    work,
    (ran) => storeAnswer(answerOf(ran), call.requestId),
  );
  if (outcome.status === "refused" && outcome.reason === "insufficient_credits")
    await recordDepletion(deps, call, tool, price, outcome.creditsUsed);
  const answer = answerOf(outcome);
  report(deps, call, {
    tool: tool.slug,
    outcome: outcomeOf(outcome, answer),
    credits: outcome.status === "charged" ? price.credits : 0,
    ...upstreamStatusOf(outcome),
  });
  if (answer instanceof ApiError) throw answer;
  return answer;
}

export function checkSize(tool: RegisteredTool, body: CallBody): void {
  const bytes = "raw" in body ? body.raw.length : Buffer.byteLength(body.json);
  if (bytes > tool.maxBodyBytes) {
    throw new ApiError(
      "payload_too_large",
      `The request body is ${bytes} bytes; "${tool.slug}" accepts at most ${tool.maxBodyBytes} bytes.`,
    );
  }
}

/** A switched-off tool answers 503 or 403, after a body that is not JSON has had its 400. */
export async function checkSwitches(
  deps: CoreDeps,
  tool: RegisteredTool,
  compute: CallCompute,
): Promise<void> {
  const switches = await deps.switches.of(tool);
  if (switches.enabled && switches.api) return;
  compute.readJson();
  if (!switches.enabled)
    throw new ApiError("tool_disabled", `The tool "${tool.slug}" is temporarily disabled.`);
  throw new ApiError("tool_not_allowed", `The tool "${tool.slug}" is not available through the API.`);
}

/** The call's claim on its idempotency key: what it asks for (the tool and the exact body), until when. */
function claimOf(deps: CoreDeps, tool: RegisteredTool, call: ToolCall, now: Date) {
  if (call.idempotencyKey === undefined) return undefined;
  const body = "raw" in call.body ? call.body.raw : call.body.json;
  return claimFor(call.idempotencyKey, fingerprintOf(tool.slug, body), now, deps.settings.idempotencyTtlS);
}

/**
 * Whether the balance read now can pay for the call (the ledger still decides): the allowance, and
 * only when it cannot pay alone, the account's grants.
 */
async function canPay(deps: CoreDeps, call: ToolCall, price: Price): Promise<boolean> {
  if (price.allowance === null) return true;
  const used = await deps.store.creditsUsed(call.key.accountId, price.period.id);
  if (used + price.credits <= price.allowance) return true;
  const grants = await deps.store.listGrants(call.key.accountId, price.now.toISOString());
  return price.credits <= creditsRemaining(price.allowance, used, grantsLeft(grants));
}

function outcomeOf(outcome: CallOutcome<Computed>, answer: CallAnswer): ToolCallOutcome {
  if (outcome.status !== "claimed") return outcome.status;
  return isIdempotencyRefusal(answer) ? "refused" : "replayed";
}

/** The upstream status a refunded call failed on, for the metrics. */
function upstreamStatusOf(outcome: CallOutcome<Computed>): { upstreamStatus?: number } {
  if (outcome.status !== "refunded" || !(outcome.error instanceof ToolFailure)) return {};
  const { upstreamStatus } = outcome.error;
  return upstreamStatus === undefined ? {} : { upstreamStatus };
}

export function report(
  deps: CoreDeps,
  call: ToolCall,
  event: { readonly tool: string; readonly outcome: ToolCallOutcome; readonly credits: number },
): void {
  const heard = { ...event, keyId: call.key.id, requestId: call.requestId };
  deps.observer?.toolCall(heard);
  call.observer?.toolCall(heard);
}
