/**
 * The webhook outbox on PostgreSQL: its one writer, `appendEvents`, which the stores' methods that
 * cause events (a key's revocation; later the ledger's settlement) call on their own
 * transaction's client, so an event is committed with its fact or not at all. Boundary: inserts
 * into `webhook_events` and `webhook_deliveries` only.
 */
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";
import { type Queryable, run, statement } from "./db.ts";

/** Whether endpoint `w` takes the event whose type and only endpoint are these parameters. */
const subscribed = (type: string, only: string) =>
  `w.enabled AND CASE WHEN ${only}::text IS NULL THEN ${type}::text = ANY (w.events) ELSE w.id = ${only}::text END`;

const INSERT_EVENT = statement(
  "webhook_event_insert",
  `INSERT INTO webhook_events (id, type, data, created_at)
   SELECT $1, $2, $3, $4::timestamptz WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE ${subscribed("$2", "$5")})
   RETURNING id`,
);
const INSERT_DELIVERIES = statement(
  "webhook_deliveries_insert",
  `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, created_at)
   SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), w.id, $1, 'pending', 0, $3::timestamptz, $3::timestamptz
   FROM webhook_endpoints w WHERE ${subscribed("$2", "$4")} ORDER BY w.created_at, w.id
   RETURNING id`,
);

/** Writes events and their deliveries on `db` (a transaction's client). Returns the deliveries written. */
export async function appendEvents(db: Queryable, events: readonly NewWebhookEvent[]): Promise<number> {
  let written = 0;
  for (const event of events) {
    const only = event.endpointId ?? null;
    if ((await run(db, INSERT_EVENT, [event.id, event.type, event.data, event.createdAt, only])).length === 1)
      written += (await run(db, INSERT_DELIVERIES, [event.id, event.type, event.createdAt, only])).length;
  }
  return written;
}
