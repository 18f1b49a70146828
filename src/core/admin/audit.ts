/**
 * The audit log as clients read it, and the one way actions are recorded in it: the core function
 * that makes a change (actions.ts, admin-keys.ts) hands the store the `auditEntry` with it, which
 * the store writes in the same transaction, so the admin API and the CLI leave the same record and
 * the log never misses a change that was made.
 */
import type { Actor, AuditEntry, AuditLog, NewAuditEntry } from "../../ports/store.ts";
import { decodeCursor, encodeCursor } from "../contract/cursor.ts";

/** Who acts, and the request that carried it (null for the CLI). */
export interface ActedBy {
  readonly actor: Actor;
  readonly requestId: string | null;
}

/** The CLI run by an operating-system user. */
export function cliActor(user: string): ActedBy {
  return { actor: { type: "cli", id: user }, requestId: null };
}

/** The entry that records an action; the store writes it in the same transaction as the change. */
export function auditEntry(
  by: ActedBy,
  now: Date,
  action: string,
  target: string,
  details: Readonly<Record<string, unknown>>,
): NewAuditEntry {
  return { at: now.toISOString(), actor: by.actor, action, target, requestId: by.requestId, details };
}

export interface AuditEntryView {
  at: string;
  actor: { type: "admin_key" | "cli" | "member"; id: string };
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
