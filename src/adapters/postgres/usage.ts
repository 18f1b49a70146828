/**
 * The usage report on PostgreSQL: totals and by-tool figures from the ledger's counters, and the
 * recent calls newest first, paged by keyset on the `usage_calls.seq` bigserial (the cursor is
 * that decimal number; the core makes it opaque for clients). Both reads run in
 * one REPEATABLE READ snapshot so the figures of one report always agree with each other.
 * Boundary: read-only.
 */
import type { Pool } from "pg";
import type { CallStatus, UsageCall, UsageQuery, UsageReport } from "../../ports/store.ts";
import { run, statement, transaction } from "./db.ts";

const TOTALS = statement(
  "usage_totals",
  `SELECT tool, calls, credits FROM tool_usage_monthly
   WHERE key_id = $1 AND period = $2 ORDER BY tool`,
);
const USED = statement("usage_used", "SELECT used FROM credit_balances WHERE key_id = $1 AND period = $2");
const RECENT = statement(
  "usage_recent",
  `SELECT seq::text AS seq, call_id, request_id, tool, status, http_status,
          CASE WHEN status = 'refunded' THEN 0 ELSE credits END AS credits, at
   FROM usage_calls
   WHERE key_id = $1 AND period = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
   ORDER BY seq DESC LIMIT $4`,
);

interface CallRow {
  seq: string;
  call_id: string;
  request_id: string;
  tool: string;
  status: CallStatus;
  http_status: number | null;
  credits: number;
  at: Date;
}

const CURSOR = /^\d{1,19}$/;

/** The seq a cursor stands for; throws RangeError for anything this adapter did not issue. */
function parseCursor(cursor: string): string {
  if (!CURSOR.test(cursor)) throw new RangeError("invalid usage cursor");
  return cursor;
}

function toCall(row: CallRow): UsageCall {
  return {
    callId: row.call_id,
    requestId: row.request_id,
    tool: row.tool,
    status: row.status,
    httpStatus: row.http_status,
    credits: row.credits,
    at: row.at.toISOString(),
  };
}

export async function usageReport(pool: Pool, query: UsageQuery): Promise<UsageReport> {
  const after = query.cursor === null ? null : parseCursor(query.cursor);
  const limit = Math.max(0, Math.floor(query.limit));
  return transaction(
    pool,
    async (client) => {
      const byTool = await run<{ tool: string; calls: number; credits: number }>(client, TOTALS, [
        query.keyId,
        query.period,
      ]);
      const [used] = await run<{ used: number }>(client, USED, [query.keyId, query.period]);
      // One row more than asked tells whether another page exists without counting.
      const rows = await run<CallRow>(client, RECENT, [query.keyId, query.period, after, limit + 1]);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        creditsUsed: used?.used ?? 0,
        calls: byTool.reduce((sum, t) => sum + t.calls, 0),
        byTool: byTool.map((t) => ({ tool: t.tool, calls: t.calls, credits: t.credits })),
        recent: page.map(toCall),
        nextCursor: rows.length > limit && last ? last.seq : null,
      };
    },
    "REPEATABLE READ READ ONLY",
  );
}
