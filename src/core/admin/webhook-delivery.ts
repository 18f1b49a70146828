/**
 * Sending webhook deliveries, on every instance: claim what is due (the store makes the claim
 * exclusive across instances, under a lease), sign each with the endpoint's secret by the
 * Standard Webhooks library, POST it through the Upstream port (no redirects followed, one
 * deadline), and record the attempt with what follows from it, in one transaction:
 *
 * - a 2xx is delivered;
 * - a 410 fails the delivery and turns the endpoint off (the receiver says it is gone for good);
 * - anything else, a timeout or no connection is retried after the schedule's next delay (with
 *   jitter, and no sooner than the receiver's `Retry-After`), and given up once the schedule is
 *   spent.
 *
 * A deliverer that stops aborts what it is sending and frees those claims without an attempt, so
 * they are due again at once for the next instance (or this one, restarted).
 */
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { Upstream, UpstreamResult } from "../../ports/upstream.ts";
import type { ClaimedDelivery, WebhookDeliveryState, WebhookStore } from "../../ports/webhook-store.ts";
import { webhookBody } from "../kernel/webhook-events.ts";

/** How long one attempt may take, the response included. */
export const WEBHOOK_TIMEOUT_MS = 15_000;
/** What is read of a receiver's answer: only its status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** The most a `Retry-After` may put an attempt off. */
const MAX_RETRY_AFTER_MS = 86_400_000;
/** A delay's jitter: up to this fraction either way, so receivers that failed together are not retried together. */
const JITTER = 0.1;

export interface DelivererOptions {
  readonly store: Pick<
    WebhookStore,
    "claimWebhookDeliveries" | "recordWebhookAttempt" | "releaseWebhookClaim"
  >;
  readonly upstream: Upstream;
  readonly now: () => Date;
  /** The delays before each retry, in milliseconds (TOOLRUN_WEBHOOK_RETRY_SCHEDULE). */
  readonly scheduleMs: readonly number[];
  readonly timeoutMs?: number;
  /** How long a claim holds (default: the timeout and 45 s more). */
  readonly leaseMs?: number;
  /** Deliveries claimed and sent at once. */
  readonly batch?: number;
  /** From 0 (inclusive) to 1; Math.random by default. */
  readonly random?: () => number;
  readonly log?: { warn(details: object, message: string): void };
}

export interface WebhookDeliverer {
  /** Sends what is due now, batch after batch; one pass at a time (a call during one joins it). Returns how many attempts it made. */
  deliverDue(): Promise<number>;
  /** Aborts the sends in flight, frees their claims and waits for the pass to end; no pass starts after. */
  stop(): Promise<void>;
}

/** What an attempt gave, for the log and the schedule. */
interface Outcome {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly state: WebhookDeliveryState | "retry";
  readonly disableEndpoint: boolean;
  readonly retryAfterMs: number | null;
}

export function createWebhookDeliverer(options: DelivererOptions): WebhookDeliverer {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs + 45_000;
  const batch = options.batch ?? 10;
  const random = options.random ?? Math.random;
  const { store, upstream, now } = options;
  const stopping = new AbortController();
  let pass: Promise<number> | null = null;

  async function attempt(claimed: ClaimedDelivery): Promise<number> {
    const sentAt = now();
    const body = webhookBody(claimed.event);
    const signature = new Webhook(claimed.endpoint.secret).sign(claimed.event.id, sentAt, body);
    const result = await upstream.send({
      url: claimed.endpoint.url,
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "toolrun-webhooks",
        "webhook-id": claimed.event.id,
        "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
      timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      signal: stopping.signal,
    });
    if (result.kind === "aborted") {
      await store.releaseWebhookClaim(claimed.deliveryId, claimed.claim);
      return 0;
    }
    const endedAt = now();
    const outcome = outcomeOf(result, timeoutMs, endedAt);
    const made = claimed.attempts + 1;
    let state: WebhookDeliveryState = outcome.state === "retry" ? "pending" : outcome.state;
    let nextAttemptAt: string | null = null;
    if (outcome.state === "retry") {
      const delay = options.scheduleMs[made - 1];
      if (delay === undefined) state = "failed";
      else {
        const jittered = delay * (1 - JITTER + 2 * JITTER * random());
        const wait = Math.max(jittered, outcome.retryAfterMs ?? 0);
        nextAttemptAt = new Date(endedAt.getTime() + wait).toISOString();
      }
    }
    const recorded = await store.recordWebhookAttempt({
      deliveryId: claimed.deliveryId,
      claim: claimed.claim,
      attempt: {
        at: sentAt.toISOString(),
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs: Math.max(0, endedAt.getTime() - sentAt.getTime()),
      },
      state,
      nextAttemptAt,
      disableEndpoint: outcome.disableEndpoint,
    });
    if (!recorded)
      options.log?.warn(
        { deliveryId: claimed.deliveryId },
        "a webhook delivery's claim ran out while it was being sent: another deliverer took it over",
      );
    return 1;
  }

  async function run(): Promise<number> {
    let made = 0;
    while (!stopping.signal.aborted) {
      const at = now();
      const claimed = await store.claimWebhookDeliveries({
        now: at.toISOString(),
        leaseUntil: new Date(at.getTime() + leaseMs).toISOString(),
        claim: randomUUID(),
        limit: batch,
      });
      const results = await Promise.allSettled(claimed.map(attempt));
      for (const result of results) {
        if (result.status === "fulfilled") made += result.value;
        // The claim runs out and the delivery is tried again; the pass goes on with the others.
        else options.log?.warn({ err: result.reason }, "a webhook attempt could not be recorded");
      }
      if (claimed.length < batch) break;
    }
    return made;
  }

  return {
    deliverDue() {
      if (stopping.signal.aborted) return Promise.resolve(0);
      pass ??= run().finally(() => {
        pass = null;
      });
      return pass;
    },
    async stop() {
      stopping.abort();
      await pass?.catch(() => {});
    },
  };
}

function outcomeOf(
  result: Exclude<UpstreamResult, { kind: "aborted" }>,
  timeoutMs: number,
  at: Date,
): Outcome {
  switch (result.kind) {
    case "response":
    case "too_large": {
      const status = result.status;
      if (status >= 200 && status < 300)
        return {
          statusCode: status,
          error: null,
          state: "delivered",
          disableEndpoint: false,
          retryAfterMs: null,
        };
      if (status === 410)
        return {
          statusCode: status,
          error: "HTTP 410: the endpoint is gone; turned off",
          state: "failed",
          disableEndpoint: true,
          retryAfterMs: null,
        };
      const retryAfter = result.kind === "response" ? result.retryAfter : undefined;
      return {
        statusCode: status,
        error:
          status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`,
        state: "retry",
        disableEndpoint: false,
        retryAfterMs: retryAfter === undefined ? null : retryAfterMs(retryAfter, at),
      };
    }
    case "timeout":
      return {
        statusCode: null,
        error: `no answer within ${timeoutMs / 1000} s`,
        state: "retry",
        disableEndpoint: false,
        retryAfterMs: null,
      };
    case "unreachable":
      return {
        statusCode: null,
        error: `${result.reason === "refused" ? "connection refused" : result.reason === "unknown_host" ? "unknown host" : "connection failed"} (${result.code})`,
        state: "retry",
        disableEndpoint: false,
        retryAfterMs: null,
      };
  }
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `at`; null when it is neither. */
function retryAfterMs(value: string, at: Date): number | null {
  const text = value.trim();
  let ms: number;
  if (/^\d{1,10}$/.test(text)) ms = Number(text) * 1000;
  else {
    const date = Date.parse(text);
    if (!Number.isFinite(date)) return null;
    ms = date - at.getTime();
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
