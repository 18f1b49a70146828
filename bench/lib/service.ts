/**
 * Sets up a real `toolrun` for a case as an operator would: a TOOLRUN_CONFIG file lifting the
 * builder plan's rate limit out of the way, `toolrun migrate`, `toolrun keys create --plan builder
 * --credits N --json`, then `toolrun serve` processes on free ports. Also the throwaway PostgreSQL
 * database of the scale-out cases.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "pg";
import { runToolrun, type ServerHandle, startServer, TOOLRUN_BIN } from "./procs.ts";
import type { Target } from "./runs.ts";

/** Large enough that no case runs out (the inspector costs 5 a call); fits a 32-bit column. */
export const BENCH_CREDITS = 1_000_000_000;

/** A case that cannot run here; the report shows the reason instead of figures. */
export class SkipCase extends Error {
  override readonly name = "SkipCase";
}

const KEYS_AT_ONCE = 4;

export interface Service {
  /** Every key created, all builder keys with BENCH_CREDITS; `key` is the first. */
  readonly keys: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The environment of `toolrun serve`: `env`, a free port, and profiling when asked. */
  readonly serveEnv: Readonly<Record<string, string>>;
  readonly key: string;
  readonly keyId: string;
  readonly dir: string;
  /** Node flags of every `toolrun serve` (`--node-flags`). */
  readonly nodeFlags: readonly string[];
}

export interface ServiceOptions {
  readonly dir: string;
  readonly database: string;
  readonly redisUrl?: string;
  readonly logLevel: string;
  readonly cpuProfDir?: string | null;
  /** Node flags of every `toolrun serve` of this service. */
  readonly nodeFlags?: readonly string[];
  /** How many keys to create (default 1). */
  readonly keys?: number;
  /** More members of the configuration file (`httpTools`, `tools`). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** More of the environment (`TOOLRUN_TOOLS`, `TOOLRUN_CALL_ABANDON_S`). */
  readonly env?: Readonly<Record<string, string>>;
}

/** A TOOLRUN_CONFIG in `dir` lifting the builder plan's rate limit, so no bench run meets a 429. */
export function writeLiftedConfig(dir: string, more: Readonly<Record<string, unknown>> = {}): string {
  const configFile = join(dir, "toolrun-config.json");
  writeFileSync(configFile, JSON.stringify({ plans: { builder: { rpm: 100_000_000 } }, ...more }));
  return configFile;
}

export async function prepareService(options: ServiceOptions): Promise<Service> {
  const configFile = writeLiftedConfig(options.dir, options.config);
  const env: Record<string, string> = {
    // All of a case's connections share one key: lift the per-key share of large calls as the
    // plan's rate limit is lifted, so the peak of 1 MiB calls meets no 429 too_many_large_calls.
    TOOLRUN_COMPUTE_PER_KEY: "1000",
    ...options.env,
    TOOLRUN_DATABASE: options.database,
    TOOLRUN_CONFIG: configFile,
    LOG_LEVEL: options.logLevel,
  };
  if (options.redisUrl) env.TOOLRUN_REDIS_URL = options.redisUrl;

  const migrated = await runToolrun(["migrate"], env);
  if (migrated.code !== 0) {
    const message = (migrated.stderr || migrated.stdout).trim();
    if (/not wired yet/i.test(message)) throw new SkipCase(message.replace(/^toolrun:\s*/, ""));
    throw new Error(`toolrun migrate failed (${migrated.code}): ${message}`);
  }
  // A CLI process a key, a few at once: fifty at once kept a 2-CPU machine at a load of 50 for
  // half a minute, and could meet the database's write lock past its busy timeout.
  const created: { id: string; key: string }[] = [];
  const createKey = async (): Promise<{ id: string; key: string }> => {
    const run = await runToolrun(
      [
        "keys",
        "create",
        "--plan",
        "builder",
        "--name",
        "bench",
        "--credits",
        String(BENCH_CREDITS),
        "--json",
      ],
      env,
    );
    if (run.code !== 0) throw new Error(`toolrun keys create failed: ${run.stderr.trim()}`);
    return JSON.parse(run.stdout) as { id: string; key: string };
  };
  const wanted = options.keys ?? 1;
  while (created.length < wanted) {
    const batch = Math.min(KEYS_AT_ONCE, wanted - created.length);
    created.push(...(await Promise.all(Array.from({ length: batch }, createKey))));
  }
  const parsed = created[0];
  if (!parsed) throw new Error("no key created");
  const serveEnv: Record<string, string> = { ...env, PORT: "0" };
  if (options.cpuProfDir) serveEnv.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${options.cpuProfDir}`;
  return {
    env,
    serveEnv,
    key: parsed.key,
    keyId: parsed.id,
    keys: created.map((k) => k.key),
    dir: options.dir,
    nodeFlags: options.nodeFlags ?? [],
  };
}

export function serveToolrun(
  service: Service,
  cpu: number | null,
  name: string,
  extraNodeFlags: readonly string[] = [],
): Promise<ServerHandle> {
  return startServer({
    script: TOOLRUN_BIN,
    args: ["serve"],
    env: service.serveEnv,
    cpu,
    logFile: join(service.dir, `${name}.log`),
    ready: /toolrun listening on (http:\/\/\S+)/,
    nodeFlags: [...service.nodeFlags, ...extraNodeFlags],
  });
}

export function authHeaders(service: Service, key = service.key): Record<string, string> {
  return { authorization: `Bearer ${key}`, "content-type": "application/json" };
}

/** A call of tool `slug` on `server` with `body`, under the service's first key. */
export function toolTarget(server: ServerHandle, service: Service, slug: string, body: string): Target {
  return { url: `${server.url}/v1/tool/${slug}`, method: "POST", headers: authHeaders(service), body };
}

/** A fresh database on the server of `adminUrl`; the returned function drops it. */
export async function createDatabase(adminUrl: string, name: string): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name ${name}`);
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`CREATE DATABASE ${name}`);
  } catch (error) {
    throw new SkipCase(
      `PostgreSQL at ${adminUrl} is not reachable (${error instanceof Error ? error.message : error})`,
    );
  }
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
