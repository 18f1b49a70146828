/**
 * The webhook outbox on SQLite: its one writer, `appendEvents`, which the stores' methods that
 * cause events (a key's revocation; later the ledger's settlement) call inside their own
 * transaction, so an event is committed with its fact or not at all. Boundary: inserts into
 * `webhook_events` and `webhook_deliveries` only.
 */
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";
import type { Db } from "./db.ts";

/** Writes events and their deliveries; must run inside a transaction. Returns the deliveries written. */
export type AppendEvents = (events: readonly NewWebhookEvent[]) => number;

const SUBSCRIBED = `w.enabled = 1 AND (
  CASE WHEN ?5 IS NULL THEN EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = ?2) ELSE w.id = ?5 END)`;

export function createAppendEvents(db: Db): AppendEvents {
  const insertEvent = db.statement(
    `INSERT INTO webhook_events (id, type, data, created_at)
     SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE ${SUBSCRIBED})`,
  );
  const insertDeliveries = db.statement(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, created_at)
     SELECT 'dlv_' || lower(hex(randomblob(16))), w.id, ?1, 'pending', 0, ?4, ?4
     FROM webhook_endpoints w WHERE ${SUBSCRIBED} ORDER BY w.created_at, w.id`,
  );
  return (events) => {
    let written = 0;
    for (const event of events) {
      const values = [event.id, event.type, event.data, event.createdAt, event.endpointId ?? null];
      if (insertEvent.run(...values) === 1) written += insertDeliveries.run(...values);
    }
    return written;
  };
}
