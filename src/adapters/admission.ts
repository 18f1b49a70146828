/**
 * Whether a metered call is admitted, and which pools pay for it: the rules the ledgers apply in
 * TypeScript (PostgreSQL's transactions apply them in SQL, as `toolrun_refusal` and
 * `toolrun_record_call`, written the same way). The tool's monthly cap first, since when both
 * refuse more credits would not help; then the credits: what is left of the period's allowance,
 * then the account's live grants. `activeCalls` is read only when the tool has a cap, `grantsLeft`
 * only when the allowance alone cannot pay.
 */
import type { RefusalReason, Reservation } from "../ports/store.ts";

export function refusalOf(
  r: Reservation,
  creditsUsed: number,
  grantsLeft: () => number,
  activeCalls: () => number,
): RefusalReason | null {
  if (r.monthlyCallCap !== null && activeCalls() >= r.monthlyCallCap) return "tier_limit";
  if (
    r.allowance !== null &&
    r.credits > allowanceLeft(r.allowance, creditsUsed) &&
    r.credits > allowanceLeft(r.allowance, creditsUsed) + grantsLeft()
  )
    return "insufficient_credits";
  return null;
}

/** What the allowance has left (none when lowered below what was used). */
export function allowanceLeft(allowance: number, creditsUsed: number): number {
  return Math.max(0, allowance - creditsUsed);
}

/**
 * The part of an admitted call's credits its allowance pays; the rest comes from grants. Without
 * metering (a null allowance) the allowance pays all, as it always did.
 */
export function allowancePart(r: Reservation, creditsUsed: number): number {
  return r.allowance === null ? r.credits : Math.min(r.credits, allowanceLeft(r.allowance, creditsUsed));
}

/** A grant's share of a call's credits. */
export interface GrantPart {
  readonly grant: string;
  readonly credits: number;
}

/**
 * The parts of `credits` the grants pay, taken from `grants` in the order given (spend order):
 * each to its last credit before the next.
 */
export function grantParts(
  grants: readonly { readonly id: string; readonly remaining: number }[],
  credits: number,
): GrantPart[] {
  const parts: GrantPart[] = [];
  let owed = credits;
  for (const grant of grants) {
    if (owed === 0) break;
    const taken = Math.min(owed, grant.remaining);
    if (taken > 0) parts.push({ grant: grant.id, credits: taken });
    owed -= taken;
  }
  if (owed > 0) throw new Error(`the grants lack ${owed} credits of an admitted call`);
  return parts;
}
