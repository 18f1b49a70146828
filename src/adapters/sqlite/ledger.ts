/**
 * The credit ledger on SQLite. Boundary: `credit_balances`, `tool_usage_monthly`, `usage_calls`
 * and `idempotency_keys`; the usage report is in usage.ts.
 *
 * A call's record is one unit of the write queue (group-commit.ts): the checks, the record and the
 * stored answer commit together, so a call is never charged without its answer nor the reverse,
 * and a call costs a share of one commit. Every unit runs inside an IMMEDIATE transaction, so the
 * read of the balance and the write after it are atomic against this process and any other on
 * the same file.
 *
 * The tool never runs inside a unit, so a slow run never holds up the commits of the calls batched
 * with it (tools are pure: they run first, then the call is charged atomically).
 * - Without an idempotency key, it runs first, then one unit checks and records the call. Before
 *   running, plain reads answer what the unit would answer anyway, a refusal (balances and cap
 *   counts only grow within a period, so a refusal read now stands at the commit), but only when
 *   this process's latest figures predict one (standings.ts): a read outside a transaction takes
 *   and releases SQLite's read lock, two system calls, and nearly every call passes. The reads
 *   inside the unit decide: calls racing for the last credits may all run, and those the unit
 *   refuses are not delivered.
 * - With one, a first unit claims the key (answer NULL, as on PostgreSQL), so that instances
 *   sharing the file run the call once; then the tool runs, and a second unit checks and records
 *   the call with its answer, or frees the claim when it refuses. The claim holds for the
 *   abandon time while its call runs: one left by a process that died frees itself then, with
 *   nothing charged (nothing is, before the second unit).
 *
 * A tool with effects outside (runReservedCall) is reserved first: one unit checks the call,
 * claims its key when it has one and records it pending with its credits and cap slot held, so
 * a refusal comes before the tool acts; then the tool runs, and a second unit captures the call
 * (pending -> charged, its answer stored) or releases it (pending -> refunded, given back). A
 * reservation left pending by a process that died is released by the sweep (refundAbandoned)
 * once it is older than the abandon time; its claim expires at that time too.
 */

import { DEFAULT_CALL_ABANDON_S } from "../../ports/defaults.ts";
import { CallAbandonedError } from "../../ports/errors.ts";
import type {
  CallOutcome,
  IdempotencyClaim,
  IdempotentRecord,
  Ledger,
  RanOutcome,
  Reservation,
  StoredAnswer,
  WorkResult,
} from "../../ports/store.ts";
import { refusalOf } from "../admission.ts";
import { storedAnswer } from "../sql-rows.ts";
import { createStandings } from "../standings.ts";
import type { Db } from "./db.ts";
import { createUsageReport } from "./usage.ts";

/** Reservations the sweep releases in one unit, at most. */
const ABANDONED_BATCH = 500;

/** How long a call's claim holds while it runs, unless the store is told otherwise. */
const DEFAULT_ABANDON_AFTER_MS = DEFAULT_CALL_ABANDON_S * 1000;

export interface LedgerOptions {
  /** How long a claimed call may run before its claim frees itself (TOOLRUN_CALL_ABANDON_S). */
  readonly abandonAfterMs?: number;
}

export function createLedger(db: Db, options: LedgerOptions = {}): Ledger {
  const abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
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

  const claimed = db.statement<{
    fingerprint: string;
    call_id: string;
    answer_status: number | null;
    answer_body: string | null;
  }>(
    `SELECT fingerprint, call_id, answer_status, answer_body FROM idempotency_keys
     WHERE key_id = ? AND idem_key = ? AND expires_at > ?`,
  );
  // Claims the key, or stores the answer under it; replaces an expired claim of the same key
  // (each unit has checked that no live claim of another call holds it).
  const keep = db.statement(
    `INSERT INTO idempotency_keys (key_id, idem_key, fingerprint, call_id, answer_status, answer_body, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (key_id, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint,
       call_id = excluded.call_id, answer_status = excluded.answer_status,
       answer_body = excluded.answer_body, expires_at = excluded.expires_at`,
  );
  const release = db.statement(
    "DELETE FROM idempotency_keys WHERE key_id = ? AND idem_key = ? AND call_id = ? AND answer_status IS NULL",
  );
  const purge = db.statement("DELETE FROM idempotency_keys WHERE expires_at <= ?");

  // A reservation's way out: captured, or released with its credits and cap slot given back.
  const capture = db.statement(
    "UPDATE usage_calls SET status = 'charged', http_status = ? WHERE call_id = ? AND status = 'pending'",
  );
  const releaseRow = db.statement<{ key_id: string; period: string; tool: string; credits: number }>(
    `UPDATE usage_calls SET status = 'refunded', http_status = ? WHERE call_id = ? AND status = 'pending'
     RETURNING key_id, period, tool, credits`,
  );
  const giveBack = db.statement("UPDATE credit_balances SET used = used - ? WHERE key_id = ? AND period = ?");
  const uncount = db.statement(
    `UPDATE tool_usage_monthly SET active_calls = active_calls - 1, credits = credits - ?
     WHERE key_id = ? AND period = ? AND tool = ?`,
  );
  // The answer goes under the key only while this call holds it.
  const answerClaim = db.statement(
    `UPDATE idempotency_keys SET answer_status = ?, answer_body = ?, expires_at = ?
     WHERE key_id = ? AND idem_key = ? AND call_id = ?`,
  );
  const abandoned = db.statement<{ call_id: string }>(
    "SELECT call_id FROM usage_calls WHERE status = 'pending' AND at < ? ORDER BY at LIMIT ?",
  );

  /** The live claim of another call on this call's key, if any. */
  function claimOf(r: Reservation): IdempotentRecord | null {
    if (!r.idempotency) return null;
    const row = claimed.get(r.keyId, r.idempotency.key, r.at);
    if (!row || row.call_id === r.callId) return null;
    return { fingerprint: row.fingerprint, answer: storedAnswer(row.answer_status, row.answer_body) };
  }

  /** The call's pending claim on its key, holding while it runs. */
  function takeClaim(r: Reservation, claim: IdempotencyClaim): void {
    const until = new Date(Date.parse(r.at) + abandonAfterMs).toISOString();
    keep.run(r.keyId, claim.key, claim.fingerprint, r.callId, null, null, until);
  }

  /** Frees the call's claim, if it still holds it unanswered. */
  function releaseClaim(r: Reservation): void {
    if (r.idempotency) release.run(r.keyId, r.idempotency.key, r.callId);
  }

  /** The answer a call with an idempotency key stores under it. */
  function answerFor<T>(
    outcome: RanOutcome<T>,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): StoredAnswer {
    if (!answerOf) throw new Error("a call with an idempotency key needs the answer to store");
    return answerOf(outcome);
  }

  /** Keeps the answer of a call with an idempotency key; a call without one serializes nothing. */
  function storeAnswer<T>(
    r: Reservation,
    outcome: RanOutcome<T>,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): void {
    const claim = r.idempotency;
    if (!claim) return;
    const answer = answerFor(outcome, answerOf);
    keep.run(r.keyId, claim.key, claim.fingerprint, r.callId, answer.status, answer.body, claim.expiresAt);
  }

  const creditsUsed = (keyId: string, period: string): number => used.get(keyId, period)?.used ?? 0;

  const activeCallsOf = (r: Reservation): number =>
    activeCalls.get(r.keyId, r.period, r.tool)?.active_calls ?? 0;
  const standings = createStandings();

  /**
   * Records the call, counting it for its tool; a charged or pending call also holds its credits
   * and cap slot. A null `httpStatus` records a reservation (pending).
   */
  function recordCall(r: Reservation, charged: boolean, httpStatus: number | null): void {
    if (charged) hold.run(r.keyId, r.period, r.credits);
    count.run(r.keyId, r.period, r.tool, charged ? 1 : 0, charged ? r.credits : 0);
    const status = httpStatus === null ? "pending" : charged ? "charged" : "refunded";
    record.run(r.callId, r.requestId, r.keyId, r.tool, r.period, r.credits, status, httpStatus, r.at);
  }

  /**
   * Pending -> refunded, its credits and cap slot given back; its key's claim is left to the caller
   * (or to expire). Inside a unit. False when the call was not pending (captured, released).
   */
  function releaseCall(callId: string, httpStatus: number | null): boolean {
    const row = releaseRow.get(httpStatus, callId);
    if (!row) return false;
    giveBack.run(row.credits, row.key_id, row.period);
    uncount.run(row.credits, row.key_id, row.period, row.tool);
    return true;
  }

  /**
   * The call's outcome when another call holds its idempotency key or the books refuse it, else
   * the credits used before it and, when its tool has a cap, its capped calls. Plain reads: run
   * before a write unit they answer without it, and again inside it, where they decide.
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

  /** The call's outcome once its work's `ran` is known, recorded with its answer; inside a unit. */
  function settle<T>(
    r: Reservation,
    ran: WorkResult<T>,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): CallOutcome<T> {
    const checked = verdict<T>(r);
    if ("early" in checked) {
      if (checked.early.status === "refused") releaseClaim(r);
      return checked.early;
    }
    const { before, active } = checked;
    const outcome: RanOutcome<T> = ran.ok
      ? { status: "charged", value: ran.value, creditsUsed: before + r.credits }
      : { status: "refunded", httpStatus: ran.httpStatus, error: ran.error, creditsUsed: before };
    recordCall(r, ran.ok, ran.ok ? 200 : ran.httpStatus);
    storeAnswer(r, outcome, answerOf);
    if (ran.ok) standings.remember(r, before + r.credits, active === undefined ? undefined : active + 1);
    else standings.remember(r, before, active);
    return outcome;
  }

  /** Claim, run, settle: the claim keeps concurrent retries, on any instance, from running it again. */
  async function runClaimedCall<T>(
    r: Reservation,
    claim: IdempotencyClaim,
    work: () => WorkResult<T> | Promise<WorkResult<T>>,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): Promise<CallOutcome<T>> {
    const plain = verdict<T>(r);
    if ("early" in plain) return plain.early;
    const early = await db.write(() => {
      const checked = verdict<T>(r);
      if ("early" in checked) return checked.early;
      takeClaim(r, claim);
      return null;
    });
    if (early) return early;
    // Work that cannot run at all, or a unit of which nothing was kept: the key is freed for the
    // retry rather than left to expire.
    const undo = () => releaseClaim(r);
    const ran = await orUndo(async () => work(), undo);
    return orUndo(() => db.write(() => settle(r, ran, answerOf)), undo);
  }

  /** `step`, or when it throws, `undo` in a unit of its own (best effort), then the error. */
  async function orUndo<T>(step: () => Promise<T>, undo: () => void): Promise<T> {
    try {
      return await step();
    } catch (error) {
      await db.write(undo).catch(() => {});
      throw error;
    }
  }

  /** Reserve, run, then capture or release: the tool acts only once its credits are held. */
  async function runReservedCall<T>(
    r: Reservation,
    work: () => WorkResult<T> | Promise<WorkResult<T>>,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): Promise<CallOutcome<T>> {
    const plain = verdict<T>(r);
    if ("early" in plain) return plain.early;
    const reserved = await db.write(() => {
      const checked = verdict<T>(r);
      if ("early" in checked) return checked.early;
      if (r.idempotency) takeClaim(r, r.idempotency);
      recordCall(r, true, null);
      const creditsUsed = checked.before + r.credits;
      standings.remember(r, creditsUsed, checked.active === undefined ? undefined : checked.active + 1);
      return { creditsUsed };
    });
    if ("status" in reserved) return reserved;
    // Work that cannot run at all, or a capture of which nothing was kept (the client is told
    // 503): the reservation and the claim go back now rather than at the sweep.
    const undo = () => {
      releaseCall(r.callId, null);
      releaseClaim(r);
    };
    const ran = await orUndo(async () => work(), undo);
    const settled = await orUndo(
      () => db.write(() => settleReserved(r, ran, reserved.creditsUsed, answerOf)),
      undo,
    );
    // The sweep released it first: the result was never paid for, so it is not given.
    if (settled === null) throw new CallAbandonedError();
    return settled;
  }

  /**
   * A reservation's capture or release with its answer; inside a unit. Null when the call was no
   * longer pending (the sweep released it): nothing is charged or kept, and its key is freed.
   */
  function settleReserved<T>(
    r: Reservation,
    ran: WorkResult<T>,
    reservedCredits: number,
    answerOf: ((outcome: RanOutcome<T>) => StoredAnswer) | undefined,
  ): RanOutcome<T> | null {
    let outcome: RanOutcome<T>;
    if (ran.ok) {
      if (capture.run(200, r.callId) === 0) {
        releaseClaim(r);
        return null;
      }
      outcome = { status: "charged", value: ran.value, creditsUsed: reservedCredits };
    } else {
      releaseCall(r.callId, ran.httpStatus);
      const after = creditsUsed(r.keyId, r.period);
      standings.remember(r, after);
      outcome = { status: "refunded", httpStatus: ran.httpStatus, error: ran.error, creditsUsed: after };
    }
    const claim = r.idempotency;
    if (claim) {
      const answer = answerFor(outcome, answerOf);
      answerClaim.run(answer.status, answer.body, claim.expiresAt, r.keyId, claim.key, r.callId);
    }
    return outcome;
  }

  return {
    runReservedCall: (r, work, answerOf) => runReservedCall(r, work, answerOf),
    async refundAbandoned(before) {
      let released = 0;
      for (;;) {
        const batch = await db.write(() => {
          const ids = abandoned.all(before, ABANDONED_BATCH);
          for (const { call_id } of ids) if (releaseCall(call_id, null)) released++;
          return ids.length;
        });
        if (batch < ABANDONED_BATCH) return released;
      }
    },
    async runCall<T>(
      r: Reservation,
      work: () => WorkResult<T> | Promise<WorkResult<T>>,
      answerOf?: (outcome: RanOutcome<T>) => StoredAnswer,
    ): Promise<CallOutcome<T>> {
      if (r.idempotency) return runClaimedCall(r, r.idempotency, work, answerOf);
      // Balances and cap counts only grow within a period: what refuses now refuses at the commit.
      if (standings.predictsRefusal(r)) {
        const checked = verdict<T>(r);
        if ("early" in checked) return checked.early;
      }
      const ran = await work();
      return db.write(() => settle(r, ran, answerOf));
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
