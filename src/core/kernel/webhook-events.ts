/**
 * The webhook events toolrun knows, and how one is made for the outbox: in the kernel because the
 * rooms that cause events (admin's key revocation, the call path's `credits.depleted`) both make
 * them, and the store writes them in the transaction of their fact. `credits.threshold` is made by
 * the stores themselves (credit-alerts.ts).
 */
import { randomUUIDv7 } from "node:crypto";
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";

/** Every event an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  "credits.threshold",
  "credits.depleted",
  "credits.granted",
  "key.revoked",
  "webhook.test",
  "job.succeeded",
  "job.failed",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The events this release sends; the others may be subscribed to and are sent once they exist. */
export const EMITTED_WEBHOOK_EVENTS: readonly WebhookEventType[] = [
  "credits.threshold",
  "credits.depleted",
  "credits.granted",
  "key.revoked",
  "webhook.test",
  "job.succeeded",
  "job.failed",
];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * An event for the outbox. Its id is the Standard Webhooks `webhook-id`, the same on every
 * attempt; time-ordered, so the events table grows at its right edge.
 */
export function webhookEvent(
  type: WebhookEventType,
  data: Readonly<Record<string, unknown>>,
  now: Date,
  endpointId?: string,
): NewWebhookEvent {
  return {
    id: `evt_${randomUUIDv7().replaceAll("-", "")}`,
    type,
    createdAt: now.toISOString(),
    data: JSON.stringify(data),
    ...(endpointId === undefined ? {} : { endpointId }),
  };
}

/** The body every delivery of an event sends: `{type, timestamp, data}`, `data` as it was written. */
export function webhookBody(event: { type: string; createdAt: string; data: string }): string {
  return `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(event.createdAt)},"data":${event.data}}`;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

/** The delays between a delivery's attempts when the receiver fails: 9 retries over about 3 days. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,14h,20h,24h";
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
];
/** The longest one delay may be. */
const MAX_DELAY_MS = 7 * 86_400_000;

/**
 * Durations separated by commas (`5s,5m,30m`: a number and `ms`, `s`, `m`, `h` or `d`, each at
 * most 7 days, at most 50 of them) in milliseconds; undefined when the text is not such a list.
 */
export function parseRetrySchedule(text: string): number[] | undefined {
  const parts = text.split(",").map((part) => part.trim());
  if (parts.length === 0 || parts.length > 50) return undefined;
  const delays: number[] = [];
  for (const part of parts) {
    const match = DURATION.exec(part);
    if (!match) return undefined;
    const ms = Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    if (ms > MAX_DELAY_MS) return undefined;
    delays.push(ms);
  }
  return delays;
}
