/**
 * The audit log on SQLite: each entry written in the transaction of the change it records, with the
 * webhook events the change causes (`createAudited`, used by the stores that make operator changes), read newest first, paged by
 * keyset on `audit_log.seq`. Boundary: the `audit_log` table only.
 */
import type { AuditLog, NewAuditEntry } from "../../ports/store.ts";
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";
import {
  AUDIT_COLUMNS,
  type AuditRow,
  auditValues,
  pageSize,
  parseCursor,
  toAuditPage,
} from "../sql-rows.ts";
import type { Db } from "./db.ts";
import { type AppendEvents, createAppendEvents } from "./outbox.ts";

const APPEND = `INSERT INTO audit_log (at, actor_type, actor_id, action, target, request_id, details)
  VALUES (?, ?, ?, ?, ?, ?, ?)`;

/**
 * Runs `change` (which returns how many rows it changed) and, when it changed any, writes `audit`
 * and the webhook `events` it causes in the same transaction; with neither, the change alone.
 */
export type Audited = (
  change: () => number,
  audit: NewAuditEntry | undefined,
  events?: readonly NewWebhookEvent[],
) => number;

export function createAudited(db: Db, appendEvents: AppendEvents = createAppendEvents(db)): Audited {
  const append = db.statement(APPEND);
  return (change, audit, events = []) => {
    if (audit === undefined && events.length === 0) return change();
    return db.transaction(() => {
      const changed = change();
      if (changed > 0) {
        if (audit !== undefined) append.run(...auditValues(audit));
        appendEvents(events);
      }
      return changed;
    });
  };
}

export function createAuditLog(db: Db): AuditLog {
  const page = db.statement<AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_log
     WHERE (?1 IS NULL OR seq < CAST(?1 AS INTEGER)) AND (?2 IS NULL OR target = ?2)
     ORDER BY seq DESC LIMIT ?3`,
  );
  return {
    async listAudit(query) {
      const below = parseCursor(query.cursor);
      const limit = pageSize(query.limit);
      // One row more than asked tells whether another page exists without counting.
      return toAuditPage(page.all(below, query.target ?? null, limit + 1), limit);
    },
  };
}
