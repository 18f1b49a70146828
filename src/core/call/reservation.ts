/**
 * The ledger's record of a call, as a call and a job hand it over: who calls (and how), which
 * tool, and what it costs this month.
 */
import type { Reservation } from "../../ports/store.ts";
import { FREE_PLAN_ID } from "../kernel/settings.ts";
import type { RegisteredTool } from "../tools/registry.ts";
import type { Price } from "./answers.ts";
import type { ToolCall } from "./tool-call.ts";

export function reservationOf(
  call: ToolCall,
  tool: RegisteredTool,
  price: Price,
  callId: string,
): Reservation {
  return {
    callId,
    requestId: call.requestId,
    accountId: call.key.accountId,
    keyId: call.key.id,
    tool: tool.slug,
    period: price.period.id,
    credits: price.credits,
    allowance: price.allowance,
    monthlyCallCap: call.key.plan === FREE_PLAN_ID ? tool.freeTierMonthlyCalls : null,
    at: price.now.toISOString(),
    origin: call.origin,
  };
}
