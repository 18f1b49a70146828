/**
 * The credit ledger on SQLite. Boundary: `credit_balances`, `tool_usage_monthly` and
 * `usage_calls`; the usage report is in usage.ts.
 *
 * A call is one unit of the write queue (group-commit.ts): the idempotency claim, the checks, the
 * record and the stored answer commit together, so a crash leaves no half-made call behind
 * (nothing to sweep, no claim without its answer) and a call costs a share of one commit. Every
 * unit runs inside an IMMEDIATE transaction, so the read of the balance and the write after it are
 * atomic against this process and any other on the same file.
 *
 * The tool runs before that unit, not inside it, so a slow run never holds up the commits of the
 * calls batched with it (decisions section 3: tools are pure, run first, then charge atomically).
 * Before running, plain reads answer what the unit would answer anyway: a live idempotency claim,
 * or a refusal (balances and cap counts only grow within a period, so a refusal read now stands at
 * the commit). A call without an idempotency key makes those reads only when this process's
 * latest figures predict a refusal (standings.ts): a read outside a transaction takes and releases
 * SQLite's read lock, two system calls, and nearly every call passes. The same reads inside the
 * unit decide: calls racing for the last credits may all run, and those the unit refuses are not
 * delivered.
 *
 * A call with an idempotency key still runs inside its unit: its claim is only ever written with
 * its answer, so running first would let instances sharing the file run it more than once.
 */
import type {
  CallOutcome,
  IdempotentRecord,
  Ledger,
  RanOutcome,
  Reservation,
  StoredAnswer,
  WorkResult,
} from "../../ports/store.ts";
import { refusalOf } from "../admission.ts";
import { createStandings } from "../standings.ts";
import type { Db } from "./db.ts";
import { createUsageReport } from "./usage.ts";

const ranAlready =
  <T>(result: WorkResult<T>) =>
  (): WorkResult<T> =>
    result;

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

  /** Keeps the answer of a call with an idempotency key; a call without one serializes nothing. */
  function storeAnswer<T>(
    r: Reservation,
    outcome: RanOutcome<T>,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): void {
    const claim = r.idempotency;
    if (!claim) return;
    if (!answerOf) throw new Error("a call with an idempotency key needs the answer to store");
    const answer = answerOf(outcome);
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

  const activeCallsOf = (r: Reservation): number =>
    activeCalls.get(r.keyId, r.period, r.tool)?.active_calls ?? 0;
  const standings = createStandings();

  /** Records the call, counting it for its tool; a charged call also holds its credits and cap slot. */
  function recordCall(r: Reservation, charged: boolean, httpStatus: number): void {
    if (charged) hold.run(r.keyId, r.period, r.credits);
    count.run(r.keyId, r.period, r.tool, charged ? 1 : 0, charged ? r.credits : 0);
    const status = charged ? "charged" : "refunded";
    record.run(r.callId, r.requestId, r.keyId, r.tool, r.period, r.credits, status, httpStatus, r.at);
  }

  /**
   * The call's outcome when another holds its idempotency key or the books refuse it, else the
   * credits used before it and, when its tool has a cap, its capped calls. Plain reads: run before
   * the write unit they answer without it, and again inside it, where they decide.
   */
  function verdict<T>(
    r: Reservation,
  ): { readonly early: CallOutcome<T> } | { readonly before: number; readonly active?: number } {
    const existing = claimOf(r);
    if (existing) return { early: { status: "claimed", existing } };
    const before = creditsUsed(r.keyId, r.period);
    let active: number | undefined;
    const refused = refusalOf(r, before, () => {
      active = activeCallsOf(r);
      return active;
    });
    if (!refused) return { before, active };
    standings.remember(r, before, active);
    return { early: { status: "refused", reason: refused, creditsUsed: before } };
  }

  /** The call's outcome once `result` is known, recorded with its answer; inside the write unit. */
  function settle<T>(
    r: Reservation,
    result: () => WorkResult<T>,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): CallOutcome<T> {
    const checked = verdict<T>(r);
    if ("early" in checked) return checked.early;
    const { before, active } = checked;
    const ran = result();
    const outcome: RanOutcome<T> = ran.ok
      ? { status: "charged", value: ran.value, creditsUsed: before + r.credits }
      : { status: "refunded", httpStatus: ran.httpStatus, error: ran.error, creditsUsed: before };
    recordCall(r, ran.ok, ran.ok ? 200 : ran.httpStatus);
    storeAnswer(r, outcome, answerOf);
    if (ran.ok) standings.remember(r, before + r.credits, active === undefined ? undefined : active + 1);
    else standings.remember(r, before, active);
    return outcome;
  }

  return {
    runCall<T>(
      r: Reservation,
      work: () => WorkResult<T>,
      answerOf?: (outcome: RanOutcome<T>) => StoredAnswer,
    ): Promise<CallOutcome<T>> {
      // Balances and cap counts only grow within a period: what refuses now refuses at the commit.
      if (r.idempotency || standings.predictsRefusal(r)) {
        const checked = verdict<T>(r);
        if ("early" in checked) return Promise.resolve(checked.early);
      }
      // A call with an idempotency key runs inside its unit (see above); any other runs first.
      const result = r.idempotency ? work : ranAlready(work());
      return db.write(() => settle(r, result, answerOf));
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
