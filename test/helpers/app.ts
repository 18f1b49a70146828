/**
 * Builds the real application in-process on any store and limiter, with a controllable clock,
 * for `app.inject` tests.
 */
import { randomUUIDv7 } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { createMemoryRateLimiter } from "../../src/adapters/memory/rate-limiter.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { type AppOptions, buildApp } from "../../src/app.ts";
import { createApiKey } from "../../src/core/admin.ts";
import type { CoreDeps } from "../../src/core/deps.ts";
import { keyPattern } from "../../src/core/keys.ts";
import { createToolRegistry } from "../../src/core/registry.ts";
import {
  DEFAULT_PLANS,
  type Plan,
  type ServiceSettings,
  type ToolSettings,
} from "../../src/core/settings.ts";
import { createSwitchReader } from "../../src/core/switches.ts";
import type { RateLimiter } from "../../src/ports/rate-limiter.ts";
import type { Store } from "../../src/ports/store.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { fixtureTools } from "./fixture-tools.ts";
import { recordResponses } from "./response-contract.ts";

export const DOCS_URL = "http://toolrun.test/docs";

export interface TestAppOptions {
  tools?: readonly AnyTool[];
  toolSettings?: Record<string, ToolSettings>;
  plans?: Record<string, Plan>;
  metering?: boolean;
  store?: Store;
  limiter?: RateLimiter;
  /** Starting time; move it with `clock.set`/`clock.advance`. */
  at?: string;
  migrate?: boolean;
  appOptions?: AppOptions;
}

export interface TestClock {
  now(): Date;
  set(iso: string): void;
  advance(ms: number): void;
}

export interface TestApp {
  app: FastifyInstance;
  deps: CoreDeps;
  store: Store;
  clock: TestClock;
  /** Creates a key and returns the full secret. */
  key(plan?: string, credits?: number | null): Promise<string>;
  close(): Promise<void>;
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

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const store = options.store ?? createSqliteStore(":memory:");
  if (options.migrate !== false) await store.migrate();
  const limiter = options.limiter ?? createMemoryRateLimiter();
  const clock = testClock(options.at ?? "2026-11-15T12:00:10.000Z");
  const settings: ServiceSettings = {
    plans: options.plans ?? DEFAULT_PLANS,
    tools: options.toolSettings ?? {},
    metering: options.metering ?? true,
    keyPrefix: "tr_live",
    docsUrl: DOCS_URL,
    allowedOrigins: ["http://toolrun.test"],
  };
  const deps: CoreDeps = {
    store,
    limiter,
    registry: createToolRegistry(options.tools ?? fixtureTools, settings.tools),
    switches: createSwitchReader(store, () => clock.now().getTime(), 0),
    settings,
    keyPattern: keyPattern(settings.keyPrefix),
    now: clock.now,
    newCallId: randomUUIDv7,
  };
  const app = buildApp(deps, options.appOptions);
  const contract = recordResponses(app);
  await app.ready();
  return {
    app,
    deps,
    store,
    clock,
    async key(plan = "free", credits = null) {
      return (await createApiKey(store, settings, { plan, name: "test", monthlyAllowance: credits })).key;
    },
    async close() {
      try {
        await contract.check();
      } finally {
        await app.close();
        await limiter.close();
        await store.close();
      }
    },
  };
}

/** Runs `use` on a fresh app and closes the app whatever happens. */
export async function withTestApp<T>(options: TestAppOptions, use: (t: TestApp) => Promise<T>): Promise<T> {
  const t = await createTestApp(options);
  try {
    return await use(t);
  } finally {
    await t.close();
  }
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
