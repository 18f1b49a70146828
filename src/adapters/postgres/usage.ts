/**
 * The usage report on PostgreSQL: totals and by-tool figures from the ledger's counters, and the
 * recent calls newest first, paged by keyset on the `usage_calls.seq` bigserial (the cursor is
 * that decimal number; the core makes it opaque for clients). Both reads run in
 * one REPEATABLE READ snapshot so the figures of one report always agree with each other.
 * Boundary: read-only.
 */
import type { Pool } from "pg";
import type { UsageQuery, UsageReport } from "../../ports/store.ts";
import { type CallRow, pageSize, parseCursor, toUsageReport } from "../sql-rows.ts";
import { run, statement, transaction } from "./db.ts";

const TOTALS = statement(
  "usage_totals",
  `SELECT tool, calls, credits FROM tool_usage_monthly
   WHERE account_id = $1 AND period = $2 ORDER BY tool`,
);
const USED = statement(
  "usage_used",
  "SELECT used FROM credit_balances WHERE account_id = $1 AND period = $2",
);
const RECENT = statement(
  "usage_recent",
  `SELECT seq, call_id, request_id, key_id, tool, status, http_status,
          CASE WHEN status = 'refunded' THEN 0 ELSE credits END AS credits, at
   FROM usage_calls
   WHERE account_id = $1 AND period = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
   ORDER BY seq DESC LIMIT $4`,
);

export async function usageReport(pool: Pool, query: UsageQuery): Promise<UsageReport> {
  const below = parseCursor(query.cursor);
  const limit = pageSize(query.limit);
  return transaction(
    pool,
    async (client) => {
      const byTool = await run<{ tool: string; calls: number; credits: number }>(client, TOTALS, [
        query.accountId,
        query.period,
      ]);
      const [used] = await run<{ used: number }>(client, USED, [query.accountId, query.period]);
      // One row more than asked tells whether another page exists without counting.
      const calls = await run<CallRow>(client, RECENT, [query.accountId, query.period, below, limit + 1]);
      return toUsageReport({ byTool, used: used?.used ?? 0, calls }, limit);
    },
    "REPEATABLE READ READ ONLY",
  );
}
