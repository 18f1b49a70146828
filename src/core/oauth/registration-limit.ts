/**
 * Dynamic client registration is open to anyone (RFC 7591; chat hosts register on first contact),
 * so each client address may register a number of clients an hour, counted in the shared rate
 * limiter like every other window: past it, 429 `rate_limited` and nothing is stored.
 */
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { rateLimitHeaders } from "../call/rate-limit.ts";
import { ApiError } from "../contract/errors.ts";

const HOUR_MS = 3_600_000;

/** Registration windows, apart from any key's. */
const WINDOW_PREFIX = "oauth-register:";

/** Takes one of the address's registrations this hour, or throws 429 `rate_limited`. */
export async function takeRegistrationSlot(
  limiter: RateLimiter,
  address: string,
  perHour: number,
  now: Date,
): Promise<void> {
  const nowMs = now.getTime();
  const windowStart = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const count = await limiter.hit(`${WINDOW_PREFIX}${address}`, windowStart, HOUR_MS, 1, perHour);
  if (count <= perHour) return;
  const resetSeconds = Math.max(1, Math.ceil((windowStart + HOUR_MS - nowMs) / 1000));
  throw new ApiError(
    "rate_limited",
    `This address may register ${perHour} OAuth clients an hour. Retry in ${resetSeconds} s, or reuse a client already registered.`,
    {
      extras: { retry_after: resetSeconds },
      headers: {
        ...rateLimitHeaders("hour", HOUR_MS, perHour, 0, resetSeconds),
        "retry-after": String(resetSeconds),
      },
    },
  );
}
