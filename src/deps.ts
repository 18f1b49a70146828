/**
 * createDeps(config) picks the adapters the configuration names; assembleDeps(...) builds the rest
 * of the core's deps around them. Tests call assembleDeps too, with their own adapters and clock.
 * The only module that imports adapters.
 */
import { randomUUIDv7 } from "node:crypto";
import { createMemoryRateLimiter } from "./adapters/memory/rate-limiter.ts";
import { createPostgresRateLimiter, createPostgresStore } from "./adapters/postgres/index.ts";
import { createRedisRateLimiter } from "./adapters/redis/rate-limiter.ts";
import { createSqliteStore } from "./adapters/sqlite/store.ts";
import { createComputePool } from "./compute/pool.ts";
import type { Config } from "./config.ts";
import type { CoreDeps } from "./core/deps.ts";
import { keyPattern } from "./core/keys.ts";
import type { Observer } from "./core/observer.ts";
import type { ComputeOffload } from "./core/offload.ts";
import { createToolRegistry } from "./core/registry.ts";
import type { ServiceSettings } from "./core/settings.ts";
import { createSwitchReader } from "./core/switches.ts";
import type { RateLimiter } from "./ports/rate-limiter.ts";
import type { Store } from "./ports/store.ts";
import { tools as allTools } from "./tools/index.ts";
import type { AnyTool } from "./tools/tool.ts";

export interface Deps extends CoreDeps {
  /** Closes the limiter, the store and the compute pool. */
  close(): Promise<void>;
}

export interface DepsParts {
  readonly store: Store;
  readonly limiter: RateLimiter;
  readonly settings: ServiceSettings;
  /** The tools served (default: every tool of src/tools/index.ts). */
  readonly tools?: readonly AnyTool[];
  /** The clock (default: the system's). */
  readonly now?: () => Date;
  /** How long the operator switches read from the store are trusted (default 2 s). */
  readonly switchTtlMs?: number;
  /** Hears how each metered call ends (the metrics). */
  readonly observer?: Observer;
  /**
   * Where large calls compute. Default: a worker pool of the default tools; with `tools` given,
   * none unless passed (a worker loads its tools by module).
   */
  readonly offload?: ComputeOffload;
}

export interface BackendOptions {
  /**
   * The CLI may wait for another process's SQLite lock synchronously (busy_timeout): nothing else
   * runs in its process. The server never does (default false).
   */
  readonly blockOnLocks?: boolean;
  /** Hears how each metered call ends (the metrics). */
  readonly observer?: Observer;
}

export async function createDeps(config: Config, options: BackendOptions = {}): Promise<Deps> {
  const { blockOnLocks, ...extra } = options;
  const { store, limiter } = await createBackends(config, { blockOnLocks });
  return assembleDeps({ store, limiter, settings: config.settings, ...extra });
}

export function assembleDeps(parts: DepsParts): Deps {
  const { store, limiter, settings } = parts;
  const now = parts.now ?? (() => new Date());
  const offload = parts.offload ?? (parts.tools === undefined ? createComputePool() : undefined);
  return {
    store,
    limiter,
    registry: createToolRegistry(parts.tools ?? allTools, settings.tools),
    switches: createSwitchReader(store, () => now().getTime(), parts.switchTtlMs),
    settings,
    keyPattern: keyPattern(settings.keyPrefix),
    adminKeyPattern: keyPattern(settings.adminKeyPrefix),
    now,
    // Time-ordered: new usage rows land at the right edge of the call-id index, not on a random page.
    newCallId: randomUUIDv7,
    ...(parts.observer ? { observer: parts.observer } : {}),
    ...(offload ? { offload } : {}),
    async close() {
      await Promise.allSettled([limiter.close(), store.close(), offload?.close()]);
    },
  };
}

/**
 * SQLite keeps windows in memory (one process) unless Redis is named; PostgreSQL shares them
 * through Redis when named, else through its own table on the store's pool.
 */
async function createBackends(
  config: Config,
  options: BackendOptions,
): Promise<{ store: Store; limiter: RateLimiter }> {
  const timeoutMs = config.dbTimeoutMs;
  const redis =
    config.redisUrl === null
      ? null
      : createRedisRateLimiter({
          url: config.redisUrl,
          prefix: config.redisPrefix,
          commandTimeoutMs: timeoutMs,
        });
  if (config.database.kind === "sqlite") {
    // The server never waits for another process's lock on the event loop: a write finding the
    // file locked retries off it until the timeout (busyTimeoutMs 0, lockWaitMs).
    const store = createSqliteStore(config.database.path, {
      ...(options.blockOnLocks ? { busyTimeoutMs: timeoutMs } : { busyTimeoutMs: 0, lockWaitMs: timeoutMs }),
      abandonAfterMs: config.callAbandonS * 1000,
    });
    return { store, limiter: redis ?? createMemoryRateLimiter() };
  }
  const { url, poolSize, schema } = config.database;
  const store = await createPostgresStore({
    url,
    poolSize,
    schema,
    connectTimeoutMs: timeoutMs,
    queryTimeoutMs: timeoutMs,
  });
  return { store, limiter: redis ?? createPostgresRateLimiter({ pool: store.pool, timeoutMs }) };
}
