/**
 * Rows of the webhook tables both SQL stores share (same names, see their 0008 migrations) turned
 * into the port's records. SQLite keeps an endpoint's events as JSON text and its flags as 0/1;
 * PostgreSQL as text[] and boolean.
 */
import type {
  ClaimedDelivery,
  WebhookAttemptRecord,
  WebhookDeliveryPage,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
} from "../ports/webhook-store.ts";
import { iso, type Timestamp } from "./sql-rows.ts";

export const ENDPOINT_COLUMNS =
  "id, url, events, description, secret, enabled, disabled_reason, created_at, updated_at";

export interface EndpointRow {
  id: string;
  url: string;
  events: string | string[];
  description: string;
  secret: string;
  enabled: number | boolean;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export function toEndpoint(row: EndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    events: typeof row.events === "string" ? (JSON.parse(row.events) as string[]) : [...row.events],
    description: row.description,
    secret: row.secret,
    enabled: row.enabled === true || row.enabled === 1,
    disabledReason: row.disabled_reason,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The columns of a delivery with its event's type, `d` and `e` being the two tables. */
export const DELIVERY_COLUMNS =
  "d.seq, d.id, d.endpoint_id, d.event_id, e.type AS event_type, d.state, d.attempts, d.next_attempt_at, d.created_at, d.delivered_at";

export interface DeliveryRow {
  seq: string | number;
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  state: WebhookDeliveryRecord["state"];
  attempts: number;
  next_attempt_at: Timestamp | null;
  created_at: Timestamp;
  delivered_at: Timestamp | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

function toAttempt(row: AttemptRow): WebhookAttemptRecord {
  return {
    attempt: row.attempt,
    at: iso(row.at),
    statusCode: row.status_code,
    error: row.error,
    durationMs: row.duration_ms,
  };
}

export function toDelivery(row: DeliveryRow, attempts: readonly AttemptRow[]): WebhookDeliveryRecord {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at === null ? null : iso(row.next_attempt_at),
    createdAt: iso(row.created_at),
    deliveredAt: row.delivered_at === null ? null : iso(row.delivered_at),
    attemptLog: attempts.filter((a) => a.delivery_id === row.id).map(toAttempt),
  };
}

/** A page from rows fetched newest first, one more than `limit` when another page follows. */
export function toDeliveryPage(
  rows: readonly DeliveryRow[],
  attempts: readonly AttemptRow[],
  limit: number,
): WebhookDeliveryPage {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    deliveries: page.map((row) => toDelivery(row, attempts)),
    nextCursor: rows.length > limit && last ? String(last.seq) : null,
  };
}

export const CLAIMED_COLUMNS =
  "d.id AS delivery_id, d.attempts, w.id AS endpoint_id, w.url, w.secret, e.id AS event_id, e.type, e.created_at, e.data";

export interface ClaimedRow {
  delivery_id: string;
  attempts: number;
  endpoint_id: string;
  url: string;
  secret: string;
  event_id: string;
  type: string;
  created_at: Timestamp;
  data: string;
}

export function toClaimed(row: ClaimedRow, claim: string): ClaimedDelivery {
  return {
    deliveryId: row.delivery_id,
    claim,
    attempts: row.attempts,
    endpoint: { id: row.endpoint_id, url: row.url, secret: row.secret },
    event: { id: row.event_id, type: row.type, createdAt: iso(row.created_at), data: row.data },
  };
}
