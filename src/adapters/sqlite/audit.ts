/**
 * The audit log on SQLite: appended to, read newest first, paged by keyset on `audit_log.seq`.
 * Boundary: the `audit_log` table only.
 */
import type { AuditLog } from "../../ports/store.ts";
import {
  AUDIT_COLUMNS,
  type AuditRow,
  auditValues,
  pageSize,
  parseCursor,
  toAuditPage,
} from "../sql-rows.ts";
import type { Db } from "./db.ts";

export function createAuditLog(db: Db): AuditLog {
  const append = db.statement(
    `INSERT INTO audit_log (at, actor_type, actor_id, action, target, request_id, details)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const page = db.statement<AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_log
     WHERE (?1 IS NULL OR seq < CAST(?1 AS INTEGER)) AND (?2 IS NULL OR target = ?2)
     ORDER BY seq DESC LIMIT ?3`,
  );
  return {
    async appendAudit(entry) {
      append.run(...auditValues(entry));
    },
    async listAudit(query) {
      const below = parseCursor(query.cursor);
      const limit = pageSize(query.limit);
      // One row more than asked tells whether another page exists without counting.
      return toAuditPage(page.all(below, query.target ?? null, limit + 1), limit);
    },
  };
}
