/**
 * Dynamic client registration is open to anyone (RFC 7591; chat hosts register on first contact),
 * so each client address may register a number of clients an hour, counted in the shared rate
 * limiter like every other window: past it, 429 `rate_limited` and nothing is stored.
 */
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { countHits, rateLimited, type WindowKind } from "../call/rate-limit.ts";

const HOUR: WindowKind = { name: "hour", ms: 3_600_000 };

/** Registration windows, apart from any key's. */
const WINDOW_PREFIX = "oauth-register:";

/** Takes one of the address's registrations this hour, or throws 429 `rate_limited`. */
export async function takeRegistrationSlot(
  limiter: RateLimiter,
  address: string,
  perHour: number,
  now: Date,
): Promise<void> {
  const decision = await countHits(limiter, `${WINDOW_PREFIX}${address}`, HOUR, perHour, now);
  if (decision.taken) return;
  throw rateLimited(
    `This address may register ${perHour} OAuth clients an hour. Retry in ${decision.resetSeconds} s, or reuse a client already registered.`,
    decision,
  );
}
