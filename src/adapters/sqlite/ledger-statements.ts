/**
 * The SQLite ledger's statements, and the steps on rows both ways of a call share (pure-calls.ts,
 * reserved-calls.ts). Boundary: `credit_balances`, `tool_usage_monthly`, `usage_calls` and
 * `idempotency_keys`. Every step that writes runs inside a unit of the write queue
 * (group-commit.ts), which the caller opens; the reads also run outside one, where they answer
 * only what the unit would answer anyway.
 */
import type {
  CallOutcome,
  IdempotencyClaim,
  IdempotentRecord,
  Reservation,
  StoredAnswer,
} from "../../ports/store.ts";
import { refusalOf } from "../admission.ts";
import { storedAnswer } from "../sql-rows.ts";
import { createStandings } from "../standings.ts";
import type { Db } from "./db.ts";

/** The call's outcome when another call holds its key or the books refuse it, else its figures. */
export type Verdict<T> =
  | { readonly early: CallOutcome<T> }
  | {
      /** The key's credits used before the call. */
      readonly before: number;
      /** The tool's capped calls before the call, when the tool has a cap. */
      readonly active?: number;
    };

export interface LedgerBooks {
  creditsUsed(accountId: string, period: string): number;
  /** The call's claim or refusal, read now (inside a unit, where it decides, or before one). */
  verdict<T>(r: Reservation): Verdict<T>;
  /** What this process last saw of the key's month (standings.ts). */
  remember(r: Reservation, creditsUsed: number, activeCalls?: number): void;
  predictsRefusal(r: Reservation): boolean;
  /**
   * Records the call, counting it for its tool; a charged or pending call also holds its credits
   * and cap slot. A null `httpStatus` records a reservation (pending).
   */
  recordCall(r: Reservation, charged: boolean, httpStatus: number | null): void;
  /** Pending -> charged; false when the call was not pending (the sweep released it). */
  capture(callId: string, httpStatus: number): boolean;
  /**
   * Refunded -> charged again, its credits and cap slot held again (past the allowance if need
   * be), its key claimed again for its answer: the capture of a tool's effect that happened while
   * the sweep released the call. False when it was not refunded, or when a retry with its key has
   * taken the key over since (that retry answers for the effect).
   */
  recharge(r: Reservation, httpStatus: number): boolean;
  /**
   * Pending -> refunded, its credits and cap slot given back; false when it was not pending
   * (captured, released). Its key's claim is left to the caller (or to expire).
   */
  releaseCall(callId: string, httpStatus: number | null): boolean;
  /**
   * Releases the reservation of an expired unanswered claim on the call's key: its process died,
   * or outlived the abandon time, and the sweep has not reached it yet. Its late capture then finds
   * nothing pending and charges nothing, so a key's retry is never charged beside its first call.
   */
  releaseExpiredClaim(r: Reservation): void;
  /** The call's pending claim on its key, holding `abandonAfterMs` while it runs. */
  takeClaim(r: Reservation, claim: IdempotencyClaim): void;
  /** Frees the call's claim, if it still holds it unanswered. */
  releaseClaim(r: Reservation): void;
  /** Keeps `answer` under the call's key until the claim's expiry, if the call still holds it. */
  answerClaim(r: Reservation, answer: StoredAnswer): void;
  /**
   * Ids of the reservations still pending that began before `before`, oldest first, but for those
   * of live jobs whose lease held at `before`.
   */
  abandoned(before: string, limit: number): string[];
  /** Forgets the keys that expired at or before `now`; how many. */
  purgeAnswers(now: string): number;
}

export function createLedgerBooks(db: Db, abandonAfterMs: number): LedgerBooks {
  const used = db.statement<{ used: number }>(
    "SELECT used FROM credit_balances WHERE account_id = ? AND period = ?",
  );
  const activeCalls = db.statement<{ active_calls: number }>(
    "SELECT active_calls FROM tool_usage_monthly WHERE account_id = ? AND period = ? AND tool = ?",
  );
  const hold = db.statement(
    `INSERT INTO credit_balances (account_id, period, used) VALUES (?, ?, ?)
     ON CONFLICT (account_id, period) DO UPDATE SET used = used + excluded.used`,
  );
  const count = db.statement(
    `INSERT INTO tool_usage_monthly (account_id, period, tool, calls, active_calls, credits) VALUES (?, ?, ?, 1, ?, ?)
     ON CONFLICT (account_id, period, tool) DO UPDATE SET
       calls = calls + 1, active_calls = active_calls + excluded.active_calls, credits = credits + excluded.credits`,
  );
  const record = db.statement(
    `INSERT INTO usage_calls (call_id, request_id, account_id, key_id, tool, period, credits, status, http_status, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const claimed = db.statement<{
    fingerprint: string;
    call_id: string;
    answer_status: number | null;
    answer_body: string | null;
  }>(
    `SELECT fingerprint, call_id, answer_status, answer_body FROM idempotency_keys
     WHERE account_id = ? AND idem_key = ? AND expires_at > ?`,
  );
  // Replaces an expired claim of the same key (the unit has checked that no live claim of another
  // call holds it).
  const keep = db.statement(
    `INSERT INTO idempotency_keys (account_id, idem_key, fingerprint, call_id, answer_status, answer_body, expires_at)
     VALUES (?, ?, ?, ?, NULL, NULL, ?)
     ON CONFLICT (account_id, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint,
       call_id = excluded.call_id, answer_status = NULL, answer_body = NULL, expires_at = excluded.expires_at`,
  );
  // The call of a claim that expired unanswered: its process died or outlived the abandon time.
  const staleClaim = db.statement<{ call_id: string }>(
    "SELECT call_id FROM idempotency_keys WHERE account_id = ? AND idem_key = ? AND answer_status IS NULL",
  );
  const release = db.statement(
    "DELETE FROM idempotency_keys WHERE account_id = ? AND idem_key = ? AND call_id = ? AND answer_status IS NULL",
  );
  // The answer goes under the key only while this call holds it.
  const answerClaim = db.statement(
    `UPDATE idempotency_keys SET answer_status = ?, answer_body = ?, expires_at = ?
     WHERE account_id = ? AND idem_key = ? AND call_id = ?`,
  );
  const purge = db.statement("DELETE FROM idempotency_keys WHERE expires_at <= ?");
  const capture = db.statement(
    "UPDATE usage_calls SET status = 'charged', http_status = ? WHERE call_id = ? AND status = 'pending'",
  );
  const releaseRow = db.statement<{ account_id: string; period: string; tool: string; credits: number }>(
    `UPDATE usage_calls SET status = 'refunded', http_status = ? WHERE call_id = ? AND status = 'pending'
     RETURNING account_id, period, tool, credits`,
  );
  const giveBack = db.statement(
    "UPDATE credit_balances SET used = used - ? WHERE account_id = ? AND period = ?",
  );
  const rechargeRow = db.statement<{ account_id: string; period: string; tool: string; credits: number }>(
    `UPDATE usage_calls SET status = 'charged', http_status = ? WHERE call_id = ? AND status = 'refunded'
     RETURNING account_id, period, tool, credits`,
  );
  const recount = db.statement(
    `UPDATE tool_usage_monthly SET active_calls = active_calls + 1, credits = credits + ?
     WHERE account_id = ? AND period = ? AND tool = ?`,
  );
  const uncount = db.statement(
    `UPDATE tool_usage_monthly SET active_calls = active_calls - 1, credits = credits - ?
     WHERE account_id = ? AND period = ? AND tool = ?`,
  );
  // A job's reservation stays held while the job's lease holds: its run may outlast the abandon
  // time. Once the lease lapsed (its instance died) or the job ended, it is released like any other.
  const abandoned = db.statement<{ call_id: string }>(
    `SELECT call_id FROM usage_calls WHERE status = 'pending' AND at < ?1
       AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.call_id = usage_calls.call_id
         AND jobs.status IN ('queued', 'running', 'settling') AND jobs.lease_expires_at > ?1)
     ORDER BY at LIMIT ?2`,
  );

  const standings = createStandings();
  const creditsUsed = (accountId: string, period: string): number => used.get(accountId, period)?.used ?? 0;

  /** The live claim of another call on this call's key, if any. */
  function claimOf(r: Reservation): IdempotentRecord | null {
    if (!r.idempotency) return null;
    const row = claimed.get(r.accountId, r.idempotency.key, r.at);
    if (!row || row.call_id === r.callId) return null;
    return { fingerprint: row.fingerprint, answer: storedAnswer(row.answer_status, row.answer_body) };
  }

  function takeClaim(r: Reservation, claim: IdempotencyClaim): void {
    const until = new Date(Date.parse(r.at) + abandonAfterMs).toISOString();
    keep.run(r.accountId, claim.key, claim.fingerprint, r.callId, until);
  }

  /**
   * Pending -> refunded, its credits and cap slot given back; false when it was not pending.
   */
  function releaseCall(callId: string, httpStatus: number | null): boolean {
    const row = releaseRow.get(httpStatus, callId);
    if (!row) return false;
    giveBack.run(row.credits, row.account_id, row.period);
    uncount.run(row.credits, row.account_id, row.period, row.tool);
    return true;
  }

  return {
    creditsUsed,
    verdict<T>(r: Reservation): Verdict<T> {
      const existing = claimOf(r);
      if (existing) return { early: { status: "claimed", existing } };
      const before = creditsUsed(r.accountId, r.period);
      let active: number | undefined;
      const refused = refusalOf(r, before, () => {
        active = activeCalls.get(r.accountId, r.period, r.tool)?.active_calls ?? 0;
        return active;
      });
      if (!refused) return { before, active };
      standings.remember(r, before, active);
      return { early: { status: "refused", reason: refused, creditsUsed: before } };
    },
    remember: (r, creditsUsed, active) => standings.remember(r, creditsUsed, active),
    predictsRefusal: (r) => standings.predictsRefusal(r),
    recordCall(r, charged, httpStatus) {
      if (charged) hold.run(r.accountId, r.period, r.credits);
      count.run(r.accountId, r.period, r.tool, charged ? 1 : 0, charged ? r.credits : 0);
      const status = httpStatus === null ? "pending" : charged ? "charged" : "refunded";
      record.run(
        r.callId,
        r.requestId,
        r.accountId,
        r.keyId,
        r.tool,
        r.period,
        r.credits,
        status,
        httpStatus,
        r.at,
      );
    },
    capture: (callId, httpStatus) => capture.run(httpStatus, callId) > 0,
    recharge(r, httpStatus) {
      if (claimOf(r)) return false;
      const row = rechargeRow.get(httpStatus, r.callId);
      if (!row) return false;
      hold.run(row.account_id, row.period, row.credits);
      recount.run(row.credits, row.account_id, row.period, row.tool);
      if (r.idempotency) takeClaim(r, r.idempotency);
      return true;
    },
    releaseCall,
    releaseExpiredClaim(r) {
      if (!r.idempotency || claimOf(r)) return;
      const stale = staleClaim.get(r.accountId, r.idempotency.key);
      if (stale && stale.call_id !== r.callId) releaseCall(stale.call_id, null);
    },
    takeClaim,
    releaseClaim(r) {
      if (r.idempotency) release.run(r.accountId, r.idempotency.key, r.callId);
    },
    answerClaim(r, answer) {
      const claim = r.idempotency;
      if (claim)
        answerClaim.run(answer.status, answer.body, claim.expiresAt, r.accountId, claim.key, r.callId);
    },
    abandoned: (before, limit) => abandoned.all(before, limit).map((row) => row.call_id),
    purgeAnswers: (now) => purge.run(now),
  };
}
