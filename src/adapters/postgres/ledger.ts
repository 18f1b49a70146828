/**
 * The credit ledger on PostgreSQL. Boundary: `credit_balances`, `credit_grants` (what calls spend
 * of them), `tool_usage_monthly`, `usage_calls` and `idempotency_keys`, through the functions of
 * the migrations (0001_schema.sql, as 0006_accounts.sql and 0011_credit_grants.sql redefine them);
 * the usage report is in usage.ts.
 *
 * A call without an idempotency key runs its tool first (the tools are pure), then ONE statement
 * checks it and records it charged or refunded, sent together with the other calls of the same
 * event-loop turn: one round trip and one commit for all of them (pure-calls.ts).
 *
 * A call with an idempotency key, and every call of a tool with effects outside
 * (runReservedCall), is three steps private to this adapter (exported for its tests, not on the
 * port): reserve, then settle (capture) or refund (release). A keyed call claims its key in the
 * reservation's transaction and stores its answer in the settlement's or the refund's, since the
 * answer holds the credits left, known only once the reservation is made.
 *
 * A statement whose answer does not come (TOOLRUN_DB_TIMEOUT_MS) ends the call in 503 and hands
 * its id to unconfirmed-refunds.ts, which refunds it, charged or not, as soon as the database
 * answers again; a settle that finds its call already refunded by the sweep answers 503 too
 * (CallAbandonedError: the call took longer than the abandon time). So the
 * credits of the 200s a key received are exactly what the ledger holds. The exception is the
 * capture of a tool with effects outside whose work succeeded: its effect happened, so it is
 * retried until it commits and charged again if the sweep released it (capture, captures.ts).
 * Every step is one plpgsql function called with ONE statement in autocommit, so the function body
 * is the whole transaction (no BEGIN/COMMIT round trips); the one exception is RECHARGE, a plain
 * statement, so that this rare path needs no migration.
 *
 * Why it cannot overspend: a call is checked (toolrun_refusal) and recorded while its transaction
 * holds the lock of its tool's counter row and its key's balance row, taken before reading them,
 * so concurrent calls of one key queue on those rows and each sees the previous one's result:
 * there is no read-then-write window. A refusal commits no change.
 *
 * Deadlock freedom: every transaction locks shared rows in one order, described at the top of the
 * functions in the migration (counters before balances, each set sorted).
 */
import type { Pool } from "pg";
import { BackendUnavailableError, CallAbandonedError } from "../../ports/errors.ts";
import type {
  AnswerOf,
  CallOutcome,
  IdempotentRecord,
  Ledger,
  RanOutcome,
  RefusalReason,
  Reservation,
  Standing,
  StoredAnswer,
  WorkResult,
} from "../../ports/store.ts";
import { originValues } from "../call-rows.ts";
import { untilCaptured } from "../captures.ts";
import { storedAnswer } from "../sql-rows.ts";
import { type CallRow, recordCalls, reservationValues } from "./call-batches.ts";
import { run, statement } from "./db.ts";
import { createPureCalls, voided } from "./pure-calls.ts";
import { createUnconfirmedRefunds, type UnconfirmedRefunds } from "./unconfirmed-refunds.ts";
import { usageReport } from "./usage.ts";

const RESERVE_CLAIMED = statement(
  "ledger_reserve_claimed",
  `SELECT outcome, credits_used, grants_left, grants_spent, fingerprint, answer_status, answer_body FROM toolrun_reserve_claimed(
     $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::bigint, $8::bigint, $9::integer,
     $10::timestamptz, $11::text, $12::text, $13::timestamptz, $14::text, $15::text, $16::text, $17::text,
     $18::text)`,
);
const SETTLE = statement(
  "ledger_settle",
  "SELECT toolrun_settle($1::text, $2::integer, $3::integer, $4::text) AS settled",
);
// A capture that found its call released by the sweep while the tool's effect was happening: the
// call charged again (credits and cap slot held again, all on the allowance and past it if need be:
// its grant parts went back with the release, and the effect happened), and its
// answer kept under its key, unless a retry with that key has taken the key over since (that
// retry answers for the effect, whose upstream request carried the same key). Each update reads
// the one before it, so the rows are locked in the global order (call, counter, balance, claim).
// `status` is the call's as the statement found it: `charged` when an earlier attempt committed.
const RECHARGE = statement(
  "ledger_recharge",
  `WITH c AS (
     UPDATE usage_calls u SET status = 'charged', http_status = $2, grant_parts = NULL
     WHERE u.call_id = $1 AND u.status = 'refunded'
       AND NOT EXISTS (SELECT 1 FROM idempotency_keys k
                       WHERE k.account_id = u.account_id AND k.idem_key = $3::text AND k.call_id <> $1)
     RETURNING u.account_id, u.period, u.tool, u.credits
   ), t AS (
     UPDATE tool_usage_monthly t SET active_calls = t.active_calls + 1, credits = t.credits + c.credits
     FROM c WHERE t.account_id = c.account_id AND t.period = c.period AND t.tool = c.tool
     RETURNING t.account_id
   ), b AS (
     UPDATE credit_balances b SET used = b.used + c.credits
     FROM c, (SELECT count(*) FROM t) AS counted
     WHERE b.account_id = c.account_id AND b.period = c.period
     RETURNING b.account_id
   ), k AS (
     INSERT INTO idempotency_keys AS k (account_id, idem_key, fingerprint, call_id, answer_status, answer_body, expires_at)
     SELECT b.account_id, $3::text, $4::text, $1, $5::integer, $6::text, $7::timestamptz FROM b
     WHERE $3::text IS NOT NULL AND $5::integer IS NOT NULL
     ON CONFLICT (account_id, idem_key) DO UPDATE
       SET answer_status = EXCLUDED.answer_status, answer_body = EXCLUDED.answer_body, expires_at = EXCLUDED.expires_at
       WHERE k.call_id = EXCLUDED.call_id
     RETURNING 1
   )
   SELECT (SELECT count(*) FROM b)::integer AS recharged, (SELECT count(*) FROM k)::integer AS answered,
          (SELECT u.status FROM usage_calls u WHERE u.call_id = $1) AS status`,
);
const REFUND = statement(
  "ledger_refund",
  "SELECT toolrun_refund($1::text, $2::integer, $3::integer, $4::text) AS refunded",
);
const PURGE = statement(
  "ledger_purge_answers",
  "DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING 1",
);
const USED = statement(
  "ledger_used",
  "SELECT used FROM credit_balances WHERE account_id = $1 AND period = $2",
);
const REFUND_UNCONFIRMED = statement(
  "ledger_refund_unconfirmed",
  "SELECT toolrun_refund_unconfirmed($1::text) AS refunded",
);
const ABANDONED = statement(
  "ledger_abandoned",
  // A job's reservation stays held while the job's lease holds: its run may outlast the abandon
  // time. Once the lease lapsed (its instance died) or the job ended, it is released like any other.
  `SELECT call_id FROM usage_calls WHERE status = 'pending' AND at < $1
     AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.call_id = usage_calls.call_id
       AND jobs.status IN ('queued', 'running', 'settling') AND jobs.lease_expires_at > $1)
   ORDER BY at LIMIT $2`,
);
const FORGET_VOIDED = statement(
  "ledger_forget_voided",
  "DELETE FROM voided_calls WHERE at < now() - interval '1 day'",
);

export type ReserveOutcome =
  | ({ readonly ok: true; readonly grantsSpent: number } & Standing)
  | ({ readonly ok: false; readonly reason: RefusalReason } & Standing)
  | { readonly ok: false; readonly reason: "claimed"; readonly existing: IdempotentRecord };

interface ReserveRow {
  outcome: CallRow["outcome"] | "claimed";
  credits_used: number;
  grants_left: number;
  grants_spent: number;
  fingerprint?: string;
  answer_status?: number | null;
  answer_body?: string | null;
}

/**
 * Atomically claims the idempotency key (when the call has one), checks the cap and the allowance,
 * holds the credits and records a pending call.
 */
export async function reserve(pool: Pool, r: Reservation): Promise<ReserveOutcome> {
  const claim = r.idempotency;
  const [row]: ReserveRow[] = claim
    ? await run<ReserveRow>(pool, RESERVE_CLAIMED, [
        ...reservationValues(r),
        claim.key,
        claim.fingerprint,
        claim.expiresAt,
        ...originValues(r.origin),
      ])
    : await recordCalls(pool, [{ r, httpStatus: null }]);
  if (!row) throw new Error("toolrun_reserve_claimed returned no row");
  switch (row.outcome) {
    case "pending":
      return {
        ok: true,
        creditsUsed: row.credits_used,
        grantsLeft: row.grants_left,
        grantsSpent: row.grants_spent,
      };
    case "claimed": {
      const answer = storedAnswer(row.answer_status, row.answer_body);
      return { ok: false, reason: "claimed", existing: { fingerprint: row.fingerprint ?? "", answer } };
    }
    case "tier_limit":
    case "insufficient_credits":
      return { ok: false, reason: row.outcome, creditsUsed: row.credits_used, grantsLeft: row.grants_left };
    case "voided":
      throw voided();
    default:
      throw new Error(`a reservation was recorded as ${row.outcome}`);
  }
}

/**
 * Pending -> charged, with the answer stored under the call's idempotency key when it has one.
 * False when the call was no longer pending (the sweep refunded it): nothing was charged.
 */
export async function settle(
  pool: Pool,
  callId: string,
  httpStatus: number,
  answer?: StoredAnswer,
): Promise<boolean> {
  const [row] = await run<{ settled: boolean }>(pool, SETTLE, [
    callId,
    httpStatus,
    answer?.status ?? null,
    answer?.body ?? null,
  ]);
  return row?.settled === true;
}

/**
 * Pending -> refunded with its credits and call given back, and the answer stored under the call's
 * idempotency key when given; false when it was not pending.
 */
export async function refund(
  pool: Pool,
  callId: string,
  httpStatus: number | null,
  answer?: StoredAnswer,
): Promise<boolean> {
  const [row] = await run<{ refunded: boolean }>(pool, REFUND, [
    callId,
    httpStatus,
    answer?.status ?? null,
    answer?.body ?? null,
  ]);
  return row?.refunded === true;
}

/**
 * The capture of a call of a tool with effects outside, as often as it takes (captures.ts): pending
 * -> charged, or, when the sweep released it meanwhile, refunded -> charged again (RECHARGE). True
 * once the call is charged, by this attempt or an earlier one whose answer was lost; false when a
 * retry with its idempotency key has taken the key over, and answers for the effect.
 */
export async function capture(pool: Pool, r: Reservation, answer?: StoredAnswer): Promise<boolean> {
  if (await settle(pool, r.callId, 200, answer)) return true;
  const claim = r.idempotency;
  const [row] = await run<{ recharged: number; status: string | null }>(pool, RECHARGE, [
    r.callId,
    200,
    claim?.key ?? null,
    claim?.fingerprint ?? null,
    answer?.status ?? null,
    answer?.body ?? null,
    claim?.expiresAt ?? null,
  ]);
  return row !== undefined && (row.recharged > 0 || row.status === "charged");
}

/** Pending or charged -> refunded; false when it was refunded already (or never reserved). */
export async function refundUnconfirmed(pool: Pool, callId: string): Promise<boolean> {
  const [row] = await run<{ refunded: boolean }>(pool, REFUND_UNCONFIRMED, [callId]);
  return row?.refunded === true;
}

const ABANDONED_BATCH = 500;

/**
 * A call in three commits: the reservation with the claim when it has a key (row `pending`), the
 * tool's run in this process, then the settlement or the refund with the answer,
 * which can only be written once the run's outcome and the credits it left are known. Holding a
 * database transaction open across the run would keep the balance row locked for other instances;
 * instead a call cut short between the steps stays `pending` until the sweeper refunds it.
 */
async function runReservedCall<T>(
  pool: Pool,
  unconfirmed: UnconfirmedRefunds,
  /** Set for a tool with effects outside: its capture is retried until it commits (captures.ts). */
  external: { readonly stopped: () => boolean } | undefined,
  r: Reservation,
  work: () => WorkResult<T> | Promise<WorkResult<T>>,
  answerOf?: AnswerOf<T>,
): Promise<CallOutcome<T>> {
  let reserved: ReserveOutcome;
  try {
    reserved = await reserve(pool, r);
  } catch (error) {
    // The reservation may have committed with its answer lost: give it back rather than wait
    // for the sweep.
    void unconfirmed.add(r.callId);
    throw error;
  }
  if (!reserved.ok) {
    if ("existing" in reserved) return { status: "claimed", existing: reserved.existing };
    return {
      status: "refused",
      reason: reserved.reason,
      creditsUsed: reserved.creditsUsed,
      grantsLeft: reserved.grantsLeft,
    };
  }
  let result: WorkResult<T>;
  try {
    result = await work();
  } catch (error) {
    // It could not run (its worker stopped): the reservation and the claim go back now.
    await refund(pool, r.callId, null).catch(() => {
      void unconfirmed.add(r.callId);
    });
    throw error;
  }
  const answer = (outcome: RanOutcome<T>) => answerOf?.(outcome);
  if (!result.ok) {
    // The refund gives back what the reservation took: the allowance's part and the grants'.
    const outcome: RanOutcome<T> = {
      status: "refunded",
      httpStatus: result.httpStatus,
      error: result.error,
      creditsUsed: reserved.creditsUsed - (r.credits - reserved.grantsSpent),
      grantsLeft: reserved.grantsLeft + reserved.grantsSpent,
    };
    try {
      await refund(pool, r.callId, result.httpStatus, answer(outcome));
    } catch (error) {
      void unconfirmed.add(r.callId);
      throw error;
    }
    return outcome;
  }
  const outcome: RanOutcome<T> = {
    status: "charged",
    value: result.value,
    creditsUsed: reserved.creditsUsed,
    grantsLeft: reserved.grantsLeft,
  };
  if (external) {
    // Its effect happened: charged once, however long that takes; never refunded from here.
    const captured = await untilCaptured(() => capture(pool, r, answer(outcome)), external.stopped);
    if (!captured) throw new CallAbandonedError();
    return outcome;
  }
  let settled: boolean;
  try {
    settled = await settle(pool, r.callId, 200, answer(outcome));
  } catch (error) {
    // The client gets 503, so the charge must not stand, whether or not it committed. With the
    // database reachable (the statement itself failed) the refund is done before answering.
    const refunded = unconfirmed.add(r.callId);
    if (!(error instanceof BackendUnavailableError)) await refunded;
    throw error;
  }
  // The sweep refunded the reservation first: the result was never paid for, so it is not given.
  if (!settled) throw new CallAbandonedError();
  return outcome;
}

export interface PostgresLedger extends Required<Ledger> {
  /** Stops retrying refunds of unconfirmed calls (the pool is about to end). */
  stopRefunds(): void;
}

export function createLedger(pool: Pool): PostgresLedger {
  const unconfirmed = createUnconfirmedRefunds((callId) => refundUnconfirmed(pool, callId));
  const runPureCall = createPureCalls(pool, unconfirmed);
  let stopped = false;
  const external = { stopped: () => stopped };
  return {
    runCall: (r, work, answerOf) =>
      r.idempotency ? runReservedCall(pool, unconfirmed, undefined, r, work, answerOf) : runPureCall(r, work),
    runReservedCall: (r, work, answerOf) => runReservedCall(pool, unconfirmed, external, r, work, answerOf),
    stopRefunds: () => {
      stopped = true;
      unconfirmed.stop();
    },
    async creditsUsed(accountId, period) {
      const [row] = await run<{ used: number }>(pool, USED, [accountId, period]);
      return row?.used ?? 0;
    },
    usage: (query) => usageReport(pool, query),
    async purgeExpiredAnswers(now) {
      return (await run(pool, PURGE, [now])).length;
    },
    async refundAbandoned(before) {
      // One transaction per call, through the same idempotent refund: a call settled meanwhile by a
      // live process is skipped, and another instance sweeping at once refunds nothing twice.
      // No HTTP status is recorded: the client never received one.
      await run(pool, FORGET_VOIDED, []);
      let refunded = 0;
      for (;;) {
        const batch = await run<{ call_id: string }>(pool, ABANDONED, [before, ABANDONED_BATCH]);
        for (const { call_id } of batch) {
          if (await refund(pool, call_id, null)) refunded++;
        }
        if (batch.length < ABANDONED_BATCH) return refunded;
      }
    },
  };
}
