/**
 * The credit ledger on SQLite. Boundary: `credit_balances`, `tool_usage_monthly` and
 * `usage_calls`; the usage report is in usage.ts.
 *
 * A call is one unit of the write queue (group-commit.ts): the idempotency claim, the checks, the
 * tool's run, the record and the stored answer commit together, so a crash leaves no half-made call
 * behind (nothing to sweep, no claim without its answer) and a call costs a share of one commit. Every unit runs inside an IMMEDIATE transaction, so the read of the
 * balance and the write after it are atomic against this process and any other on the same file.
 */
import type {
  CallOutcome,
  IdempotentRecord,
  Ledger,
  RanOutcome,
  RefusalReason,
  Reservation,
  StoredAnswer,
  WorkResult,
} from "../../ports/store.ts";
import type { Db } from "./db.ts";
import { createUsageReport } from "./usage.ts";

export function createLedger(db: Db): Ledger {
  const used = db.statement<{ used: number }>(
    "SELECT used FROM credit_balances WHERE key_id = ? AND period = ?",
  );
  const activeCalls = db.statement<{ active_calls: number }>(
    "SELECT active_calls FROM tool_usage_monthly WHERE key_id = ? AND period = ? AND tool = ?",
  );
  const hold = db.statement(
    `INSERT INTO credit_balances (key_id, period, used) VALUES (?, ?, ?)
     ON CONFLICT (key_id, period) DO UPDATE SET used = used + excluded.used`,
  );
  const count = db.statement(
    `INSERT INTO tool_usage_monthly (key_id, period, tool, calls, active_calls, credits) VALUES (?, ?, ?, 1, ?, ?)
     ON CONFLICT (key_id, period, tool) DO UPDATE SET
       calls = calls + 1, active_calls = active_calls + excluded.active_calls, credits = credits + excluded.credits`,
  );
  const record = db.statement(
    `INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, http_status, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  const claimed = db.statement<{ fingerprint: string; answer_status: number; answer_body: string }>(
    `SELECT fingerprint, answer_status, answer_body FROM idempotency_keys
     WHERE key_id = ? AND idem_key = ? AND expires_at > ?`,
  );
  // Replaces an expired claim of the same key.
  const keepAnswer = db.statement(
    `INSERT INTO idempotency_keys (key_id, idem_key, fingerprint, call_id, answer_status, answer_body, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (key_id, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint,
       call_id = excluded.call_id, answer_status = excluded.answer_status,
       answer_body = excluded.answer_body, expires_at = excluded.expires_at`,
  );
  const purge = db.statement("DELETE FROM idempotency_keys WHERE expires_at <= ?");

  /** The live claim of another call on this call's key, if any. */
  function claimOf(r: Reservation): IdempotentRecord | null {
    if (!r.idempotency) return null;
    const row = claimed.get(r.keyId, r.idempotency.key, r.at);
    if (!row) return null;
    return { fingerprint: row.fingerprint, answer: { status: row.answer_status, body: row.answer_body } };
  }

  function storeAnswer(r: Reservation, answer: StoredAnswer | undefined): void {
    const claim = r.idempotency;
    if (!claim) return;
    if (!answer) throw new Error("a call with an idempotency key needs the answer to store");
    keepAnswer.run(
      r.keyId,
      claim.key,
      claim.fingerprint,
      r.callId,
      answer.status,
      answer.body,
      claim.expiresAt,
    );
  }

  const creditsUsed = (keyId: string, period: string): number => used.get(keyId, period)?.used ?? 0;

  /** Why the call is refused, or null when it is admitted. The tool's cap first: when both refuse, more credits would not help. */
  function refusal(r: Reservation, credits: number): RefusalReason | null {
    if (r.monthlyCallCap !== null) {
      const active = activeCalls.get(r.keyId, r.period, r.tool)?.active_calls ?? 0;
      if (active >= r.monthlyCallCap) return "tier_limit";
    }
    if (r.allowance !== null && credits + r.credits > r.allowance) return "insufficient_credits";
    return null;
  }

  /** Records the call, counting it for its tool; a charged call also holds its credits and cap slot. */
  function recordCall(r: Reservation, charged: boolean, httpStatus: number): void {
    if (charged) hold.run(r.keyId, r.period, r.credits);
    count.run(r.keyId, r.period, r.tool, charged ? 1 : 0, charged ? r.credits : 0);
    const status = charged ? "charged" : "refunded";
    record.run(r.callId, r.requestId, r.keyId, r.tool, r.period, r.credits, status, httpStatus, r.at);
  }

  return {
    runCall<T>(
      r: Reservation,
      work: () => WorkResult<T>,
      answerOf?: (outcome: RanOutcome<T>) => StoredAnswer,
    ): Promise<CallOutcome<T>> {
      return db.write((): CallOutcome<T> => {
        const existing = claimOf(r);
        if (existing) return { status: "claimed", existing };
        const before = creditsUsed(r.keyId, r.period);
        const refused = refusal(r, before);
        if (refused) return { status: "refused", reason: refused, creditsUsed: before };
        const result = work();
        const outcome: RanOutcome<T> = result.ok
          ? { status: "charged", value: result.value, creditsUsed: before + r.credits }
          : { status: "refunded", httpStatus: result.httpStatus, error: result.error, creditsUsed: before };
        recordCall(r, result.ok, result.ok ? 200 : result.httpStatus);
        storeAnswer(r, answerOf?.(outcome));
        return outcome;
      });
    },
    async purgeExpiredAnswers(now) {
      return db.write(() => purge.run(now));
    },
    async creditsUsed(keyId, period) {
      return creditsUsed(keyId, period);
    },
    usage: createUsageReport(db),
  };
}
