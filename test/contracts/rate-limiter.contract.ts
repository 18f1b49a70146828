/**
 * The one contract every RateLimiter adapter passes.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import type { RateLimiter } from "../../src/ports/rate-limiter.ts";

/** The network between a limiter and its backend, held still and let go by the test. */
export interface Stall {
  freeze(): void;
  release(): void;
  /** The limiter's timeout for one hit, as configured. */
  readonly timeoutMs: number;
}

export interface RateLimiterFixture {
  readonly limiter: RateLimiter;
  /** How its backend stalls; absent for a limiter in process memory, which nothing can stall. */
  readonly stall?: Stall;
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

    it("keeps a longer window's count while shorter windows of its time start and end", async () => {
      const hourKey = `k-${randomUUID()}`;
      const minuteKey = `k-${randomUUID()}`;
      // Later than any window another test used, so each hit moves the limiter's time on.
      const hour = (Math.floor(Date.now() / 3_600_000) + 2) * 3_600_000;
      assert.equal(await limiter.hit(hourKey, hour, 3_600_000), 1);
      await limiter.hit(minuteKey, hour + 60_000, 60_000);
      await limiter.hit(minuteKey, hour + 120_000, 60_000);
      assert.equal(await limiter.hit(hourKey, hour, 3_600_000), 2);
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

    it("takes several slots in one hit, and none of a hit that would pass the limit", async () => {
      const key = `k-${randomUUID()}`;
      const window = Math.floor(Date.now() / 60_000) * 60_000;
      assert.equal(await limiter.hit(key, window, 60_000, 3, 6), 3);
      // Four more would make 7: refused, and the count it would have made is answered.
      assert.equal(await limiter.hit(key, window, 60_000, 4, 6), 7);
      assert.equal(await limiter.hit(key, window, 60_000, 3, 6), 6);
      assert.equal(await limiter.hit(key, window, 60_000, 1, 6), 7);
      // A batch larger than the limit never fits, even in a fresh window.
      assert.equal(await limiter.hit(`${key}-fresh`, window, 60_000, 7, 6), 7);
      assert.equal(await limiter.hit(`${key}-fresh`, window, 60_000, 6, 6), 6);
    });

    it("admits exactly the limit among concurrent hits, counting none of the refused", async () => {
      const key = `k-${randomUUID()}`;
      const window = Math.floor(Date.now() / 60_000) * 60_000;
      const counts = await Promise.all(
        Array.from({ length: 30 }, () => limiter.hit(key, window, 60_000, 2, 25)),
      );
      const admitted = counts.filter((count) => count <= 25);
      assert.equal(admitted.length, 12);
      assert.deepEqual(
        [...admitted].sort((a, b) => a - b),
        Array.from({ length: 12 }, (_, i) => 2 * (i + 1)),
      );
      assert.equal(await limiter.hit(key, window, 60_000, 1, 25), 25);
    });

    it("answers a ping", async () => {
      await limiter.ping();
    });

    it("answers every hit within its timeout while the backend stalls, and counts none that arrives after it", async (t) => {
      const stall = fixture.stall;
      if (!stall) return t.skip("counts in process memory: nothing can stall between it and its counts");
      const key = `k-${randomUUID()}`;
      const window = Math.floor(Date.now() / 60_000) * 60_000;
      assert.equal(await limiter.hit(key, window, 60_000), 1);
      stall.freeze();
      const stalledHit = async (afterMs: number) => {
        await sleep(afterMs);
        const started = Date.now();
        await assert.rejects(limiter.hit(key, window, 60_000), BackendUnavailableError);
        return Date.now() - started;
      };
      // The second hit starts while the first still waits, as the next request of a busy key does.
      const waits = await Promise.all([stalledHit(0), stalledHit(stall.timeoutMs / 10)]);
      for (const waited of waits)
        assert.ok(waited < stall.timeoutMs * 1.5, `waited ${waited} ms, timeout ${stall.timeoutMs} ms`);
      // The stalled hits now reach the backend, after their callers were answered.
      stall.release();
      await sleep(500);
      assert.equal(await limiter.hit(key, window, 60_000), 2);
    });
  });
}
