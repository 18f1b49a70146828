/**
 * Key guesses on the consent page, counted per client address and per key prefix in the rate
 * limiter: many addresses trying keys of one prefix are stopped as one address is.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryRateLimiter } from "../../src/adapters/memory/rate-limiter.ts";
import { CONSENT_ATTEMPTS_PER_MINUTE, takeConsentAttempt } from "../../src/core/oauth/consent-limit.ts";

const NOW = new Date("2026-11-15T12:00:10.000Z");

describe("consent attempts", () => {
  it("refuses a key prefix tried from many addresses past the minute's limit, and no other prefix", async () => {
    const limiter = createMemoryRateLimiter();
    for (let n = 0; n < CONSENT_ATTEMPTS_PER_MINUTE; n++)
      assert.equal(await takeConsentAttempt(limiter, `203.0.113.${n}`, "tr_live_AbCd", NOW), null);
    const refused = await takeConsentAttempt(limiter, "198.51.100.7", "tr_live_AbCd", NOW);
    assert.ok(refused, "the prefix's minute is full");
    assert.equal(refused.taken, false);
    assert.equal(refused.resetSeconds, 50);
    assert.equal(await takeConsentAttempt(limiter, "198.51.100.7", "tr_live_WxYz", NOW), null);
    assert.equal(
      await takeConsentAttempt(limiter, "198.51.100.8", "tr_live_AbCd", new Date(NOW.getTime() + 50_000)),
      null,
      "the next minute",
    );
  });

  it("refuses an address past the minute's limit whatever it types", async () => {
    const limiter = createMemoryRateLimiter();
    for (let n = 0; n < CONSENT_ATTEMPTS_PER_MINUTE; n++)
      assert.equal(
        await takeConsentAttempt(limiter, "203.0.113.1", n % 2 ? null : `tr_live_${n}`, NOW),
        null,
      );
    assert.ok(await takeConsentAttempt(limiter, "203.0.113.1", null, NOW));
    assert.ok(await takeConsentAttempt(limiter, "203.0.113.1", "tr_live_new1", NOW));
  });
});
