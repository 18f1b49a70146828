/**
 * What a metered call costs, and the answer it ends with once the ledger has spoken: the envelope
 * (charged), the stored answer of an earlier request with the same idempotency key, 402 (refused),
 * or 422 / 500 with the call refunded.
 */
import type { ApiKeyRecord, CallOutcome, RefusalReason } from "../../ports/store.ts";
import { isUnprocessableInputError } from "../../tools/tool.ts";
import {
  callCost,
  creditsRemaining,
  monthlyAllowance,
  type Period,
  periodOf,
  planOf,
} from "../kernel/credits.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Plan } from "../kernel/settings.ts";
import type { RegisteredTool } from "../tools/registry.ts";
import { CLIENT_GONE_STATUS } from "../tools/run.ts";
import { ToolFailure } from "../tools/tool-failure.ts";
import type { CoreDeps } from "./deps.ts";
import { type CallAnswer, type Computed, envelopeAnswer } from "./envelope.ts";
import { answerForClaimed } from "./idempotency.ts";

export interface Price {
  readonly plan: Plan;
  readonly now: Date;
  readonly period: Period;
  /** Credits of the month's allowance (the account's grants come on top); null when metering is off. */
  readonly allowance: number | null;
  /** What the call costs. */
  readonly credits: number;
}

export function priceOf(deps: CoreDeps, tool: RegisteredTool, key: ApiKeyRecord): Price {
  const { settings } = deps;
  const plan = planOf(key, settings);
  const now = deps.now();
  const period = periodOf(now);
  const allowance = settings.metering ? monthlyAllowance(key, plan) : null;
  return { plan, now, period, allowance, credits: callCost(tool.weight, plan, settings) };
}

/** The answer each outcome of the call gives; `fingerprint` is what its idempotency key was claimed for. */
export function answersOf(
  tool: RegisteredTool,
  price: Price,
  requestId: string,
  fingerprint: string | undefined,
): (outcome: CallOutcome<Computed>) => CallAnswer {
  return (outcome) => {
    if (outcome.status === "claimed") return answerForClaimed(outcome.existing, fingerprint ?? "");
    const remaining =
      price.allowance === null
        ? null
        : creditsRemaining(price.allowance, outcome.creditsUsed, outcome.grantsLeft);
    if (outcome.status === "refused") return refusal(outcome.reason, tool, price, remaining);
    if (outcome.status === "refunded") return failure(outcome, tool, remaining);
    const head = {
      tool: tool.slug,
      tool_version: tool.definition.version,
      credits_used: price.credits,
      credits_remaining: remaining,
      request_id: requestId,
    };
    return envelopeAnswer(head, outcome.value);
  };
}

function refusal(
  reason: RefusalReason,
  tool: RegisteredTool,
  price: Price,
  remaining: number | null,
): ApiError {
  const extras = { credits_used: 0, credits_remaining: remaining ?? 0 };
  if (reason === "tier_limit") {
    return new ApiError(
      "vendor_api_tier_limit_exceeded",
      `The ${price.plan.label} plan allows ${tool.freeTierMonthlyCalls} calls of "${tool.slug}" per month, all used.`,
      { extras },
    );
  }
  return new ApiError(
    "insufficient_credits",
    `This call costs ${price.credits} credits and ${remaining ?? 0} remain (this month's allowance and the account's grants). The allowance renews on the 1st (UTC).`,
    { extras },
  );
}

/**
 * A refunded call's answer. What the tool threw is shown only when it is the contract's 422 error
 * (its message is written for the client) or a ToolFailure (toolrun's own words: a timeout, a bad
 * answer, what the upstream did); anything else stays in the logs.
 */
function failure(
  outcome: Extract<CallOutcome<unknown>, { status: "refunded" }>,
  tool: RegisteredTool,
  remaining: number | null,
): ApiError {
  const { error } = outcome;
  const refunded: { credits_used: number; credits_remaining?: number } = { credits_used: 0 };
  if (remaining !== null) refunded.credits_remaining = remaining;
  if (isUnprocessableInputError(error)) {
    return new ApiError("unprocessable_input", error.message, { extras: refunded, cause: error });
  }
  // No client receives it: the request log and the metrics do.
  if (outcome.httpStatus === CLIENT_GONE_STATUS) {
    return new ApiError(
      "client_closed_request",
      "The client closed the connection while the tool ran: it was stopped and the call refunded.",
      { cause: error },
    );
  }
  const said = error instanceof ToolFailure ? `${error.message} ` : "";
  return new ApiError(
    "processing_error",
    `The tool "${tool.slug}" failed to run. ${said}The call was refunded.`,
    {
      extras: refunded,
      cause: error,
    },
  );
}
