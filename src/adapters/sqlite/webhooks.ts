/**
 * WebhookStore on SQLite. Boundary: the `webhook_*` tables; events are written by outbox.ts. One
 * process writes the file at a time, so a claim is a transaction that marks the
 * due rows with a lease: a process that dies mid-send leaves the lease to run out, and the
 * delivery is claimed again.
 */
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
import type { Audited } from "./audit.ts";
import type { Db } from "./db.ts";
import type { AppendEvents } from "./outbox.ts";

/** Rows one purge statement removes, at most, so it never holds the write lock long. */
const PURGE_BATCH = 500;

export function createWebhookStore(db: Db, audited: Audited, appendEvents: AppendEvents): WebhookStore {
  const insertEndpoint = db.statement(
    `INSERT INTO webhook_endpoints (id, url, events, description, secret, enabled, disabled_reason, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 1, NULL, ?, ?)`,
  );
  const endpoint = db.statement<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`,
  );
  const endpoints = db.statement<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ORDER BY created_at, id`,
  );
  const updateEndpoint = db.statement(
    `UPDATE webhook_endpoints SET
       url = coalesce(?1, url),
       events = coalesce(?2, events),
       description = coalesce(?3, description),
       enabled = coalesce(?4, enabled),
       disabled_reason = CASE WHEN ?4 = 1 THEN NULL ELSE disabled_reason END,
       updated_at = ?5
     WHERE id = ?6`,
  );
  // The attempts and deliveries go by ON DELETE CASCADE; events stay (another endpoint may share them).
  const deleteEndpoint = db.statement("DELETE FROM webhook_endpoints WHERE id = ?");
  const page = db.statement<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
     WHERE d.endpoint_id = ?1 AND (?2 IS NULL OR d.seq < CAST(?2 AS INTEGER))
     ORDER BY d.seq DESC LIMIT ?3`,
  );
  const attemptsOf = db.statement<AttemptRow>(
    `SELECT delivery_id, attempt, at, status_code, error, duration_ms FROM webhook_attempts
     WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`,
  );
  const delivery = db.statement<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
     WHERE d.endpoint_id = ? AND d.id = ?`,
  );
  const retry = db.statement(
    `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, lease_until = NULL, lease_token = NULL
     WHERE endpoint_id = ? AND id = ?`,
  );
  const due = db.statement<{ id: string }>(
    `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
     WHERE d.state = 'pending' AND d.next_attempt_at <= ?1 AND w.enabled = 1
       AND (d.lease_until IS NULL OR d.lease_until <= ?1)
     ORDER BY d.next_attempt_at, d.seq LIMIT ?2`,
  );
  const lease = db.statement("UPDATE webhook_deliveries SET lease_until = ?, lease_token = ? WHERE id = ?");
  const claimed = db.statement<ClaimedRow>(
    `SELECT ${CLAIMED_COLUMNS} FROM webhook_deliveries d
     JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN webhook_events e ON e.id = d.event_id
     WHERE d.lease_token = ? ORDER BY d.next_attempt_at, d.seq`,
  );
  const settle = db.statement(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, state = ?1, next_attempt_at = ?2,
       delivered_at = CASE WHEN ?1 = 'delivered' THEN ?3 ELSE delivered_at END,
       lease_until = NULL, lease_token = NULL
     WHERE id = ?4 AND lease_token = ?5`,
  );
  const attemptNumber = db.statement<{ attempts: number; endpoint_id: string }>(
    "SELECT attempts, endpoint_id FROM webhook_deliveries WHERE id = ?",
  );
  const insertAttempt = db.statement(
    `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const disable = db.statement(
    "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'gone', updated_at = ? WHERE id = ?",
  );
  const release = db.statement(
    "UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL WHERE id = ? AND lease_token = ?",
  );
  // `state <> 'pending'` as the index of migration 0015 says it; the attempts go by ON DELETE CASCADE.
  const purgeDeliveries = db.statement(
    `DELETE FROM webhook_deliveries WHERE seq IN (
       SELECT seq FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ?1 LIMIT ?2)`,
  );
  // An event gets no delivery after the transaction that wrote it: one without any stays without.
  const purgeEvents = db.statement(
    `DELETE FROM webhook_events WHERE id IN (
       SELECT e.id FROM webhook_events e WHERE e.created_at < ?1
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT ?2)`,
  );

  const withAttempts = (rows: readonly DeliveryRow[]): AttemptRow[] =>
    rows.length === 0 ? [] : attemptsOf.all(JSON.stringify(rows.map((row) => row.id)));

  return {
    async createWebhookEndpoint(e, audit?: NewAuditEntry) {
      audited(
        () =>
          insertEndpoint.run(
            e.id,
            e.url,
            JSON.stringify(e.events),
            e.description,
            e.secret,
            e.createdAt,
            e.createdAt,
          ),
        audit,
      );
    },
    async getWebhookEndpoint(id) {
      const row = endpoint.get(id);
      return row ? toEndpoint(row) : null;
    },
    async listWebhookEndpoints() {
      return endpoints.all().map(toEndpoint);
    },
    async updateWebhookEndpoint(id, change, at, audit) {
      const enabled = change.enabled === undefined ? null : Number(change.enabled);
      const events = change.events === undefined ? null : JSON.stringify(change.events);
      const changed = audited(
        () => updateEndpoint.run(change.url ?? null, events, change.description ?? null, enabled, at, id),
        audit,
      );
      return changed === 1;
    },
    async deleteWebhookEndpoint(id, audit) {
      return audited(() => deleteEndpoint.run(id), audit) === 1;
    },
    async appendWebhookEvents(events, audit) {
      const append = () => appendEvents(events);
      return audit === undefined ? db.transaction(append) : audited(append, audit);
    },
    async listWebhookDeliveries(query) {
      const below = parseCursor(query.cursor);
      const limit = pageSize(query.limit);
      return db.read(() => {
        const rows = page.all(query.endpointId, below, limit + 1);
        return toDeliveryPage(rows, withAttempts(rows.slice(0, limit)), limit);
      });
    },
    async getWebhookDelivery(endpointId, deliveryId) {
      return db.read(() => {
        const row = delivery.get(endpointId, deliveryId);
        return row ? toDelivery(row, withAttempts([row])) : null;
      });
    },
    async retryWebhookDelivery(endpointId, deliveryId, at, audit) {
      return audited(() => retry.run(at, endpointId, deliveryId), audit) === 1;
    },
    async claimWebhookDeliveries(request) {
      // A read first, so an idle deliverer never takes the write lock. The writes go through the
      // write queue, which waits for another process's lock off the event loop.
      if (due.all(request.now, 1).length === 0) return [];
      return db.write(() => {
        for (const row of due.all(request.now, request.limit))
          lease.run(request.leaseUntil, request.claim, row.id);
        return claimed.all(request.claim).map((row) => toClaimed(row, request.claim));
      });
    },
    async recordWebhookAttempt(result) {
      return db.write(() => {
        const { attempt } = result;
        const settled = settle.run(
          result.state,
          result.nextAttemptAt,
          attempt.at,
          result.deliveryId,
          result.claim,
        );
        if (settled !== 1) return false;
        const row = attemptNumber.get(result.deliveryId);
        if (row === undefined) return false;
        insertAttempt.run(
          result.deliveryId,
          row.attempts,
          attempt.at,
          attempt.statusCode,
          attempt.error,
          Math.round(attempt.durationMs),
        );
        if (result.disableEndpoint) disable.run(attempt.at, row.endpoint_id);
        return true;
      });
    },
    async releaseWebhookClaim(deliveryId, claim) {
      await db.write(() => release.run(deliveryId, claim));
    },
    async purgeWebhooks(before) {
      const batches = async (purge: typeof purgeDeliveries) => {
        let removed = 0;
        for (;;) {
          const batch = await db.write(() => purge.run(before, PURGE_BATCH));
          removed += batch;
          if (batch < PURGE_BATCH) return removed;
        }
      };
      const deliveries = await batches(purgeDeliveries);
      return { deliveries, events: await batches(purgeEvents) };
    },
  };
}
