/**
 * The month's first refusal for want of credits, which both ways of calling (a call and a job)
 * record so that `credits.depleted` is sent once, whichever refused first.
 */
import { depletedEvent } from "../kernel/credit-alerts.ts";
import type { RegisteredTool } from "../tools/registry.ts";
import type { Price } from "./answers.ts";
import type { CoreDeps } from "./deps.ts";
import type { ToolCall } from "./tool-call.ts";

/**
 * The account's first refusal of the month for want of credits, with its `credits.depleted` event
 * (the store writes nothing once it is recorded). Failing to record it does not change the
 * client's 402: the next refusal records it.
 */
export async function recordDepletion(
  deps: CoreDeps,
  call: ToolCall,
  tool: RegisteredTool,
  price: Price,
  used: number,
): Promise<void> {
  if (price.allowance === null) return;
  const { accountId } = call.key;
  const period = price.period.id;
  const depletion = {
    accountId,
    period,
    used,
    allowance: price.allowance,
    credits: price.credits,
    tool: tool.slug,
  };
  await deps.store
    .recordDepletion(accountId, period, price.now.toISOString(), [depletedEvent(depletion, price.now)])
    .catch(() => false);
}
