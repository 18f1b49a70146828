/**
 * The PostgreSQL RateLimiter: the shared contract, on a pool shared with the store (as deps.ts
 * wires it) and on a pool of its own, plus pruning and failure behaviour.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { createPostgresRateLimiter } from "../../src/adapters/postgres/rate-limiter.ts";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { BackendUnavailableError, SchemaNotReadyError } from "../../src/ports/errors.ts";
import { describeRateLimiterContract } from "../contracts/rate-limiter.contract.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { proxyUrl } from "../helpers/tcp-proxy.ts";
import { adminQuery, dropSchema, uniqueSchema } from "./postgres-fixture.ts";

/** The limiter's timeout in the fixtures that reach PostgreSQL through a proxy the contract stalls. */
const TIMEOUT_MS = 1_000;

describe("PostgreSQL rate limiter without a database", () => {
  it("rejects with BackendUnavailableError, quickly", async () => {
    const limiter = createPostgresRateLimiter({ url: "postgres://postgres@127.0.0.1:1/test" });
    try {
      const started = Date.now();
      await assert.rejects(limiter.hit("k", 0, 60_000), BackendUnavailableError);
      await assert.rejects(limiter.ping(), BackendUnavailableError);
      assert.ok(Date.now() - started < 2000);
    } finally {
      await limiter.close();
    }
  });
});

const db = testDatabaseUrl();
if (db.url === undefined) {
  it("PostgreSQL rate limiter", { skip: db.skip }, () => {});
} else {
  const url = db.url;

  describeRateLimiterContract("postgres (pool shared with the store)", async () => {
    const schema = uniqueSchema();
    const { proxy, url: through } = await proxyUrl(url);
    const store = await createPostgresStore({
      url: through,
      schema,
      poolSize: 10,
      queryTimeoutMs: TIMEOUT_MS,
      connectTimeoutMs: TIMEOUT_MS,
      keyCache: false,
    });
    await store.migrate();
    const limiter = createPostgresRateLimiter({ pool: store.pool, timeoutMs: TIMEOUT_MS });
    return {
      limiter,
      stall: { freeze: () => proxy.freeze(), release: () => proxy.release(), timeoutMs: TIMEOUT_MS },
      async cleanup() {
        await limiter.close();
        // The limiter leaves the shared pool to its owner.
        await store.ping();
        await store.close();
        await proxy.close();
        await dropSchema(url, schema);
      },
    };
  });

  describeRateLimiterContract("postgres (own pool)", async () => {
    const schema = uniqueSchema();
    const store = await createPostgresStore({ url, schema, keyCache: false });
    await store.migrate();
    await store.close();
    const { proxy, url: through } = await proxyUrl(url);
    const limiter = createPostgresRateLimiter({
      url: through,
      schema,
      poolSize: 10,
      queryTimeoutMs: TIMEOUT_MS,
      connectTimeoutMs: TIMEOUT_MS,
    });
    return {
      limiter,
      stall: { freeze: () => proxy.freeze(), release: () => proxy.release(), timeoutMs: TIMEOUT_MS },
      async cleanup() {
        await limiter.close();
        await proxy.close();
        await dropSchema(url, schema);
      },
    };
  });

  describe("PostgreSQL rate limiter", () => {
    it("prunes expired windows now and then, not on every hit", async () => {
      const schema = uniqueSchema();
      const store = await createPostgresStore({ url, schema });
      await store.migrate();
      const limiter = createPostgresRateLimiter({ pool: store.pool, pruneIntervalMs: 200 });
      try {
        const key = `k-${randomUUID()}`;
        const current = Math.floor(Date.now() / 60_000) * 60_000;
        await limiter.hit(key, current - 10 * 60_000, 60_000); // long over
        await limiter.hit(key, current, 60_000);
        const windows = async () =>
          (await adminQuery(url, `SELECT window_start FROM ${schema}.rate_windows WHERE key = $1`, [key]))
            .length;
        assert.equal(await windows(), 2, "no prune before the interval");
        await new Promise((r) => setTimeout(r, 250));
        await limiter.hit(key, current, 60_000);
        for (let i = 0; i < 50 && (await windows()) !== 1; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(await windows(), 1, "the expired window is pruned, the current one kept");
        assert.equal(await limiter.hit(key, current, 60_000), 3);
      } finally {
        await limiter.close();
        await store.close();
        await dropSchema(url, schema);
      }
    });

    it("rejects with SchemaNotReadyError before migrate", async () => {
      const schema = uniqueSchema();
      await adminQuery(url, `CREATE SCHEMA ${schema}`);
      const limiter = createPostgresRateLimiter({ url, schema });
      try {
        await assert.rejects(limiter.hit("k", 0, 60_000), SchemaNotReadyError);
      } finally {
        await limiter.close();
        await dropSchema(url, schema);
      }
    });
  });
}
