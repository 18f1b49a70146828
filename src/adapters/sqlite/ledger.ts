/**
 * The credit ledger on SQLite, the same two ways as on PostgreSQL: a call without an idempotency
 * key runs its (pure) tool first and is then checked and recorded in one unit (pure-calls.ts); a
 * call with one, and every call of a tool with effects outside, is reserved before it runs, then
 * captured or released (reserved-calls.ts). The statements both ways use are in
 * ledger-statements.ts; the usage report is in usage.ts.
 *
 * A call's record is one unit of the write queue (group-commit.ts): the checks, the record and the
 * stored answer commit together, so a call is never charged without its answer nor the reverse,
 * and a call costs a share of one commit. Every unit runs inside an IMMEDIATE transaction, so the
 * read of the balance and the write after it are atomic against this process and any other on
 * the same file. The tool never runs inside a unit, so a slow run never holds up the commits of
 * the calls batched with it.
 */
import { DEFAULT_CALL_ABANDON_S } from "../../ports/defaults.ts";
import type { Ledger } from "../../ports/store.ts";
import type { Db } from "./db.ts";
import { createLedgerBooks } from "./ledger-statements.ts";
import { createPureCalls } from "./pure-calls.ts";
import { createReservedCalls } from "./reserved-calls.ts";
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
  const books = createLedgerBooks(db, options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS);
  const runPureCall = createPureCalls(db, books);
  const runReservedCall = createReservedCalls(db, books);
  return {
    runCall: (r, work, answerOf) =>
      r.idempotency ? runReservedCall(r, work, answerOf) : runPureCall(r, work),
    runReservedCall: (r, work, answerOf) => runReservedCall(r, work, answerOf, true),
    async refundAbandoned(before) {
      let released = 0;
      for (;;) {
        const batch = await db.write(() => {
          const ids = books.abandoned(before, ABANDONED_BATCH);
          for (const id of ids) if (books.releaseCall(id, null)) released++;
          return ids.length;
        });
        if (batch < ABANDONED_BATCH) return released;
      }
    },
    purgeExpiredAnswers: (now) => db.write(() => books.purgeAnswers(now)),
    creditsUsed: async (accountId, period) => books.creditsUsed(accountId, period),
    usage: createUsageReport(db),
  };
}
