/**
 * Calls reserved before they run, on SQLite: every call of a tool with effects outside, and every
 * call with an idempotency key, as on PostgreSQL. One unit of the write queue (group-commit.ts)
 * checks the call, claims its key when it has one and records it pending with its credits and cap
 * slot held, so a refusal comes before the tool runs; then the tool runs, outside any unit, and a
 * second unit captures the call (pending -> charged) or releases it (pending -> refunded, given
 * back), with its answer stored under its key. Two commits, each shared with the calls of its turn.
 *
 * The claim holds for the abandon time while the call runs, so that instances sharing the file run
 * the call once. A reservation left pending by a process that died is released by the sweep
 * (refundAbandoned) once it is older than the abandon time; its claim expires at that time too.
 * The capture of a tool with effects outside whose work succeeded is retried until the file takes
 * it (another process's lock, a full disk), and charges the call again if the sweep released it.
 */
import { CallAbandonedError } from "../../ports/errors.ts";
import type {
  AnswerOf,
  CallOutcome,
  RanOutcome,
  Reservation,
  Standing,
  WorkResult,
} from "../../ports/store.ts";
import { untilCaptured } from "../captures.ts";
import type { Db } from "./db.ts";
import type { LedgerBooks } from "./ledger-statements.ts";

export type RunReservedCall = <T>(
  r: Reservation,
  work: () => WorkResult<T> | Promise<WorkResult<T>>,
  answerOf?: AnswerOf<T>,
  /** A tool with effects outside: once its work succeeded, it is captured whatever it takes. */
  external?: boolean,
) => Promise<CallOutcome<T>>;

export function createReservedCalls(db: Db, books: LedgerBooks): RunReservedCall {
  /** The reservation, or the outcome that ends the call before it runs; inside a unit. */
  function reserve<T>(r: Reservation): CallOutcome<T> | { readonly standing: Standing } {
    books.releaseExpiredClaim(r);
    const checked = books.verdict<T>(r);
    if ("early" in checked) return checked.early;
    if (r.idempotency) books.takeClaim(r, r.idempotency);
    const standing = books.recordCall(r, true, null, checked.before);
    books.remember(r, standing, checked.active === undefined ? undefined : checked.active + 1);
    return { standing };
  }

  /**
   * The capture or the release with its answer; inside a unit. Null when the call was no longer
   * pending (the sweep released it): nothing is charged or kept, and its key is freed.
   */
  function settle<T>(
    r: Reservation,
    ran: WorkResult<T>,
    reserved: Standing,
    answerOf: AnswerOf<T> | undefined,
    external: boolean,
  ): RanOutcome<T> | null {
    let outcome: RanOutcome<T>;
    if (ran.ok) {
      // An effect that happened is charged even when the sweep released its call meanwhile.
      if (!books.capture(r.callId, 200) && !(external && books.recharge(r, 200))) {
        books.releaseClaim(r);
        return null;
      }
      outcome = { status: "charged", value: ran.value, ...reserved };
    } else {
      books.releaseCall(r.callId, ran.httpStatus);
      const after = books.standing(r.accountId, r.period, r.at);
      books.remember(r, after);
      outcome = { status: "refunded", httpStatus: ran.httpStatus, error: ran.error, ...after };
    }
    if (r.idempotency) {
      if (!answerOf) throw new Error("a call with an idempotency key needs the answer to store");
      const answer = answerOf(outcome);
      if (answer) books.answerClaim(r, answer);
      else books.releaseClaim(r);
    }
    return outcome;
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

  return async <T>(
    r: Reservation,
    work: () => WorkResult<T> | Promise<WorkResult<T>>,
    answerOf?: AnswerOf<T>,
    external = false,
  ): Promise<CallOutcome<T>> => {
    // Plain reads first: what they refuse or find claimed, the unit would too.
    const plain = books.verdict<T>(r);
    if ("early" in plain) return plain.early;
    const reserved = await db.write(() => reserve<T>(r));
    if ("status" in reserved) return reserved;
    // Work that cannot run at all, or a settlement of which nothing was kept (the client is told
    // 503): the reservation and the claim go back now rather than at the sweep.
    const undo = () => {
      books.releaseCall(r.callId, null);
      books.releaseClaim(r);
    };
    const ran = await orUndo(async () => work(), undo);
    const settleNow = () => db.write(() => settle(r, ran, reserved.standing, answerOf, external));
    // The effect of a tool that acts outside happened: its capture waits for the file, however long.
    const settled =
      external && ran.ok ? await untilCaptured(settleNow, () => !db.isOpen()) : await orUndo(settleNow, undo);
    // The sweep released it first: the result was never paid for, so it is not given.
    if (settled === null) throw new CallAbandonedError();
    return settled;
  };
}
