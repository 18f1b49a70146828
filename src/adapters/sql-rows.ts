/**
 * Rows of the tables both SQL stores share (same names, see their migrations) turned into the
 * port's records, and the usage report's paging, written once for SQLite and PostgreSQL.
 * Timestamps arrive as ISO text from SQLite and as Date from PostgreSQL.
 */
import { InvalidCursorError } from "../ports/errors.ts";
import type { ApiKeyRecord, CallStatus, UsageCall, UsageReport } from "../ports/store.ts";

type Timestamp = string | Date;

function iso(at: Timestamp): string {
  return typeof at === "string" ? at : at.toISOString();
}

export const KEY_COLUMNS = "id, name, plan, display_prefix, monthly_allowance, created_at, revoked_at";

export interface KeyRow {
  id: string;
  name: string;
  plan: string;
  display_prefix: string;
  monthly_allowance: number | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export function toKeyRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    displayPrefix: row.display_prefix,
    monthlyAllowance: row.monthly_allowance,
    createdAt: iso(row.created_at),
    revokedAt: row.revoked_at === null ? null : iso(row.revoked_at),
  };
}

/** A row of `usage_calls` as the recent-calls page selects it (refunded calls already at 0 credits). */
export interface CallRow {
  seq: string | number;
  call_id: string;
  request_id: string;
  tool: string;
  status: CallStatus;
  http_status: number | null;
  credits: number;
  at: Timestamp;
}

const CURSOR = /^\d{1,19}$/;
/** The largest `seq` either store can hold (a signed 64-bit integer). */
const MAX_SEQ = 9_223_372_036_854_775_807n;

/** The `seq` a cursor stands for; throws InvalidCursorError for anything a store did not issue. */
export function parseCursor(cursor: string | null): string | null {
  if (cursor !== null && (!CURSOR.test(cursor) || BigInt(cursor) > MAX_SEQ))
    throw new InvalidCursorError("invalid usage cursor");
  return cursor;
}

export interface UsageRows {
  readonly byTool: readonly { tool: string; calls: number; credits: number }[];
  readonly used: number;
  /** Newest first, one more than `limit` when another page follows. */
  readonly calls: readonly CallRow[];
}

/** The report of one snapshot's rows; `limit` is the page size the calls were fetched for (+1). */
export function toUsageReport(rows: UsageRows, limit: number): UsageReport {
  const page = rows.calls.slice(0, limit);
  const last = page.at(-1);
  return {
    creditsUsed: rows.used,
    calls: rows.byTool.reduce((sum, t) => sum + t.calls, 0),
    byTool: rows.byTool.map((t) => ({ tool: t.tool, calls: t.calls, credits: t.credits })),
    recent: page.map(
      (row): UsageCall => ({
        callId: row.call_id,
        requestId: row.request_id,
        tool: row.tool,
        status: row.status,
        httpStatus: row.http_status,
        credits: row.credits,
        at: iso(row.at),
      }),
    ),
    nextCursor: rows.calls.length > limit && last ? String(last.seq) : null,
  };
}

/** The page size a query asks for, as a whole number of at least 0. */
export function pageSize(limit: number): number {
  return Math.max(0, Math.floor(limit));
}
