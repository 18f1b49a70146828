/**
 * The SQLite ledger's statements, and the steps on rows both ways of a call share (pure-calls.ts,
 * reserved-calls.ts). Boundary: `credit_balances`, `credit_grants` (what calls spend of them),
 * `tool_usage_monthly`, `usage_calls` and `idempotency_keys`. A call spends its account's allowance
 * first and its grants only for what the allowance lacks (admission.ts), so a call the allowance
 * pays runs the statements it always did, the grants' total read beside the balance. Every step
 * that writes runs inside a unit of the write queue (group-commit.ts), which the caller opens; the
 * reads also run outside one, where they answer only what the unit would answer anyway.
 */
import type {
  CallOutcome,
  IdempotencyClaim,
  IdempotentRecord,
  Reservation,
  Standing,
  StoredAnswer,
} from "../../ports/store.ts";
import { allowancePart, type GrantPart, grantParts, refusalOf } from "../admission.ts";
import { originValues } from "../call-rows.ts";
import { storedAnswer } from "../sql-rows.ts";
import { createStandings } from "../standings.ts";
import type { Db } from "./db.ts";

/** The call's outcome when another call holds its key or the books refuse it, else its figures. */
export type Verdict<T> =
  | { readonly early: CallOutcome<T> }
  | {
      /** The account's standing before the call. */
      readonly before: Standing;
      /** The tool's capped calls before the call, when the tool has a cap. */
      readonly active?: number;
    };

export interface LedgerBooks {
  creditsUsed(accountId: string, period: string): number;
  /** The account's allowance used this period and its grants live at `at`. */
  standing(accountId: string, period: string, at: string): Standing;
  /** The call's claim or refusal, read now (inside a unit, where it decides, or before one). */
  verdict<T>(r: Reservation): Verdict<T>;
  /** What this process last saw of the key's month (standings.ts). */
  remember(r: Reservation, standing: Standing, activeCalls?: number): void;
  predictsRefusal(r: Reservation): boolean;
  /**
   * Records the call, counting it for its tool; a charged or pending call also holds its credits
   * (the allowance's part and the grants', recorded with it) and cap slot. A null `httpStatus`
   * records a reservation (pending). `before` is the verdict's; returns the standing after.
   */
  recordCall(r: Reservation, charged: boolean, httpStatus: number | null, before: Standing): Standing;
  /** Pending -> charged; false when the call was not pending (the sweep released it). */
  capture(callId: string, httpStatus: number): boolean;
  /**
   * Refunded -> charged again, its credits and cap slot held again (all on the allowance, past it
   * if need be: the call's effect happened), its key claimed again for its answer: the capture of
   * a tool's effect that happened while the sweep released the call. False when it was not refunded, or when a retry with its key has
   * taken the key over since (that retry answers for the effect).
   */
  recharge(r: Reservation, httpStatus: number): boolean;
  /**
   * Pending -> refunded, its credits and cap slot given back, each credit to the pool it came from
   * (what an expired grant gets back stays gone); false when it was not pending (captured,
   * released). Its key's claim is left to the caller (or to expire).
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
  // One statement, so the call path reads no more often than before grants.
  const standing = db.statement<{ used: number; grants_left: number }>(
    `SELECT coalesce((SELECT used FROM credit_balances WHERE account_id = ?1 AND period = ?2), 0) AS used,
            (SELECT coalesce(sum(remaining), 0) FROM credit_grants
             WHERE account_id = ?1 AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?3)) AS grants_left`,
  );
  // Spend order: earliest expiry, never-expiring last, then oldest.
  const liveGrants = db.statement<{ id: string; remaining: number }>(
    `SELECT id, remaining FROM credit_grants
     WHERE account_id = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?)
     ORDER BY expires_at IS NULL, expires_at, created_at, id`,
  );
  const spendGrant = db.statement("UPDATE credit_grants SET remaining = remaining - ? WHERE id = ?");
  const refillGrant = db.statement("UPDATE credit_grants SET remaining = remaining + ? WHERE id = ?");
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
    // A call recorded settled takes its place in the export's order in this insert, not in a
    // trigger's second write on every call; one settled later takes it in migration 0013's trigger.
    `INSERT INTO usage_calls (call_id, request_id, account_id, key_id, tool, period, credits, status, http_status, at, grant_parts,
                              credential, oauth_client_id, transport, client_name, client_version, settled_seq, settled_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
             CASE WHEN ?8 <> 'pending'
               THEN (SELECT coalesce(max(settled_seq), 0) + 1 FROM usage_calls WHERE settled_seq IS NOT NULL) END,
             CASE WHEN ?8 <> 'pending' THEN ?10 END)`,
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
  const releaseRow = db.statement<{
    account_id: string;
    period: string;
    tool: string;
    credits: number;
    grant_parts: string | null;
  }>(
    `UPDATE usage_calls SET status = 'refunded', http_status = ? WHERE call_id = ? AND status = 'pending'
     RETURNING account_id, period, tool, credits, grant_parts`,
  );
  const giveBack = db.statement(
    "UPDATE credit_balances SET used = used - ? WHERE account_id = ? AND period = ?",
  );
  const rechargeRow = db.statement<{ account_id: string; period: string; tool: string; credits: number }>(
    `UPDATE usage_calls SET status = 'charged', http_status = ?, grant_parts = NULL
     WHERE call_id = ? AND status = 'refunded'
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
  function standingOf(accountId: string, period: string, at: string): Standing {
    const row = standing.get(accountId, period, at);
    return { creditsUsed: row?.used ?? 0, grantsLeft: row?.grants_left ?? 0 };
  }

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
    const parts: GrantPart[] = row.grant_parts === null ? [] : JSON.parse(row.grant_parts);
    let fromGrants = 0;
    for (const part of parts) {
      refillGrant.run(part.credits, part.grant);
      fromGrants += part.credits;
    }
    giveBack.run(row.credits - fromGrants, row.account_id, row.period);
    uncount.run(row.credits, row.account_id, row.period, row.tool);
    return true;
  }

  return {
    creditsUsed,
    standing: standingOf,
    verdict<T>(r: Reservation): Verdict<T> {
      const existing = claimOf(r);
      if (existing) return { early: { status: "claimed", existing } };
      const before = standingOf(r.accountId, r.period, r.at);
      let active: number | undefined;
      const refused = refusalOf(
        r,
        before.creditsUsed,
        () => before.grantsLeft,
        () => {
          active = activeCalls.get(r.accountId, r.period, r.tool)?.active_calls ?? 0;
          return active;
        },
      );
      if (!refused) return { before, active };
      standings.remember(r, before, active);
      return { early: { status: "refused", reason: refused, ...before } };
    },
    remember: (r, standing, active) => standings.remember(r, standing, active),
    predictsRefusal: (r) => standings.predictsRefusal(r),
    recordCall(r, charged, httpStatus, before) {
      let after = before;
      let parts: GrantPart[] = [];
      if (charged) {
        const fromAllowance = allowancePart(r, before.creditsUsed);
        const fromGrants = r.credits - fromAllowance;
        if (fromGrants > 0) {
          parts = grantParts(liveGrants.all(r.accountId, r.at), fromGrants);
          for (const part of parts) spendGrant.run(part.credits, part.grant);
        }
        hold.run(r.accountId, r.period, fromAllowance);
        after = {
          creditsUsed: before.creditsUsed + fromAllowance,
          grantsLeft: before.grantsLeft - fromGrants,
        };
      }
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
        parts.length === 0 ? null : JSON.stringify(parts),
        ...originValues(r.origin),
      );
      return after;
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
