/**
 * createDeps(config): picks the adapters the configuration names and builds the core's deps.
 * The only module that imports adapters.
 */
import { randomUUIDv7 } from "node:crypto";
import { createMemoryRateLimiter } from "./adapters/memory/rate-limiter.ts";
import { createPostgresRateLimiter, createPostgresStore } from "./adapters/postgres/index.ts";
import { createRedisRateLimiter } from "./adapters/redis/rate-limiter.ts";
import { createSqliteStore } from "./adapters/sqlite/store.ts";
import type { Config } from "./config.ts";
import type { CoreDeps } from "./core/deps.ts";
import { keyPattern } from "./core/keys.ts";
import type { Observer } from "./core/observer.ts";
import { createToolRegistry } from "./core/registry.ts";
import { createSwitchReader } from "./core/switches.ts";
import type { RateLimiter } from "./ports/rate-limiter.ts";
import type { Store } from "./ports/store.ts";
import { tools } from "./tools/index.ts";

export interface Deps extends CoreDeps {
  close(): Promise<void>;
}

export interface DepsOverrides {
  readonly now?: () => Date;
  readonly observer?: Observer;
}

export async function createDeps(config: Config, overrides: DepsOverrides = {}): Promise<Deps> {
  const { store, limiter } = await createBackends(config);
  const now = overrides.now ?? (() => new Date());
  return {
    store,
    limiter,
    registry: createToolRegistry(tools, config.settings.tools),
    switches: createSwitchReader(store, () => now().getTime()),
    settings: config.settings,
    keyPattern: keyPattern(config.settings.keyPrefix),
    now,
    // Time-ordered: new usage rows land at the right edge of the call-id index, not on a random page.
    newCallId: randomUUIDv7,
    ...(overrides.observer ? { observer: overrides.observer } : {}),
    async close() {
      await Promise.allSettled([limiter.close(), store.close()]);
    },
  };
}

/**
 * SQLite keeps windows in memory (one process) unless Redis is named; PostgreSQL shares them
 * through Redis when named, else through its own table on the store's pool.
 */
async function createBackends(config: Config): Promise<{ store: Store; limiter: RateLimiter }> {
  const redis =
    config.redisUrl === null
      ? null
      : createRedisRateLimiter({ url: config.redisUrl, prefix: config.redisPrefix });
  if (config.database.kind === "sqlite") {
    return { store: createSqliteStore(config.database.path), limiter: redis ?? createMemoryRateLimiter() };
  }
  const { url, poolSize, schema } = config.database;
  const store = await createPostgresStore({ url, poolSize, schema });
  return { store, limiter: redis ?? createPostgresRateLimiter({ pool: store.pool }) };
}
