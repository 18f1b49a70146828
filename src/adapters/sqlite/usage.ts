/**
 * The usage report on SQLite: totals and by-tool figures from the ledger's counters, and the
 * recent calls newest first, paged by keyset on `usage_calls.seq` (the cursor is that decimal
 * number; the core makes it opaque for clients). The reads run in one transaction so the figures
 * of one report always agree with each other. Boundary: read-only.
 */
import type { CallStatus, UsageCall, UsageQuery, UsageReport } from "../../ports/store.ts";
import type { Db } from "./db.ts";

interface CallRow {
  seq: number;
  call_id: string;
  request_id: string;
  tool: string;
  status: CallStatus;
  http_status: number | null;
  credits: number;
  at: string;
}

const CURSOR = /^\d{1,19}$/;

/** The seq a cursor stands for; throws RangeError for anything this adapter did not issue. */
function parseCursor(cursor: string): number {
  if (!CURSOR.test(cursor)) throw new RangeError("invalid usage cursor");
  return Number(cursor);
}

function toCall(row: CallRow): UsageCall {
  return {
    callId: row.call_id,
    requestId: row.request_id,
    tool: row.tool,
    status: row.status,
    httpStatus: row.http_status,
    credits: row.credits,
    at: row.at,
  };
}

export function createUsageReport(db: Db): (query: UsageQuery) => Promise<UsageReport> {
  const totals = db.statement<{ tool: string; calls: number; credits: number }>(
    "SELECT tool, calls, credits FROM tool_usage_monthly WHERE key_id = ? AND period = ? ORDER BY tool",
  );
  const used = db.statement<{ used: number }>(
    "SELECT used FROM credit_balances WHERE key_id = ? AND period = ?",
  );
  const recent = db.statement<CallRow>(
    `SELECT seq, call_id, request_id, tool, status, http_status,
            CASE WHEN status = 'refunded' THEN 0 ELSE credits END AS credits, at
     FROM usage_calls
     WHERE key_id = ? AND period = ? AND (? IS NULL OR seq < ?)
     ORDER BY seq DESC LIMIT ?`,
  );

  return async (query) => {
    const below = query.cursor === null ? null : parseCursor(query.cursor);
    const limit = Math.max(0, Math.floor(query.limit));
    // A read transaction (DEFERRED): one snapshot of the file for the three reads.
    return db.read(() => {
      const byTool = totals.all(query.keyId, query.period);
      // One row more than asked tells whether another page exists without counting.
      const rows = recent.all(query.keyId, query.period, below, below, limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        creditsUsed: used.get(query.keyId, query.period)?.used ?? 0,
        calls: byTool.reduce((sum, t) => sum + t.calls, 0),
        byTool: byTool.map((t) => ({ tool: t.tool, calls: t.calls, credits: t.credits })),
        recent: page.map(toCall),
        nextCursor: rows.length > limit && last ? String(last.seq) : null,
      };
    });
  };
}
