/**
 * The one path every tool call takes, from HTTP and from MCP: resolve the tool, check its size and
 * switches, validate, then one metered call through the ledger: reserve the credits, run the pure
 * compute, charge or refund. Pricing and the errors a call ends with live here only.
 */
import type { ApiKeyRecord, WorkResult } from "../ports/store.ts";
import { UnprocessableInputError } from "../tools/tool.ts";
import { callCost, monthlyAllowance, periodOf, planOf } from "./credits.ts";
import type { CoreDeps } from "./deps.ts";
import { ApiError } from "./errors.ts";
import { describeJsonSyntaxError } from "./json-syntax.ts";
import type { RegisteredTool } from "./registry.ts";
import { FREE_PLAN_ID } from "./settings.ts";

/** The request body, raw from HTTP or already parsed (MCP arguments) with its serialized size. */
export type CallBody = { readonly raw: Buffer } | { readonly parsed: unknown; readonly bytes: number };

export interface ToolCall {
  readonly key: ApiKeyRecord;
  readonly slug: string;
  readonly body: CallBody;
  readonly requestId: string;
}

export interface Envelope {
  tool: string;
  tool_version: string;
  outputs: Record<string, unknown>;
  credits_used: number;
  credits_remaining: number | null;
  request_id: string;
}

export function resolveTool(deps: CoreDeps, slug: string): RegisteredTool {
  const tool = deps.registry.get(slug);
  if (!tool) throw new ApiError("tool_not_found", "No tool has this slug. GET /v1/tools/list lists them.");
  return tool;
}

export async function invokeTool(deps: CoreDeps, call: ToolCall): Promise<Envelope> {
  const tool = resolveTool(deps, call.slug);
  const body = readBody(tool, call.body);
  const switches = await deps.switches.of(tool);
  if (!switches.enabled)
    throw new ApiError("tool_disabled", `The tool "${tool.slug}" is temporarily disabled.`);
  if (!switches.api)
    throw new ApiError("tool_not_allowed", `The tool "${tool.slug}" is not available through the API.`);

  const validation = tool.validate(body);
  if (!validation.ok) {
    throw new ApiError("validation_error", "The request body does not match the tool's input schema.", {
      extras: { fields: validation.fields },
    });
  }

  const { settings } = deps;
  const plan = planOf(call.key, settings);
  const allowance = settings.metering ? monthlyAllowance(call.key, plan) : null;
  const credits = callCost(tool.weight, plan, settings);
  const input = validation.value;
  const now = deps.now();
  const outcome = await deps.store.runCall(
    {
      callId: deps.newCallId(),
      requestId: call.requestId,
      keyId: call.key.id,
      tool: tool.slug,
      period: periodOf(now).id,
      credits,
      allowance,
      monthlyCallCap: call.key.plan === FREE_PLAN_ID ? tool.freeTierMonthlyCalls : null,
      at: now.toISOString(),
    },
    () => runTool(tool, input),
  );
  deps.observer?.toolCall({
    tool: tool.slug,
    keyId: call.key.id,
    requestId: call.requestId,
    outcome: outcome.status,
    credits: outcome.status === "charged" ? credits : 0,
  });
  const remaining = allowance === null ? null : Math.max(0, allowance - outcome.creditsUsed);
  if (outcome.status === "refused") {
    if (outcome.reason === "tier_limit") {
      throw new ApiError(
        "vendor_api_tier_limit_exceeded",
        `The ${plan.label} plan allows ${tool.freeTierMonthlyCalls} calls of "${tool.slug}" per month, all used.`,
        { extras: { credits_used: 0, credits_remaining: remaining ?? 0 } },
      );
    }
    throw new ApiError(
      "insufficient_credits",
      `This call costs ${credits} credits and ${remaining ?? 0} remain this month. The allowance renews on the 1st (UTC).`,
      { extras: { credits_used: 0, credits_remaining: remaining ?? 0 } },
    );
  }
  if (outcome.status === "refunded") {
    const refunded: { credits_used: number; credits_remaining?: number } = { credits_used: 0 };
    if (remaining !== null) refunded.credits_remaining = remaining;
    const { error } = outcome;
    if (error instanceof UnprocessableInputError) {
      throw new ApiError("unprocessable_input", error.message, { extras: refunded, cause: error });
    }
    throw new ApiError("processing_error", `The tool "${tool.slug}" failed to run. The call was refunded.`, {
      extras: refunded,
      cause: error,
    });
  }
  return {
    tool: tool.slug,
    tool_version: tool.definition.version,
    outputs: outcome.value,
    credits_used: credits,
    credits_remaining: remaining,
    request_id: call.requestId,
  };
}

/** The tool's pure compute; a failure becomes the status the refunded call ends with. */
function runTool(tool: RegisteredTool, input: Record<string, unknown>): WorkResult<Record<string, unknown>> {
  try {
    return { ok: true, value: tool.definition.run(input) };
  } catch (error) {
    return { ok: false, httpStatus: error instanceof UnprocessableInputError ? 422 : 500, error };
  }
}

function readBody(tool: RegisteredTool, body: CallBody): unknown {
  const bytes = "raw" in body ? body.raw.length : body.bytes;
  if (bytes > tool.maxBodyBytes) {
    throw new ApiError(
      "payload_too_large",
      `The request body is ${bytes} bytes; "${tool.slug}" accepts at most ${tool.maxBodyBytes} bytes.`,
    );
  }
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

function malformed(detail: string): ApiError {
  return new ApiError("validation_error", detail);
}
