/**
 * What checking one request's signature may cost, whatever the request holds. The check computes
 * one digest of each message the sender may have signed and compares it with every signature in
 * the header (a public-key scheme verifies each signature instead), looks at no more than
 * MAX_SIGNATURES_CHECKED signatures, and stops once it has run for SIGNATURE_TIME_BUDGET_MS: each
 * digest or verification of the body spends a step of the budget, and a step refused ends the
 * check as unverifiable. docs/tools/webhook-payload-inspector.md states the same bounds.
 */

/** Senders send one signature, or a few while a secret rotates; a header holding more is checked this far. */
export const MAX_SIGNATURES_CHECKED = 8;

/** How long the digests and verifications of one request may run, in milliseconds. */
export const SIGNATURE_TIME_BUDGET_MS = 250;

/** Asked before each digest or verification of the body. */
export interface CheckBudget {
  /** False once the budget is spent: the check stops there. */
  spend(): boolean;
}

/** A budget of `ms` milliseconds from now, on the monotonic clock. */
export function timeBudget(
  ms = SIGNATURE_TIME_BUDGET_MS,
  clock: () => number = () => performance.now(),
): CheckBudget {
  const deadline = clock() + ms;
  return { spend: () => clock() < deadline };
}

export const OUT_OF_BUDGET = `The check stopped: it reached its time budget (${SIGNATURE_TIME_BUDGET_MS} ms of digests and verifications) before it could finish, so nothing is known about the signature. The request holds unusually many signatures or signed messages.`;
