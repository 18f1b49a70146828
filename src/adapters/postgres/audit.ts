/**
 * The audit log on PostgreSQL: appended to, read newest first, paged by keyset on the
 * `audit_log.seq` bigserial. Boundary: the `audit_log` table only.
 */
import type { Pool } from "pg";
import type { AuditLog } from "../../ports/store.ts";
import { type AuditRow, auditValues, pageSize, parseCursor, toAuditPage } from "../sql-rows.ts";
import { run, statement } from "./db.ts";

const APPEND = statement(
  "audit_append",
  `INSERT INTO audit_log (at, actor_type, actor_id, action, target, request_id, details)
   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);
const PAGE = statement(
  "audit_page",
  `SELECT seq::text AS seq, at, actor_type, actor_id, action, target, request_id, details
   FROM audit_log
   WHERE ($1::bigint IS NULL OR seq < $1::bigint) AND ($2::text IS NULL OR target = $2::text)
   ORDER BY seq DESC LIMIT $3`,
);

export function createAuditLog(pool: Pool): AuditLog {
  return {
    async appendAudit(entry) {
      await run(pool, APPEND, auditValues(entry));
    },
    async listAudit(query) {
      const below = parseCursor(query.cursor);
      const limit = pageSize(query.limit);
      const rows = await run<AuditRow>(pool, PAGE, [below, query.target ?? null, limit + 1]);
      return toAuditPage(rows, limit);
    },
  };
}
