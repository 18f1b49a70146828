/**
 * Whether a metered call is admitted: the rule every ledger applies (PostgreSQL's functions
 * toolrun_reserve and toolrun_call state it again in SQL). The tool's monthly cap first, since when
 * both refuse more credits would not help; then the allowance. `activeCalls` is read only when the
 * tool has a cap.
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
