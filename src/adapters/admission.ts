/**
 * Whether a metered call is admitted: the rule the ledgers apply in TypeScript (PostgreSQL's
 * transactions apply it in SQL, as `toolrun_refusal`, written the same way). The tool's monthly cap
 * first, since when both refuse more credits would not help; then the allowance. `activeCalls` is
 * read only when the tool has a cap.
 */
import type { RefusalReason, Reservation } from "../ports/store.ts";

export function refusalOf(
  r: Reservation,
  creditsUsed: number,
  activeCalls: () => number,
): RefusalReason | null {
  if (r.monthlyCallCap !== null && activeCalls() >= r.monthlyCallCap) return "tier_limit";
  if (r.allowance !== null && creditsUsed + r.credits > r.allowance) return "insufficient_credits";
  return null;
}
