/**
 * The one contract every RateLimiter adapter passes.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { RateLimiter } from "../../src/ports/rate-limiter.ts";

export interface RateLimiterFixture {
  readonly limiter: RateLimiter;
  cleanup(): Promise<void>;
}

export function describeRateLimiterContract(
  name: string,
  makeFixture: () => Promise<RateLimiterFixture>,
): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let fixture: RateLimiterFixture;
    let limiter: RateLimiter;
    before(async () => {
      fixture = await makeFixture();
      limiter = fixture.limiter;
    });
    after(async () => {
      await fixture.cleanup();
    });

    it("counts hits within one window, per key", async () => {
      const key = `k-${randomUUID()}`;
      const window = Math.floor(Date.now() / 60_000) * 60_000;
      assert.equal(await limiter.hit(key, window, 60_000), 1);
      assert.equal(await limiter.hit(key, window, 60_000), 2);
      assert.equal(await limiter.hit(`${key}-other`, window, 60_000), 1);
      assert.equal(await limiter.hit(key, window, 60_000), 3);
    });

    it("starts a new count in the next window", async () => {
      const key = `k-${randomUUID()}`;
      const window = Math.floor(Date.now() / 60_000) * 60_000;
      await limiter.hit(key, window, 60_000);
      await limiter.hit(key, window, 60_000);
      assert.equal(await limiter.hit(key, window + 60_000, 60_000), 1);
    });

    it("gives every concurrent hit its own count", async () => {
      const key = `k-${randomUUID()}`;
      const window = Math.floor(Date.now() / 60_000) * 60_000;
      const counts = await Promise.all(Array.from({ length: 100 }, () => limiter.hit(key, window, 60_000)));
      assert.deepEqual(
        [...counts].sort((a, b) => a - b),
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
    });

    it("answers a ping", async () => {
      await limiter.ping();
    });
  });
}
