/**
 * Group commit for the PostgreSQL ledger's pure calls: the calls queued in one turn of the event
 * loop go to PostgreSQL as one statement (`toolrun_calls`) in one transaction, so they share one
 * round trip and one WAL flush instead of paying one each. Each call still sees every call queued
 * before it (the function checks them in order, holding their rows' locks), so exactness is that
 * of one transaction per call.
 *
 * A batch that fails as a whole: when the database is unreachable or did not answer in time, every
 * call of it is rejected with that error (its caller answers 503 and refunds it if it committed);
 * any other failure (a deadlock with a plain SQL session, a bug in one call's data) rolled back the
 * whole batch, so its calls are sent again one statement each and only a failing one is rejected.
 */
import type { Pool } from "pg";
import { BackendUnavailableError } from "../../ports/errors.ts";
import type { Reservation } from "../../ports/store.ts";
import { originValues } from "../call-rows.ts";
import { type Queryable, run, statement } from "./db.ts";

const CALLS = statement(
  "ledger_calls",
  `SELECT outcome, credits_used, active_calls, grants_left, grants_spent FROM toolrun_calls($1::text[], $2::text[], $3::text[], $4::text[],
     $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::integer[], $10::timestamptz[], $11::integer[],
     $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])`,
);

/** At most this many calls a statement: bounds how long one transaction holds its rows. */
export const MAX_BATCH = 64;

export interface CallRow {
  /**
   * `pending`: a reservation (a call recorded with no HTTP status yet); `voided`: nothing recorded,
   * since the call was answered 503 and compensated before this statement reached the database.
   */
  readonly outcome: "pending" | "charged" | "refunded" | "tier_limit" | "insufficient_credits" | "voided";
  /** The account's allowance used after the call. */
  readonly credits_used: number;
  /** What the account's grants live at the call's moment have left after it. */
  readonly grants_left: number;
  /** The part of the call's credits its account's grants paid. */
  readonly grants_spent: number;
  /** The tool's calls that count against its monthly cap, after this one. */
  readonly active_calls: number;
}

/** Records one call whose tool already ran with `httpStatus` (200: charge it). */
export type RecordCall = (r: Reservation, httpStatus: number) => Promise<CallRow>;

interface Queued {
  readonly r: Reservation;
  readonly httpStatus: number;
  readonly resolve: (row: CallRow) => void;
  readonly reject: (error: unknown) => void;
}

/** A reservation's parameters, in the order of every ledger function. */
export function reservationValues(r: Reservation) {
  return [
    r.callId,
    r.requestId,
    r.accountId,
    r.keyId,
    r.tool,
    r.period,
    r.credits,
    r.allowance,
    r.monthlyCallCap,
    r.at,
  ] as const;
}

/** Records `calls` in one statement (`httpStatus` null: a reservation), one row each, in order. */
export async function recordCalls(
  db: Queryable,
  calls: readonly { readonly r: Reservation; readonly httpStatus: number | null }[],
): Promise<CallRow[]> {
  // One array a parameter, the calls in the batch's order.
  const values = calls.map(({ r, httpStatus }) => [
    ...reservationValues(r),
    httpStatus,
    ...originValues(r.origin),
  ]);
  const columns = Array.from({ length: 16 }, (_, i) => values.map((call) => call[i] ?? null));
  const rows = await run<CallRow>(db, CALLS, columns);
  if (rows.length !== calls.length)
    throw new Error(`toolrun_calls returned ${rows.length} rows for ${calls.length} calls`);
  return rows;
}

export function createCallBatches(pool: Pool): RecordCall {
  let queue: Queued[] = [];

  async function together(batch: readonly Queued[]): Promise<void> {
    let rows: CallRow[];
    try {
      rows = await recordCalls(pool, batch);
    } catch (error) {
      if (error instanceof BackendUnavailableError || batch.length === 1)
        for (const item of batch) item.reject(error);
      else await Promise.all(batch.map((item) => together([item])));
      return;
    }
    for (const [i, row] of rows.entries()) batch[i]?.resolve(row);
  }

  function flush(): void {
    const taken = queue;
    queue = [];
    for (let start = 0; start < taken.length; start += MAX_BATCH)
      void together(taken.slice(start, start + MAX_BATCH));
  }

  return (r, httpStatus) =>
    new Promise<CallRow>((resolve, reject) => {
      queue.push({ r, httpStatus, resolve, reject });
      if (queue.length === 1) setImmediate(flush);
    });
}
