/**
 * Per-key fixed windows aligned to the UTC minute. Every attributable request takes one slot, and
 * an MCP batch one per message, all at once or none: the limiter adapter counts atomically and
 * takes no slot of a request it refuses; this module decides and shapes the answer.
 */
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { ApiError } from "../contract/errors.ts";

export const WINDOW_MS = 60_000;

export interface SlotDecision {
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window ends, at least 1. */
  readonly resetSeconds: number;
  /** The IETF RateLimit and RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Takes `slots` slots of `keyId`'s window (one per message of a batch), or none and throws 429. */
export async function takeSlot(
  limiter: RateLimiter,
  keyId: string,
  limit: number,
  now: Date,
  slots = 1,
): Promise<SlotDecision> {
  const nowMs = now.getTime();
  const windowStart = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  const count = await limiter.hit(keyId, windowStart, WINDOW_MS, slots, limit);
  const taken = count <= limit;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000));
  const remaining = Math.max(0, limit - (taken ? count : count - slots));
  const headers = rateLimitHeaders("minute", WINDOW_MS, limit, remaining, resetSeconds);
  if (!taken) {
    throw new ApiError("rate_limited", refusal(limit, slots, remaining, resetSeconds), {
      extras: { retry_after: resetSeconds },
      headers: { ...headers, "retry-after": String(resetSeconds) },
    });
  }
  return { limit, remaining, resetSeconds, headers };
}

/** The IETF RateLimit-Policy and RateLimit headers of a fixed window named `policy`. */
export function rateLimitHeaders(
  policy: string,
  windowMs: number,
  limit: number,
  remaining: number,
  resetSeconds: number,
): Readonly<Record<string, string>> {
  return {
    "ratelimit-policy": `"${policy}";q=${limit};w=${windowMs / 1000}`,
    ratelimit: `"${policy}";r=${remaining};t=${resetSeconds}`,
  };
}

function refusal(limit: number, slots: number, remaining: number, resetSeconds: number): string {
  const perMinute = `This key may make ${limit} requests per minute`;
  if (slots === 1) return `${perMinute}. Retry in ${resetSeconds} s.`;
  if (slots > limit)
    return `${perMinute}, one per message of a batch: a batch of ${slots} messages never fits. Send at most ${limit} messages at a time.`;
  return `${perMinute}, one per message of a batch: this batch of ${slots} messages needs ${slots}, and ${remaining} are left. Nothing of it ran. Retry in ${resetSeconds} s, or send fewer messages.`;
}
