/**
 * The consent page takes an API key from anyone who opens a sign-in, so it is a place to guess
 * keys: each client address, and each key prefix (the key's non-secret display prefix, whatever
 * address it is typed from), may try `CONSENT_ATTEMPTS_PER_MINUTE` keys a minute, counted in the
 * shared rate limiter like every other window, so the limit holds over every instance.
 */
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { countHits, type SlotDecision, type WindowKind } from "../call/rate-limit.ts";

export const CONSENT_ATTEMPTS_PER_MINUTE = 30;

const MINUTE: WindowKind = { name: "minute", ms: 60_000 };

/** Consent windows, apart from any key's and from registrations'. */
const BY_ADDRESS = "oauth-consent-address:";
const BY_PREFIX = "oauth-consent-prefix:";

/**
 * Counts one key typed on the consent page from `address` (with its display prefix, when it
 * has the shape of a key); the refusing window's decision when one is full, else null.
 */
export async function takeConsentAttempt(
  limiter: RateLimiter,
  address: string,
  keyPrefix: string | null,
  now: Date,
): Promise<SlotDecision | null> {
  const byAddress = await countHits(limiter, BY_ADDRESS + address, MINUTE, CONSENT_ATTEMPTS_PER_MINUTE, now);
  if (!byAddress.taken) return byAddress;
  if (keyPrefix === null) return null;
  const byPrefix = await countHits(limiter, BY_PREFIX + keyPrefix, MINUTE, CONSENT_ATTEMPTS_PER_MINUTE, now);
  return byPrefix.taken ? null : byPrefix;
}
