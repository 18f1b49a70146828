/**
 * createDeps(config) picks the adapters the configuration names; assembleDeps(...) builds the rest
 * of the core's deps around them. Tests call assembleDeps too, with their own adapters and clock.
 * The only module that imports adapters; the PostgreSQL and Redis ones (and their drivers) are
 * loaded only when the configuration names them. loadConfiguredTools(config) loads the tools the
 * configuration names, before anything else starts.
 */
import { randomUUIDv7 } from "node:crypto";
import pkg from "../package.json" with { type: "json" };
import { createComputePool } from "./adapters/compute/pool.ts";
import { createHttpUpstream } from "./adapters/http-upstream/index.ts";
import { createMemoryRateLimiter } from "./adapters/memory/rate-limiter.ts";
import { createSqliteStore } from "./adapters/sqlite/store.ts";
import { createStripePayments } from "./adapters/stripe/payments.ts";
import { createTelemetry } from "./adapters/telemetry/index.ts";
import { withLedgerSpans } from "./adapters/telemetry/traced-store.ts";
import { withUpstreamSpans } from "./adapters/telemetry/traced-upstream.ts";
import type { Config } from "./config.ts";
import type { Billing } from "./core/billing/packs.ts";
import { computeRunner, runnerToolsOf } from "./core/call/compute-runner.ts";
import type { CoreDeps } from "./core/call/deps.ts";
import { createKeyedCallsInFlight } from "./core/call/idempotency.ts";
import { createJobsInFlight } from "./core/call/jobs-in-flight.ts";
import type { Observer } from "./core/call/observer.ts";
import { withTracedCalls } from "./core/call/trace-observer.ts";
import { keyPattern } from "./core/kernel/key-format.ts";
import type { ServiceSettings } from "./core/kernel/settings.ts";
import { type LoadedTool, loadTools } from "./core/tools/loader.ts";
import { createToolRegistry } from "./core/tools/registry.ts";
import { createSwitchReader } from "./core/tools/switches.ts";
import type { ComputeOffload } from "./ports/compute-offload.ts";
import { DEFAULT_CALL_ABANDON_S } from "./ports/defaults.ts";
import type { RateLimiter } from "./ports/rate-limiter.ts";
import type { Store } from "./ports/store.ts";
import type { Telemetry } from "./ports/telemetry.ts";
import type { Upstream } from "./ports/upstream.ts";

export interface Deps extends CoreDeps {
  /** Outward HTTP for webhook deliveries. */
  readonly upstream: Upstream;
  /** Closes the limiter, the store and the compute pool, and exports the traces still buffered. */
  close(): Promise<void>;
}

export interface DepsParts {
  readonly store: Store;
  readonly limiter: RateLimiter;
  readonly settings: ServiceSettings;
  /** The tools served, as the loader gave them. */
  readonly tools: readonly LoadedTool[];
  /** The clock (default: the system's). */
  readonly now?: () => Date;
  /** How long the operator switches read from the store are trusted (default 2 s). */
  readonly switchTtlMs?: number;
  /** Hears how each metered call ends (the metrics). */
  readonly observer?: Observer;
  /** Where large calls compute; none: every call on the main thread. */
  readonly offload?: ComputeOffload;
  /** Traces: the ledger's spans, and each call's outcome on its span. */
  readonly telemetry?: Telemetry;
  /** Outward HTTP for webhook deliveries (default: undici's, as HTTP tools use). */
  readonly upstream?: Upstream;
  /** How long a job's lease holds unless renewed: the abandon time (default DEFAULT_CALL_ABANDON_S). */
  readonly jobLeaseMs?: number;
}

export interface BackendOptions {
  /**
   * The CLI may wait for another process's SQLite lock synchronously (busy_timeout): nothing else
   * runs in its process. The server never does (default false).
   */
  readonly blockOnLocks?: boolean;
  /** Hears how each metered call ends (the metrics). */
  readonly observer?: Observer;
  readonly telemetry?: Telemetry;
}

/** Traces, when OpenTelemetry's variables ask for them (`OTEL_EXPORTER_OTLP_ENDPOINT`...); else none. */
export function openTelemetry(config: Config): Promise<Telemetry | undefined> {
  return createTelemetry(config.toolSources.env, pkg.version);
}

/**
 * The built-in tools, the modules of `TOOLRUN_TOOLS` and the configuration file's `httpTools`,
 * loaded and checked (core/tools/loader.ts): a ToolLoadError names every problem.
 */
export async function loadConfiguredTools(
  config: Config,
  options: { readonly readSecrets?: boolean; readonly telemetry?: Telemetry | undefined } = {},
): Promise<LoadedTool[]> {
  const { tools: builtIns } = await import("./tools/index.ts");
  const { toolSources } = config;
  const { telemetry } = options;
  return loadTools({
    builtIns,
    modules: toolSources.modules,
    httpTools: toolSources.httpTools,
    secrets: toolSources.secrets,
    configured: toolSources.configured,
    env: toolSources.env,
    cwd: toolSources.cwd,
    upstream: telemetry ? withUpstreamSpans(createHttpUpstream(), telemetry) : createHttpUpstream(),
    abandonAfterMs: config.callAbandonS * 1000,
    syncTimeoutMs: config.settings.syncTimeoutS * 1000,
    readSecrets: options.readSecrets,
  });
}

export async function createDeps(
  config: Config,
  tools: readonly LoadedTool[],
  options: BackendOptions = {},
): Promise<Deps> {
  const { blockOnLocks, ...extra } = options;
  const { store, limiter } = await createBackends(config, { blockOnLocks });
  // The worker thread imports the computing tools it may run: the built-in ones and the modules'.
  const offload = createComputePool({ runner: computeRunner(runnerToolsOf(tools)), limits: config.compute });
  return assembleDeps({
    store,
    limiter,
    settings: config.settings,
    tools,
    offload,
    jobLeaseMs: config.callAbandonS * 1000,
    ...extra,
  });
}

export function assembleDeps(parts: DepsParts): Deps {
  const { limiter, settings, telemetry } = parts;
  const store = telemetry ? withLedgerSpans(parts.store, telemetry) : parts.store;
  const observer = telemetry ? withTracedCalls(parts.observer, telemetry) : parts.observer;
  const now = parts.now ?? (() => new Date());
  const { offload } = parts;
  return {
    store,
    limiter,
    registry: createToolRegistry(parts.tools, settings.tools),
    switches: createSwitchReader(store, () => now().getTime(), parts.switchTtlMs),
    settings,
    keyPattern: keyPattern(settings.keyPrefix),
    adminKeyPattern: keyPattern(settings.adminKeyPrefix),
    now,
    // Time-ordered: new usage rows land at the right edge of the call-id index, not on a random page.
    newCallId: randomUUIDv7,
    keyedCalls: createKeyedCallsInFlight(),
    jobs: createJobsInFlight(parts.jobLeaseMs ?? DEFAULT_CALL_ABANDON_S * 1000),
    upstream: parts.upstream ?? createHttpUpstream(),
    ...(observer ? { observer } : {}),
    ...(offload ? { offload } : {}),
    ...(telemetry ? { telemetry } : {}),
    async close() {
      await Promise.allSettled([limiter.close(), store.close(), offload?.close()]);
      await telemetry?.shutdown();
    },
  };
}

/** Stripe Checkout and its packs, when the configuration sets them up; null otherwise. */
export function createBilling(config: Pick<Config, "billing">): Billing | null {
  const { billing } = config;
  if (billing === null) return null;
  return {
    packs: billing.packs,
    payments: createStripePayments({
      secretKey: billing.secretKey,
      webhookSecret: billing.webhookSecret,
      apiBase: billing.apiBase,
    }),
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
      : (await import("./adapters/redis/rate-limiter.ts")).createRedisRateLimiter({
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
  const { createPostgresRateLimiter, createPostgresStore } = await import("./adapters/postgres/index.ts");
  const store = await createPostgresStore({
    url,
    poolSize,
    schema,
    connectTimeoutMs: timeoutMs,
    queryTimeoutMs: timeoutMs,
  });
  return { store, limiter: redis ?? createPostgresRateLimiter({ pool: store.pool, timeoutMs }) };
}
