/**
 * Per-key fixed windows aligned to the UTC minute. Every attributable request takes one slot;
 * the limiter adapter counts atomically, this module decides and shapes the answer.
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

export async function takeSlot(
  limiter: RateLimiter,
  keyId: string,
  limit: number,
  now: Date,
): Promise<SlotDecision> {
  const nowMs = now.getTime();
  const windowStart = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  const count = await limiter.hit(keyId, windowStart, WINDOW_MS);
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - nowMs) / 1000));
  const remaining = Math.max(0, limit - count);
  const headers = {
    "ratelimit-policy": `"minute";q=${limit};w=60`,
    ratelimit: `"minute";r=${remaining};t=${resetSeconds}`,
  };
  if (count > limit) {
    throw new ApiError(
      "rate_limited",
      `This key may make ${limit} requests per minute. Retry in ${resetSeconds} s.`,
      {
        extras: { retry_after: resetSeconds },
        headers: { ...headers, "retry-after": String(resetSeconds) },
      },
    );
  }
  return { limit, remaining, resetSeconds, headers };
}
