/**
 * The usage report on SQLite: totals and by-tool figures from the ledger's counters, and the
 * recent calls newest first, paged by keyset on `usage_calls.seq` (the cursor is that decimal
 * number; the core makes it opaque for clients). The reads run in one transaction so the figures
 * of one report always agree with each other. Boundary: read-only.
 */
import type { UsageQuery, UsageReport } from "../../ports/store.ts";
import { type CallRow, pageSize, parseCursor, toUsageReport } from "../sql-rows.ts";
import type { Db } from "./db.ts";

export function createUsageReport(db: Db): (query: UsageQuery) => Promise<UsageReport> {
  const totals = db.statement<{ tool: string; calls: number; credits: number }>(
    "SELECT tool, calls, credits FROM tool_usage_monthly WHERE account_id = ? AND period = ? ORDER BY tool",
  );
  const used = db.statement<{ used: number }>(
    "SELECT used FROM credit_balances WHERE account_id = ? AND period = ?",
  );
  const recent = db.statement<CallRow>(
    `SELECT seq, call_id, request_id, key_id, tool, status, http_status,
            CASE WHEN status = 'refunded' THEN 0 ELSE credits END AS credits, at
     FROM usage_calls
     WHERE account_id = ? AND period = ? AND (? IS NULL OR seq < CAST(? AS INTEGER))
     ORDER BY seq DESC LIMIT ?`,
  );

  return async (query) => {
    const below = parseCursor(query.cursor);
    const limit = pageSize(query.limit);
    return db.read(() =>
      toUsageReport(
        {
          byTool: totals.all(query.accountId, query.period),
          used: used.get(query.accountId, query.period)?.used ?? 0,
          // One row more than asked tells whether another page exists without counting.
          calls: recent.all(query.accountId, query.period, below, below, limit + 1),
        },
        limit,
      ),
    );
  };
}
