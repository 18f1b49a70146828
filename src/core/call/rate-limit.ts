/**
 * Per-account fixed windows aligned to the UTC minute (every key of an account takes from one). Every attributable request takes one slot, and
 * an MCP batch one per message, all at once or none: the limiter adapter counts atomically and
 * takes no slot of a request it refuses; this module decides and shapes the answer. Other fixed
 * windows (an address's OAuth registrations an hour) are counted and refused the same way.
 */
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { ApiError } from "../kernel/errors.ts";

export const WINDOW_MS = 60_000;

/** A fixed window's length and the name its RateLimit headers give it. */
export interface WindowKind {
  readonly name: string;
  readonly ms: number;
}

const MINUTE: WindowKind = { name: "minute", ms: WINDOW_MS };

export interface SlotDecision {
  /** Whether the slots were taken; when not, none were. */
  readonly taken: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window ends, at least 1. */
  readonly resetSeconds: number;
  /** The IETF RateLimit and RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Takes `slots` slots of the account's window (one per message of a batch), or none and throws 429. */
export async function takeSlot(
  limiter: RateLimiter,
  accountId: string,
  limit: number,
  now: Date,
  slots = 1,
): Promise<SlotDecision> {
  const decision = await countHits(limiter, accountId, MINUTE, limit, now, slots);
  if (!decision.taken)
    throw rateLimited(refusal(limit, slots, decision.remaining, decision.resetSeconds), decision);
  return decision;
}

/**
 * Counts `slots` hits of `key` in the fixed window of `kind` that holds `now`, all or none of
 * them as `limit` allows, and says what is left.
 */
export async function countHits(
  limiter: RateLimiter,
  key: string,
  kind: WindowKind,
  limit: number,
  now: Date,
  slots = 1,
): Promise<SlotDecision> {
  const nowMs = now.getTime();
  const windowStart = Math.floor(nowMs / kind.ms) * kind.ms;
  const count = await limiter.hit(key, windowStart, kind.ms, slots, limit);
  const taken = count <= limit;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + kind.ms - nowMs) / 1000));
  const remaining = Math.max(0, limit - (taken ? count : count - slots));
  const headers = {
    "ratelimit-policy": `"${kind.name}";q=${limit};w=${kind.ms / 1000}`,
    ratelimit: `"${kind.name}";r=${remaining};t=${resetSeconds}`,
  };
  return { taken, limit, remaining, resetSeconds, headers };
}

/** The 429 of a refused decision: `Retry-After` and the RateLimit headers, nothing charged. */
export function rateLimited(detail: string, decision: SlotDecision): ApiError {
  return new ApiError("rate_limited", detail, {
    extras: { retry_after: decision.resetSeconds },
    headers: { ...decision.headers, "retry-after": String(decision.resetSeconds) },
  });
}

function refusal(limit: number, slots: number, remaining: number, resetSeconds: number): string {
  const perMinute = `This key may make ${limit} requests per minute`;
  if (slots === 1) return `${perMinute}. Retry in ${resetSeconds} s.`;
  if (slots > limit)
    return `${perMinute}, one per message of a batch: a batch of ${slots} messages never fits. Send at most ${limit} messages at a time.`;
  return `${perMinute}, one per message of a batch: this batch of ${slots} messages needs ${slots}, and ${remaining} are left. Nothing of it ran. Retry in ${resetSeconds} s, or send fewer messages.`;
}
