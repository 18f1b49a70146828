/**
 * The Redis RateLimiter: the shared contract under a unique key prefix, plus expiry, fail-fast
 * when Redis is unreachable, and reconnection after the server drops the connection.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { createRedisRateLimiter } from "../../src/adapters/redis/rate-limiter.ts";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import { describeRateLimiterContract } from "../contracts/rate-limiter.contract.ts";
import { testRedisUrl, uniqueName } from "../helpers/services.ts";
import { proxyUrl } from "../helpers/tcp-proxy.ts";

/** Deletes every key under `prefix` (SCAN, never KEYS: the server may be shared). */
async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== "0");
}

describe("Redis rate limiter without a server", () => {
  it("rejects with BackendUnavailableError within about a second", async () => {
    const limiter = createRedisRateLimiter({ url: "redis://127.0.0.1:1", commandTimeoutMs: 1000 });
    try {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        await assert.rejects(limiter.hit("k", 0, 60_000), BackendUnavailableError);
        assert.ok(Date.now() - started < 1500, `attempt ${i} failed fast`);
      }
      await assert.rejects(limiter.ping(), BackendUnavailableError);
    } finally {
      await limiter.close();
    }
  });
});

const service = testRedisUrl();
if (service.url === undefined) {
  it("Redis rate limiter", { skip: service.skip }, () => {});
} else {
  const url = service.url;

  describeRateLimiterContract("redis", async () => {
    const prefix = `${uniqueName("test")}:`;
    const { proxy, url: through } = await proxyUrl(url);
    const timeoutMs = 1_000;
    const limiter = createRedisRateLimiter({ url: through, prefix, commandTimeoutMs: timeoutMs });
    return {
      limiter,
      stall: { freeze: () => proxy.freeze(), release: () => proxy.release(), timeoutMs },
      async cleanup() {
        await limiter.close();
        await proxy.close();
        const admin = new Redis(url);
        await deletePrefix(admin, prefix);
        await admin.quit();
      },
    };
  });

  describe("Redis rate limiter", () => {
    it("keys each window by prefix, key and start, expiring at the window's end", async () => {
      const prefix = `${uniqueName("test")}:`;
      const limiter = createRedisRateLimiter({ url, prefix });
      const admin = new Redis(url);
      try {
        const window = Math.floor(Date.now() / 60_000) * 60_000;
        await limiter.hit("alice", window, 60_000);
        await limiter.hit("alice", window, 60_000);
        const redisKey = `${prefix}rl:alice:${window}`;
        assert.equal(await admin.get(redisKey), "2");
        const ttl = await admin.pttl(redisKey);
        const untilEnd = window + 60_000 - Date.now();
        // Slack for Redis's cached clock, which may lag the process clock by a tick.
        assert.ok(ttl > 0 && ttl <= untilEnd + 1_000 + 250, `ttl ${ttl} ends with the window (${untilEnd})`);
        // A window already over still gets a short expiry, never a key that lives forever.
        await limiter.hit("bob", window - 120_000, 60_000);
        const pastTtl = await admin.pttl(`${prefix}rl:bob:${window - 120_000}`);
        assert.ok(pastTtl > 0 && pastTtl <= 1_000, `past window ttl ${pastTtl}`);
      } finally {
        await limiter.close();
        await deletePrefix(admin, prefix);
        await admin.quit();
      }
    });

    it("reconnects by itself after the server drops the connection", async () => {
      const prefix = `${uniqueName("test")}:`;
      const connectionName = uniqueName("toolrun-test");
      const limiter = createRedisRateLimiter({ url, prefix, connectionName });
      const admin = new Redis(url);
      try {
        const key = `k-${randomUUID()}`;
        const window = Math.floor(Date.now() / 60_000) * 60_000;
        assert.equal(await limiter.hit(key, window, 60_000), 1);
        const clients = String(await admin.call("CLIENT", "LIST"));
        const id = clients
          .split("\n")
          .find((line) => line.includes(` name=${connectionName} `))
          ?.match(/^id=(\d+)/)?.[1];
        assert.ok(id, "found the limiter's connection");
        await admin.call("CLIENT", "KILL", "ID", id);
        let count: number | undefined;
        for (let i = 0; i < 40 && count === undefined; i++) {
          try {
            count = await limiter.hit(key, window, 60_000);
          } catch (err) {
            assert.ok(err instanceof BackendUnavailableError);
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        assert.equal(count, 2);
      } finally {
        await limiter.close();
        await deletePrefix(admin, prefix);
        await admin.quit();
      }
    });
  });
}
