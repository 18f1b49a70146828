/**
 * The audit log as clients read it, and the one way actions are written to it: every admin and
 * CLI action goes through `audit`, called by the core function that made the change (admin.ts,
 * admin-keys.ts), so the admin API and the CLI leave the same record.
 */
import type { Actor, AuditEntry, AuditLog } from "../ports/store.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";

/** Who acts, and the request that carried it (null for the CLI). */
export interface ActedBy {
  readonly actor: Actor;
  readonly requestId: string | null;
}

/** The CLI run by an operating-system user. */
export function cliActor(user: string): ActedBy {
  return { actor: { type: "cli", id: user }, requestId: null };
}

export async function audit(
  store: Pick<AuditLog, "appendAudit">,
  by: ActedBy,
  now: Date,
  action: string,
  target: string,
  details: Readonly<Record<string, unknown>>,
): Promise<void> {
  await store.appendAudit({
    at: now.toISOString(),
    actor: by.actor,
    action,
    target,
    requestId: by.requestId,
    details,
  });
}

export interface AuditEntryView {
  at: string;
  actor: { type: "admin_key" | "cli"; id: string };
  action: string;
  target: string;
  request_id: string | null;
  details: Record<string, unknown>;
}

export interface AuditView {
  entries: AuditEntryView[];
  next_cursor: string | null;
}

const AUDIT_CURSOR = "a1";

export async function readAuditLog(
  store: Pick<AuditLog, "listAudit">,
  query: { limit: number; cursor: string | null; target: string | null },
): Promise<AuditView> {
  const page = await store.listAudit({
    limit: query.limit,
    cursor: query.cursor === null ? null : decodeCursor(AUDIT_CURSOR, query.cursor),
    ...(query.target === null ? {} : { target: query.target }),
  });
  return {
    entries: page.entries.map(entryView),
    next_cursor: page.nextCursor === null ? null : encodeCursor(AUDIT_CURSOR, page.nextCursor),
  };
}

function entryView(entry: AuditEntry): AuditEntryView {
  return {
    at: entry.at,
    actor: { type: entry.actor.type, id: entry.actor.id },
    action: entry.action,
    target: entry.target,
    request_id: entry.requestId,
    details: { ...entry.details },
  };
}
