/**
 * WebhookStore on PostgreSQL. Boundary: the `webhook_*` tables; events are written by outbox.ts.
 * Every instance delivers: a claim takes due rows with FOR UPDATE SKIP LOCKED and
 * marks them with a lease in the same statement, so two deliverers never hold one delivery, and
 * one that dies mid-send leaves the lease to run out.
 */
import type { Pool } from "pg";
import type { NewAuditEntry } from "../../ports/store.ts";
import type { WebhookStore } from "../../ports/webhook-store.ts";
import { pageSize, parseCursor } from "../sql-rows.ts";
import {
  type AttemptRow,
  CLAIMED_COLUMNS,
  type ClaimedRow,
  DELIVERY_COLUMNS,
  type DeliveryRow,
  ENDPOINT_COLUMNS,
  type EndpointRow,
  toClaimed,
  toDelivery,
  toDeliveryPage,
  toEndpoint,
} from "../webhook-rows.ts";
import { audited } from "./audit.ts";
import { type Queryable, run, statement, transaction } from "./db.ts";
import { appendEvents } from "./outbox.ts";

const INSERT_ENDPOINT = statement(
  "webhook_endpoint_insert",
  `INSERT INTO webhook_endpoints (id, url, events, description, secret, enabled, disabled_reason, created_at, updated_at)
   VALUES ($1, $2, $3::text[], $4, $5, true, NULL, $6, $6)`,
);
const ENDPOINT = statement(
  "webhook_endpoint",
  `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`,
);
const ENDPOINTS = statement(
  "webhook_endpoints",
  `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`,
);
const UPDATE_ENDPOINT = statement(
  "webhook_endpoint_update",
  `UPDATE webhook_endpoints SET
     url = coalesce($1::text, url),
     events = coalesce($2::text[], events),
     description = coalesce($3::text, description),
     enabled = coalesce($4::boolean, enabled),
     disabled_reason = CASE WHEN $4::boolean THEN NULL ELSE disabled_reason END,
     updated_at = $5::timestamptz
   WHERE id = $6 RETURNING id`,
);
// The attempts and deliveries go by ON DELETE CASCADE; events stay (another endpoint may share them).
const DELETE_ENDPOINT = statement(
  "webhook_endpoint_delete",
  "DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id",
);
const PAGE = statement(
  "webhook_delivery_page",
  `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
   WHERE d.endpoint_id = $1 AND ($2::bigint IS NULL OR d.seq < $2::bigint)
   ORDER BY d.seq DESC LIMIT $3`,
);
const ATTEMPTS = statement(
  "webhook_attempts",
  `SELECT delivery_id, attempt, at, status_code, error, duration_ms FROM webhook_attempts
   WHERE delivery_id = ANY ($1::text[]) ORDER BY delivery_id, attempt`,
);
const DELIVERY = statement(
  "webhook_delivery",
  `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
   WHERE d.endpoint_id = $1 AND d.id = $2`,
);
const RETRY = statement(
  "webhook_delivery_retry",
  `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $1::timestamptz, lease_until = NULL, lease_token = NULL
   WHERE endpoint_id = $2 AND id = $3 RETURNING id`,
);
// SKIP LOCKED: rows another deliverer is claiming right now are left to it, not waited for; the
// lease then keeps them from every other claim until it runs out.
const CLAIM = statement(
  "webhook_claim",
  `WITH due AS (
     SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
     WHERE d.state = 'pending' AND d.next_attempt_at <= $1::timestamptz AND w.enabled
       AND (d.lease_until IS NULL OR d.lease_until <= $1::timestamptz)
     ORDER BY d.next_attempt_at, d.seq LIMIT $4
     FOR UPDATE OF d SKIP LOCKED
   ), leased AS (
     UPDATE webhook_deliveries d SET lease_until = $2::timestamptz, lease_token = $3
     FROM due WHERE d.id = due.id
     RETURNING d.id, d.attempts, d.endpoint_id, d.event_id, d.next_attempt_at, d.seq
   )
   SELECT ${CLAIMED_COLUMNS} FROM leased d
   JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN webhook_events e ON e.id = d.event_id
   ORDER BY d.next_attempt_at, d.seq`,
);
const SETTLE = statement(
  "webhook_settle",
  `UPDATE webhook_deliveries SET attempts = attempts + 1, state = $1, next_attempt_at = $2::timestamptz,
     delivered_at = CASE WHEN $1 = 'delivered' THEN $3::timestamptz ELSE delivered_at END,
     lease_until = NULL, lease_token = NULL
   WHERE id = $4 AND lease_token = $5 RETURNING attempts, endpoint_id`,
);
const INSERT_ATTEMPT = statement(
  "webhook_attempt_insert",
  `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms)
   VALUES ($1, $2, $3, $4, $5, $6)`,
);
const DISABLE = statement(
  "webhook_endpoint_gone",
  "UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'gone', updated_at = $1 WHERE id = $2",
);
const RELEASE = statement(
  "webhook_release",
  "UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2",
);
/** Rows one purge statement removes, at most, so no statement holds many locks long. */
const PURGE_BATCH = 500;
// The state is checked by the DELETE itself, so a delivery a retry made pending meanwhile stays;
// SKIP LOCKED leaves rows a deliverer or a retry holds to a later run. `state <> 'pending'` is
// how the index of migration 0015 says it. The attempts go by ON DELETE CASCADE.
const PURGE_DELIVERIES = statement(
  "webhook_purge_deliveries",
  `DELETE FROM webhook_deliveries WHERE state <> 'pending' AND seq IN (
     SELECT seq FROM webhook_deliveries WHERE state <> 'pending' AND created_at < $1::timestamptz
     LIMIT $2 FOR UPDATE SKIP LOCKED)
   RETURNING seq`,
);
// An event gets no delivery after the transaction that wrote it: one without any stays without.
const PURGE_EVENTS = statement(
  "webhook_purge_events",
  `DELETE FROM webhook_events e WHERE e.id IN (
     SELECT id FROM webhook_events WHERE created_at < $1::timestamptz
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)
     LIMIT $2 FOR UPDATE SKIP LOCKED)
     AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
   RETURNING e.id`,
);

export function createWebhookStore(pool: Pool): WebhookStore {
  const withAttempts = async (db: Queryable, rows: readonly DeliveryRow[]): Promise<AttemptRow[]> =>
    rows.length === 0 ? [] : run<AttemptRow>(db, ATTEMPTS, [rows.map((row) => row.id)]);
  const count = async (work: (db: Queryable) => Promise<unknown[]>, audit?: NewAuditEntry) =>
    audited(pool, audit, async (db) => (await work(db)).length);

  return {
    async createWebhookEndpoint(e, audit) {
      await audited(pool, audit, async (db) => {
        await run(db, INSERT_ENDPOINT, [e.id, e.url, [...e.events], e.description, e.secret, e.createdAt]);
        return 1;
      });
    },
    async getWebhookEndpoint(id) {
      const [row] = await run<EndpointRow>(pool, ENDPOINT, [id]);
      return row ? toEndpoint(row) : null;
    },
    async listWebhookEndpoints() {
      return (await run<EndpointRow>(pool, ENDPOINTS, [])).map(toEndpoint);
    },
    async updateWebhookEndpoint(id, change, at, audit) {
      const values = [
        change.url ?? null,
        change.events === undefined ? null : [...change.events],
        change.description ?? null,
        change.enabled ?? null,
        at,
        id,
      ];
      return (await count((db) => run(db, UPDATE_ENDPOINT, values), audit)) === 1;
    },
    async deleteWebhookEndpoint(id, audit) {
      return (await count((db) => run(db, DELETE_ENDPOINT, [id]), audit)) === 1;
    },
    async appendWebhookEvents(events, audit) {
      return audit === undefined
        ? transaction(pool, (client) => appendEvents(client, events))
        : audited(pool, audit, (client) => appendEvents(client, events));
    },
    async listWebhookDeliveries(query) {
      const below = parseCursor(query.cursor);
      const limit = pageSize(query.limit);
      return transaction(
        pool,
        async (client) => {
          const rows = await run<DeliveryRow>(client, PAGE, [query.endpointId, below, limit + 1]);
          return toDeliveryPage(rows, await withAttempts(client, rows.slice(0, limit)), limit);
        },
        "REPEATABLE READ READ ONLY",
      );
    },
    async getWebhookDelivery(endpointId, deliveryId) {
      return transaction(
        pool,
        async (client) => {
          const [row] = await run<DeliveryRow>(client, DELIVERY, [endpointId, deliveryId]);
          return row ? toDelivery(row, await withAttempts(client, [row])) : null;
        },
        "REPEATABLE READ READ ONLY",
      );
    },
    async retryWebhookDelivery(endpointId, deliveryId, at, audit) {
      return (await count((db) => run(db, RETRY, [at, endpointId, deliveryId]), audit)) === 1;
    },
    async claimWebhookDeliveries(request) {
      const rows = await run<ClaimedRow>(pool, CLAIM, [
        request.now,
        request.leaseUntil,
        request.claim,
        request.limit,
      ]);
      return rows.map((row) => toClaimed(row, request.claim));
    },
    async recordWebhookAttempt(result) {
      const { attempt } = result;
      return transaction(pool, async (client) => {
        const [row] = await run<{ attempts: number; endpoint_id: string }>(client, SETTLE, [
          result.state,
          result.nextAttemptAt,
          attempt.at,
          result.deliveryId,
          result.claim,
        ]);
        if (row === undefined) return false;
        await run(client, INSERT_ATTEMPT, [
          result.deliveryId,
          row.attempts,
          attempt.at,
          attempt.statusCode,
          attempt.error,
          Math.round(attempt.durationMs),
        ]);
        if (result.disableEndpoint) await run(client, DISABLE, [attempt.at, row.endpoint_id]);
        return true;
      });
    },
    async releaseWebhookClaim(deliveryId, claim) {
      await run(pool, RELEASE, [deliveryId, claim]);
    },
    async purgeWebhooks(before) {
      const batches = async (purge: typeof PURGE_EVENTS) => {
        let removed = 0;
        for (;;) {
          const batch = (await run(pool, purge, [before, PURGE_BATCH])).length;
          removed += batch;
          if (batch < PURGE_BATCH) return removed;
        }
      };
      const deliveries = await batches(PURGE_DELIVERIES);
      return { deliveries, events: await batches(PURGE_EVENTS) };
    },
  };
}
