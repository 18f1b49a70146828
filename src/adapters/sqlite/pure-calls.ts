/**
 * Calls without an idempotency key on SQLite: the tool (pure) runs first, then one unit of the
 * write queue checks the call and records it charged or refunded, sharing its commit with the other
 * calls of the same turn (group-commit.ts). Nothing is pending in between, so a crash leaves
 * nothing for the sweep.
 *
 * Refused before running when it is plain: a read outside a unit takes and releases SQLite's read
 * lock, two system calls, and nearly every call passes, so the reads are made first only when
 * this process's latest figures predict a refusal (standings.ts). Balances and cap counts only
 * grow within a period and grants only lapse, so a refusal read then stands at the commit (but for
 * a grant made in between, which the call may miss as it would by arriving a moment sooner). The
 * reads inside the unit decide: calls racing for the last credits may all run, and those the unit
 * refuses are not delivered.
 */
import type { CallOutcome, Reservation, WorkResult } from "../../ports/store.ts";
import type { Db } from "./db.ts";
import type { LedgerBooks } from "./ledger-statements.ts";

export type RunPureCall = <T>(
  r: Reservation,
  work: () => WorkResult<T> | Promise<WorkResult<T>>,
) => Promise<CallOutcome<T>>;

export function createPureCalls(db: Db, books: LedgerBooks): RunPureCall {
  /** The call's outcome once its work's result is known, recorded; inside a unit. */
  function settle<T>(r: Reservation, ran: WorkResult<T>): CallOutcome<T> {
    const checked = books.verdict<T>(r);
    if ("early" in checked) return checked.early;
    const { before, active } = checked;
    const after = books.recordCall(r, ran.ok, ran.ok ? 200 : ran.httpStatus, before);
    if (!ran.ok) {
      books.remember(r, before, active);
      return { status: "refunded", httpStatus: ran.httpStatus, error: ran.error, ...before };
    }
    books.remember(r, after, active === undefined ? undefined : active + 1);
    return { status: "charged", value: ran.value, ...after };
  }

  return async <T>(
    r: Reservation,
    work: () => WorkResult<T> | Promise<WorkResult<T>>,
  ): Promise<CallOutcome<T>> => {
    if (books.predictsRefusal(r)) {
      const checked = books.verdict<T>(r);
      if ("early" in checked) return checked.early;
    }
    const ran = await work();
    return db.write(() => settle(r, ran));
  };
}
