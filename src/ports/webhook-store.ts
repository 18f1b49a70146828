/**
 * The webhooks part of the storage port: the endpoints an operator registers, the outbox of events
 * (written in the transaction of the fact that causes them), one delivery per event and endpoint,
 * the claims deliverers take on due deliveries, and the log of attempts. Implemented by
 * adapters/sqlite/webhooks.ts and adapters/postgres/webhooks.ts; both pass one contract suite
 * (test/contracts/webhook-store.contract.ts).
 *
 * Events fan out to endpoints when they are written, not when they are sent: the endpoints that
 * receive an event are the ones enabled and subscribed when its fact happened, each delivery then
 * has its own schedule and state, and claiming one is a lock on one row.
 */
import type { NewAuditEntry } from "./records.ts";

/** An event for the outbox; the core makes it (id, type, data), the store writes it. */
export interface NewWebhookEvent {
  /** `evt_...`: the Standard Webhooks `webhook-id`. */
  readonly id: string;
  readonly type: string;
  readonly createdAt: string;
  /** The event's `data`, as JSON text. */
  readonly data: string;
  /**
   * Only to this endpoint, whatever it subscribed to (`webhook.test`); absent: to every enabled
   * endpoint subscribed to `type`.
   */
  readonly endpointId?: string;
}

export interface NewWebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string;
  readonly secret: string;
  readonly createdAt: string;
}

export interface WebhookEndpointRecord extends NewWebhookEndpoint {
  readonly enabled: boolean;
  /** Why the service turned it off (`gone`: the receiver answered 410); null otherwise. */
  readonly disabledReason: string | null;
  readonly updatedAt: string;
}

/** Members of an endpoint an operator may change; absent ones stay as they are. */
export interface WebhookEndpointChange {
  readonly url?: string;
  readonly events?: readonly string[];
  readonly description?: string;
  /** true also clears `disabledReason`. */
  readonly enabled?: boolean;
}

export type WebhookDeliveryState = "pending" | "delivered" | "failed";

export interface WebhookAttemptRecord {
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly at: string;
  /** The receiver's HTTP status; null when none came (timeout, refused connection). */
  readonly statusCode: number | null;
  /** What went wrong, briefly; null for a 2xx. */
  readonly error: string | null;
  readonly durationMs: number;
}

export interface WebhookDeliveryRecord {
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly state: WebhookDeliveryState;
  readonly attempts: number;
  /** When the next attempt is due; null once delivered or given up. */
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
  readonly deliveredAt: string | null;
  /** Oldest first. */
  readonly attemptLog: readonly WebhookAttemptRecord[];
}

export interface WebhookDeliveryQuery {
  readonly endpointId: string;
  readonly limit: number;
  /** `nextCursor` of a previous page (a decimal sequence number); null for the newest. */
  readonly cursor: string | null;
}

export interface WebhookDeliveryPage {
  /** Newest first. */
  readonly deliveries: readonly WebhookDeliveryRecord[];
  readonly nextCursor: string | null;
}

/** A due delivery a deliverer now holds, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly deliveryId: string;
  /** The claim's token: recordWebhookAttempt and releaseWebhookClaim need it. */
  readonly claim: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly endpoint: { readonly id: string; readonly url: string; readonly secret: string };
  readonly event: {
    readonly id: string;
    readonly type: string;
    readonly createdAt: string;
    /** JSON text. */
    readonly data: string;
  };
}

export interface WebhookClaimRequest {
  readonly now: string;
  /** Until when the claim holds; past it, another deliverer may take the delivery. */
  readonly leaseUntil: string;
  /** Unique to this claim. */
  readonly claim: string;
  readonly limit: number;
}

/** What one attempt gave, and what follows from it. */
export interface WebhookAttemptResult {
  readonly deliveryId: string;
  readonly claim: string;
  readonly attempt: Omit<WebhookAttemptRecord, "attempt">;
  /** `pending` with `nextAttemptAt`: retried then. */
  readonly state: WebhookDeliveryState;
  readonly nextAttemptAt: string | null;
  /** The receiver answered 410: its endpoint is turned off, reason `gone`. */
  readonly disableEndpoint: boolean;
}

/** What one purge removed (webhook_attempts go with their deliveries, uncounted). */
export interface WebhookPurge {
  readonly deliveries: number;
  readonly events: number;
}

export interface WebhookStore {
  createWebhookEndpoint(endpoint: NewWebhookEndpoint, audit?: NewAuditEntry): Promise<void>;
  getWebhookEndpoint(id: string): Promise<WebhookEndpointRecord | null>;
  /** Every endpoint, oldest first (an operator has a handful). */
  listWebhookEndpoints(): Promise<WebhookEndpointRecord[]>;
  /** False when no such endpoint. */
  updateWebhookEndpoint(
    id: string,
    change: WebhookEndpointChange,
    at: string,
    audit?: NewAuditEntry,
  ): Promise<boolean>;
  /** Removes it with its deliveries and their attempts. False when no such endpoint. */
  deleteWebhookEndpoint(id: string, audit?: NewAuditEntry): Promise<boolean>;
  /**
   * Writes the events and their deliveries in one transaction of their own (the store's methods
   * that cause events write them in theirs, with the same statements), with `audit` when any
   * delivery was written. Returns how many deliveries were written: an event no enabled endpoint
   * subscribes to is not written.
   */
  appendWebhookEvents(events: readonly NewWebhookEvent[], audit?: NewAuditEntry): Promise<number>;
  listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDeliveryPage>;
  getWebhookDelivery(endpointId: string, deliveryId: string): Promise<WebhookDeliveryRecord | null>;
  /**
   * Makes the delivery due at `at` again, whatever its state (a given-up one gets one attempt
   * more). False when the endpoint has no such delivery.
   */
  retryWebhookDelivery(
    endpointId: string,
    deliveryId: string,
    at: string,
    audit?: NewAuditEntry,
  ): Promise<boolean>;
  /**
   * Claims up to `limit` pending deliveries due at `now` of enabled endpoints, oldest due first,
   * that no live claim holds: atomically against every other deliverer, so two never hold one.
   */
  claimWebhookDeliveries(request: WebhookClaimRequest): Promise<ClaimedDelivery[]>;
  /**
   * Records an attempt and its outcome, and frees the claim, in one transaction. False, writing
   * nothing, when the claim is no longer held (its lease ran out and another deliverer took it).
   */
  recordWebhookAttempt(result: WebhookAttemptResult): Promise<boolean>;
  /** Frees a claim without an attempt (the deliverer is stopping): the delivery is due again. */
  releaseWebhookClaim(deliveryId: string, claim: string): Promise<void>;
  /**
   * Removes the deliveries delivered or given up that were created before `before`, with their
   * attempts, then the events created before it that no delivery refers to any more. A pending
   * delivery stays whatever its age (it is still being retried), and so does its event. Safe to
   * run on several instances at once and next to deliverers.
   */
  purgeWebhooks(before: string): Promise<WebhookPurge>;
}
