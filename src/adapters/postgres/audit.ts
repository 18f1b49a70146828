/**
 * The audit log on PostgreSQL: each entry written in the transaction of the change it records, with
 * the webhook events the change causes (`audited`, used by the stores that make operator changes), read newest first, paged by keyset
 * on the `audit_log.seq` bigserial. Boundary: the `audit_log` table only.
 */
import type { Pool } from "pg";
import type { AuditLog, NewAuditEntry } from "../../ports/store.ts";
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";
import { type AuditRow, auditValues, pageSize, parseCursor, toAuditPage } from "../sql-rows.ts";
import { type Queryable, run, statement, transaction } from "./db.ts";
import { appendEvents } from "./outbox.ts";

const APPEND = statement(
  "audit_append",
  `INSERT INTO audit_log (at, actor_type, actor_id, action, target, request_id, details)
   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);
const PAGE = statement(
  "audit_page",
  `SELECT seq, at, actor_type, actor_id, action, target, request_id, details
   FROM audit_log
   WHERE ($1::bigint IS NULL OR seq < $1::bigint) AND ($2::text IS NULL OR target = $2::text)
   ORDER BY seq DESC LIMIT $3`,
);

/**
 * Runs `change` (which returns how many rows it changed) and, when it changed any, writes `audit`
 * and the webhook `events` it causes in the same transaction; with neither, the change alone, as
 * one statement.
 */
export async function audited(
  pool: Pool,
  audit: NewAuditEntry | undefined,
  change: (db: Queryable) => Promise<number>,
  events: readonly NewWebhookEvent[] = [],
): Promise<number> {
  if (audit === undefined && events.length === 0) return change(pool);
  return transaction(pool, async (client) => {
    const changed = await change(client);
    if (changed > 0) {
      if (audit !== undefined) await run(client, APPEND, auditValues(audit));
      await appendEvents(client, events);
    }
    return changed;
  });
}

export function createAuditLog(pool: Pool): AuditLog {
  return {
    async listAudit(query) {
      const below = parseCursor(query.cursor);
      const limit = pageSize(query.limit);
      const rows = await run<AuditRow>(pool, PAGE, [below, query.target ?? null, limit + 1]);
      return toAuditPage(rows, limit);
    },
  };
}
