/**
 * Calls without an idempotency key on PostgreSQL: the tool (pure) runs first, then ONE statement
 * checks the call and records it charged or refunded (toolrun_calls), batched with
 * the other calls of the same moment (call-batches.ts). Nothing is pending in between, so a crash
 * leaves nothing for the sweep.
 *
 * Refused before running when it is plain: every answer brings back the account's standing (its
 * allowance used, what its grants have left) and the tool's count of capped calls, and this
 * instance remembers the latest per account and month. When those show that the call cannot pass, one read of the current values confirms it (a refusal as
 * of that read's snapshot) before the tool runs; when the read shows room after all (another
 * instance's refund), the call goes on as usual. Remembered values only ever trigger that read,
 * never a refusal by themselves, so a stale one costs a round trip, never a wrong answer.
 */
import type { Pool } from "pg";
import { BackendUnavailableError } from "../../ports/errors.ts";
import type { CallOutcome, Reservation, WorkResult } from "../../ports/store.ts";
import { refusalOf } from "../admission.ts";
import { createStandings } from "../standings.ts";
import { type CallRow, createCallBatches } from "./call-batches.ts";
import { run, statement } from "./db.ts";
import type { UnconfirmedRefunds } from "./unconfirmed-refunds.ts";

const STANDING = statement(
  "ledger_standing",
  `SELECT coalesce((SELECT used FROM credit_balances WHERE account_id = $1 AND period = $2), 0) AS credits_used,
          coalesce((SELECT active_calls FROM tool_usage_monthly
                    WHERE account_id = $1 AND period = $2 AND tool = $3), 0) AS active_calls,
          toolrun_grants_left($1, $4::timestamptz) AS grants_left`,
);

/** A call answered 503 whose recording reached the database after its compensation. */
export function voided(): BackendUnavailableError {
  return new BackendUnavailableError("database", "the call was compensated before its charge arrived");
}

export type RunPureCall = <T>(
  r: Reservation,
  work: () => WorkResult<T> | Promise<WorkResult<T>>,
) => Promise<CallOutcome<T>>;

export function createPureCalls(pool: Pool, unconfirmed: UnconfirmedRefunds): RunPureCall {
  const recordCall = createCallBatches(pool);
  const standings = createStandings();

  /** The refusal the database confirms now, when the remembered figures predict one. */
  async function plainRefusal(r: Reservation): Promise<CallOutcome<never> | null> {
    if (!standings.predictsRefusal(r)) return null;
    const [row] = await run<{ credits_used: number; active_calls: number; grants_left: number }>(
      pool,
      STANDING,
      [r.accountId, r.period, r.tool, r.at],
    );
    const standing = { creditsUsed: row?.credits_used ?? 0, grantsLeft: row?.grants_left ?? 0 };
    const activeCalls = row?.active_calls ?? 0;
    standings.remember(r, standing, activeCalls);
    const reason = refusalOf(
      r,
      standing.creditsUsed,
      () => standing.grantsLeft,
      () => activeCalls,
    );
    return reason === null ? null : { status: "refused", reason, ...standing };
  }

  return async <T>(
    r: Reservation,
    work: () => WorkResult<T> | Promise<WorkResult<T>>,
  ): Promise<CallOutcome<T>> => {
    const refused = await plainRefusal(r);
    if (refused) return refused;
    const result = await work();
    let row: CallRow;
    try {
      row = await recordCall(r, result.ok ? 200 : result.httpStatus);
    } catch (error) {
      // The charge may have committed with its answer lost; the client gets 503, so it must not
      // stand. With the database reachable (the statement itself failed) it is undone before
      // answering.
      const refunded = unconfirmed.add(r.callId);
      if (!(error instanceof BackendUnavailableError)) await refunded;
      throw error;
    }
    if (row.outcome === "voided") throw voided();
    const standing = { creditsUsed: row.credits_used, grantsLeft: row.grants_left };
    standings.remember(r, standing, row.active_calls);
    if (row.outcome === "tier_limit" || row.outcome === "insufficient_credits")
      return { status: "refused", reason: row.outcome, ...standing };
    if (result.ok) return { status: "charged", value: result.value, ...standing };
    return { status: "refunded", httpStatus: result.httpStatus, error: result.error, ...standing };
  };
}
