/**
 * The credit ledger on PostgreSQL. Boundary: `credit_balances`, `tool_usage_monthly` and
 * `usage_calls`; the usage report is in usage.ts.
 *
 * Why it cannot overspend: reserve() raises the per-tool counter and the balance each with ONE
 * conditional upsert (`... ON CONFLICT DO UPDATE ... WHERE new value <= limit RETURNING`). The
 * upsert locks the row before it evaluates the condition, so concurrent reservations of one key
 * queue on that row and each sees the previous one's result: there is no read-then-write window.
 * Both upserts and the pending usage row share one transaction; a refusal rolls it all back.
 *
 * Deadlock freedom: transactions lock shared rows in one order, tool counter before balance
 * (refund first locks its own usage row, which reserve never touches: it only inserts new ones).
 */
import type { Pool, PoolClient } from "pg";
import type { Ledger, Reservation, ReserveOutcome } from "../../ports/store.ts";
import { run, statement, transaction } from "./db.ts";
import { usageReport } from "./usage.ts";

const COUNT_CALL = statement(
  "ledger_count_call",
  `INSERT INTO tool_usage_monthly (key_id, period, tool, calls, active_calls, credits)
   SELECT $1::text, $2::text, $3::text, 1, 1, $4::integer WHERE $5::integer IS NULL OR 1 <= $5::integer
   ON CONFLICT (key_id, period, tool) DO UPDATE
     SET calls = tool_usage_monthly.calls + 1,
         active_calls = tool_usage_monthly.active_calls + 1,
         credits = tool_usage_monthly.credits + EXCLUDED.credits
     WHERE $5::integer IS NULL OR tool_usage_monthly.active_calls + 1 <= $5::integer
   RETURNING active_calls`,
);
const HOLD_CREDITS = statement(
  "ledger_hold_credits",
  `INSERT INTO credit_balances (key_id, period, used)
   SELECT $1::text, $2::text, $3::integer WHERE $4::integer IS NULL OR $3::integer <= $4::integer
   ON CONFLICT (key_id, period) DO UPDATE
     SET used = credit_balances.used + EXCLUDED.used
     WHERE $4::integer IS NULL OR credit_balances.used + EXCLUDED.used <= $4::integer
   RETURNING used`,
);
const RECORD_PENDING = statement(
  "ledger_record_pending",
  `INSERT INTO usage_calls (call_id, request_id, key_id, tool, period, credits, status, at)
   VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)`,
);
const USED = statement("ledger_used", "SELECT used FROM credit_balances WHERE key_id = $1 AND period = $2");
const SETTLE = statement(
  "ledger_settle",
  `UPDATE usage_calls SET status = 'charged', http_status = $2, ended_at = now()
   WHERE call_id = $1 AND status = 'pending'`,
);
const MARK_REFUNDED = statement(
  "ledger_mark_refunded",
  `UPDATE usage_calls SET status = 'refunded', http_status = $2, ended_at = now()
   WHERE call_id = $1 AND status = 'pending'
   RETURNING key_id, period, tool, credits`,
);
const UNCOUNT_CALL = statement(
  "ledger_uncount_call",
  `UPDATE tool_usage_monthly SET active_calls = active_calls - 1, credits = credits - $4
   WHERE key_id = $1 AND period = $2 AND tool = $3`,
);
const RELEASE_CREDITS = statement(
  "ledger_release_credits",
  "UPDATE credit_balances SET used = used - $3 WHERE key_id = $1 AND period = $2",
);
const ABANDONED = statement(
  "ledger_abandoned",
  `SELECT call_id FROM usage_calls WHERE status = 'pending' AND at < $1 ORDER BY at LIMIT $2`,
);

/** Thrown inside the reserve transaction to roll it back and carry the refusal out. */
class Refused extends Error {
  readonly outcome: ReserveOutcome;
  constructor(outcome: ReserveOutcome) {
    super("reservation refused");
    this.outcome = outcome;
  }
}

async function usedNow(client: PoolClient, keyId: string, period: string): Promise<number> {
  const [row] = await run<{ used: number }>(client, USED, [keyId, period]);
  return row?.used ?? 0;
}

async function reserve(pool: Pool, r: Reservation): Promise<ReserveOutcome> {
  try {
    return await transaction(pool, async (client) => {
      const counted = await run(client, COUNT_CALL, [r.keyId, r.period, r.tool, r.credits, r.monthlyCallCap]);
      if (counted.length === 0) {
        throw new Refused({
          ok: false,
          reason: "tier_limit",
          creditsUsed: await usedNow(client, r.keyId, r.period),
        });
      }
      const [held] = await run<{ used: number }>(client, HOLD_CREDITS, [
        r.keyId,
        r.period,
        r.credits,
        r.allowance,
      ]);
      if (!held) {
        // The failed upsert left the row locked, so this read is the value that refused us.
        throw new Refused({
          ok: false,
          reason: "insufficient_credits",
          creditsUsed: await usedNow(client, r.keyId, r.period),
        });
      }
      await run(client, RECORD_PENDING, [r.callId, r.requestId, r.keyId, r.tool, r.period, r.credits, r.at]);
      return { ok: true, creditsUsed: held.used } as const;
    });
  } catch (err) {
    if (err instanceof Refused) return err.outcome;
    throw err;
  }
}

/** Pending -> refunded with its credits and call given back; false when it was not pending. */
async function refundCall(pool: Pool, callId: string, httpStatus: number | null): Promise<boolean> {
  return transaction(pool, async (client) => {
    const [call] = await run<{ key_id: string; period: string; tool: string; credits: number }>(
      client,
      MARK_REFUNDED,
      [callId, httpStatus],
    );
    if (!call) return false;
    await run(client, UNCOUNT_CALL, [call.key_id, call.period, call.tool, call.credits]);
    await run(client, RELEASE_CREDITS, [call.key_id, call.period, call.credits]);
    return true;
  });
}

const ABANDONED_BATCH = 500;

export function createLedger(pool: Pool): Ledger {
  return {
    reserve: (r) => reserve(pool, r),
    async settle(callId, httpStatus) {
      await run(pool, SETTLE, [callId, httpStatus]);
    },
    async refund(callId, httpStatus) {
      await refundCall(pool, callId, httpStatus);
    },
    async creditsUsed(keyId, period) {
      const [row] = await run<{ used: number }>(pool, USED, [keyId, period]);
      return row?.used ?? 0;
    },
    usage: (query) => usageReport(pool, query),
    async refundAbandoned(before) {
      // One transaction per call, through the same idempotent refund: a call settled meanwhile by a
      // live process is skipped, and another instance sweeping at once refunds nothing twice.
      // No HTTP status is recorded: the client never received one.
      let refunded = 0;
      for (;;) {
        const batch = await run<{ call_id: string }>(pool, ABANDONED, [before, ABANDONED_BATCH]);
        for (const { call_id } of batch) {
          if (await refundCall(pool, call_id, null)) refunded++;
        }
        if (batch.length < ABANDONED_BATCH) return refunded;
      }
    },
  };
}
