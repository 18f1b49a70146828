/**
 * Builds the real application in-process, as production does (assembleDeps around a store and a
 * limiter), on any store and limiter, with a controllable clock, for `app.inject` tests. The app
 * closes itself when its test or suite ends (fastify/demo's `build(t)`).
 */
import { after } from "node:test";
import type { FastifyInstance } from "fastify";
import { createMemoryRateLimiter } from "../../src/adapters/memory/rate-limiter.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { type AppOptions, buildApp } from "../../src/app.ts";
import {
  DEFAULT_ADMIN_RPM,
  DEFAULT_CAPTURE_TTL_S,
  DEFAULT_IDEMPOTENCY_TTL_S,
  DEFAULT_JOB_TTL_S,
  DEFAULT_SYNC_TIMEOUT_S,
} from "../../src/config.ts";
import { createApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import type { CoreDeps } from "../../src/core/call/deps.ts";
import type { Observer } from "../../src/core/call/observer.ts";
import { creditAlertSettings, DEFAULT_CREDIT_ALERTS } from "../../src/core/kernel/credit-alerts.ts";
import { periodOf } from "../../src/core/kernel/credits.ts";
import { hashKey } from "../../src/core/kernel/key-format.ts";
import {
  DEFAULT_PLANS,
  type Plan,
  type ServiceSettings,
  type ToolSettings,
} from "../../src/core/kernel/settings.ts";
import { checkedTools, type LoadedTool } from "../../src/core/tools/loader.ts";
import { assembleDeps } from "../../src/deps.ts";
import type { ComputeOffload } from "../../src/ports/compute-offload.ts";
import type { RateLimiter } from "../../src/ports/rate-limiter.ts";
import type { ApiKeyRecord, CreditAlerts, Store } from "../../src/ports/store.ts";
import type { AnyToolDefinition } from "../../src/tools/tool.ts";
import { fixtureTools } from "./fixture-tools.ts";
import { recordResponses } from "./response-contract.ts";

export const PUBLIC_URL = "http://toolrun.test";
export const DOCS_URL = `${PUBLIC_URL}/docs`;

export interface TestAppOptions {
  /** Tool definitions, checked as the built-in ones are (default: the fixture tools). */
  tools?: readonly AnyToolDefinition[];
  /** Tools loaded as the service loads an operator's (HTTP tools, modules), served after `tools`. */
  loadedTools?: readonly LoadedTool[];
  toolSettings?: Record<string, ToolSettings>;
  plans?: Record<string, Plan>;
  metering?: boolean;
  /** TOOLRUN_IDEMPOTENCY_TTL_S (default a day). */
  idempotencyTtlS?: number;
  /** TOOLRUN_CAPTURE_TTL_S (default a day). */
  captureTtlS?: number;
  /** TOOLRUN_ADMIN_RPM (default 600). */
  adminRpm?: number;
  syncTimeoutS?: number;
  jobTtlS?: number;
  /** `alerts` of TOOLRUN_CONFIG (default 80 % and 100 % used). */
  alerts?: CreditAlerts;
  store?: Store;
  limiter?: RateLimiter;
  /** Starting time; move it with `clock.set`/`clock.advance`. */
  at?: string;
  migrate?: boolean;
  appOptions?: AppOptions;
  /** Hears how each metered call ends (the metrics). */
  observer?: Observer;
  /** Where large calls compute (none: every call on the main thread). */
  offload?: ComputeOffload;
}

export interface TestClock {
  now(): Date;
  set(iso: string): void;
  advance(ms: number): void;
}

/** What a test key may see and do: its tools (absent for every tool) and its access. */
export interface KeyScope {
  readonly tools?: readonly string[] | null;
  readonly access?: "full" | "read";
}

export interface TestApp {
  app: FastifyInstance;
  deps: CoreDeps;
  store: Store;
  clock: TestClock;
  /** Creates a key and returns the full secret. */
  key(plan?: string, credits?: number | null, scope?: KeyScope): Promise<string>;
  /** The stored record of a key `key()` made. */
  recordOf(key: string): Promise<ApiKeyRecord>;
  /** Closes the app and its store now (a test that reads the database file after); idempotent. */
  close(): Promise<void>;
}

/**
 * What the app closes itself through: a test's context (`async (t) => ...`), or for an app made
 * in a suite's `before` hook and shared by its tests, `untilSuiteEnds()`.
 */
export interface TestLifetime {
  after(fn: () => Promise<void>): void;
}

/** A lifetime that ends with the suite whose body calls this (node:test's context has no `after` for suites). */
export function untilSuiteEnds(): TestLifetime {
  const closers: (() => Promise<void>)[] = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });
  return { after: (close) => void closers.push(close) };
}

export function testClock(at: string): TestClock {
  let current = new Date(at).getTime();
  return {
    now: () => new Date(current),
    set: (iso) => {
      current = new Date(iso).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export async function createTestApp(options: TestAppOptions, lifetime: TestLifetime): Promise<TestApp> {
  const store = options.store ?? createSqliteStore(":memory:");
  const clock = testClock(options.at ?? "2026-11-15T12:00:10.000Z");
  const settings: ServiceSettings = {
    plans: options.plans ?? DEFAULT_PLANS,
    tools: options.toolSettings ?? {},
    metering: options.metering ?? true,
    keyPrefix: "tr_live",
    adminKeyPrefix: "tr_admin",
    docsUrl: DOCS_URL,
    allowedOrigins: ["http://toolrun.test"],
    idempotencyTtlS: options.idempotencyTtlS ?? DEFAULT_IDEMPOTENCY_TTL_S,
    publicUrl: PUBLIC_URL,
    captureTtlS: options.captureTtlS ?? DEFAULT_CAPTURE_TTL_S,
    adminRpm: options.adminRpm ?? DEFAULT_ADMIN_RPM,
    syncTimeoutS: options.syncTimeoutS ?? DEFAULT_SYNC_TIMEOUT_S,
    jobTtlS: options.jobTtlS ?? DEFAULT_JOB_TTL_S,
    alerts: options.alerts ?? DEFAULT_CREDIT_ALERTS,
  };
  const deps = assembleDeps({
    store,
    limiter: options.limiter ?? createMemoryRateLimiter(),
    settings,
    tools: [...checkedTools(options.tools ?? fixtureTools), ...(options.loadedTools ?? [])],
    now: clock.now,
    // Switch changes show on the next request.
    switchTtlMs: 0,
    ...(options.observer ? { observer: options.observer } : {}),
    ...(options.offload ? { offload: options.offload } : {}),
  });
  const app = buildApp(deps, options.appOptions);
  const contract = recordResponses(app);
  let closed: Promise<void> | undefined;
  // The responses are checked against /openapi.json before the app goes away; it closes either way.
  const close = () => {
    closed ??= Promise.resolve()
      .then(() => contract.check())
      .finally(() => app.close().then(() => deps.close()));
    return closed;
  };
  lifetime.after(close);
  if (options.migrate !== false) {
    await store.migrate();
    await store.configureCreditAlerts(creditAlertSettings(settings), periodOf(clock.now()).id);
  }
  await app.ready();
  return {
    app,
    deps,
    store,
    clock,
    async key(plan = "free", credits = null, scope: KeyScope = {}) {
      return (
        await createApiKey(deps, cliActor("test"), {
          accountId: null,
          plan,
          name: "test",
          monthlyAllowance: credits,
          expiresAt: null,
          metadata: {},
          tools: scope.tools ?? null,
          access: scope.access ?? "full",
        })
      ).key;
    },
    async recordOf(key) {
      const record = await store.findKeyByHash(hashKey(key));
      if (!record) throw new Error("recordOf: no such key");
      return record;
    },
    close,
  };
}

/** One key's view of one tool: POST a body to it, read the key's credits used this month. */
export function toolClient(t: TestApp, slug: string, key: string) {
  return {
    post: (payload: unknown) =>
      t.app.inject({
        method: "POST",
        url: `/v1/tool/${slug}`,
        headers: json(bearer(key)),
        payload: typeof payload === "string" ? payload : JSON.stringify(payload),
      }),
    creditsUsed: async (): Promise<number> =>
      (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json()
        .credits_used,
  };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

export function json(headers: Record<string, string> = {}): Record<string, string> {
  return { "content-type": "application/json", ...headers };
}
