/**
 * A toolrun deployment for the scale-out tests, built only through the operator interface: one
 * throwaway PostgreSQL schema, optionally one Redis key prefix, a TOOLRUN_CONFIG file, the
 * `toolrun` CLI for `migrate` and keys, and N `toolrun serve --no-migrate` processes on that
 * schema. cleanup() stops every process and removes the schema, the Redis keys and the files.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { Client } from "pg";
import { types } from "../../../src/adapters/postgres/pool.ts";
import { dropSchema, uniqueSchema } from "../../adapters/postgres-fixture.ts";
import { runCli, type ServerProcess, startServerProcess } from "../../helpers/process.ts";
import { uniqueName } from "../../helpers/services.ts";

export interface ClusterOptions {
  readonly databaseUrl: string;
  /** Where rate-limit windows live; null keeps them in PostgreSQL. */
  readonly redisUrl: string | null;
  /** Contents of the TOOLRUN_CONFIG file, if any. */
  readonly config?: unknown;
}

export interface TestKey {
  readonly id: string;
  readonly key: string;
}

export interface Cluster {
  readonly schema: string;
  /** The environment every CLI run and server of this deployment shares. */
  readonly env: Readonly<Record<string, string>>;
  /** Starts `count` more `serve --no-migrate` processes, in turn (extra variables override `env`). */
  start(count: number, extra?: Record<string, string>): Promise<ServerProcess[]>;
  /** Runs `toolrun ...args` and asserts it succeeded; returns its stdout. */
  cli(args: readonly string[]): Promise<string>;
  createKey(plan: string, credits: number): Promise<TestKey>;
  /** One statement in this deployment's schema, on a connection of its own (bigints read as numbers). */
  query<T>(text: string, values?: unknown[]): Promise<T[]>;
  cleanup(): Promise<void>;
}

export async function createCluster(options: ClusterOptions): Promise<Cluster> {
  const schema = uniqueSchema();
  const redisPrefix = `${uniqueName("t")}:`;
  const dir = mkdtempSync(join(tmpdir(), "toolrun-scale-"));
  const env: Record<string, string> = {
    TOOLRUN_DATABASE: options.databaseUrl,
    TOOLRUN_DATABASE_SCHEMA: schema,
    TOOLRUN_DATABASE_POOL_SIZE: "10",
  };
  if (options.redisUrl !== null) {
    env.TOOLRUN_REDIS_URL = options.redisUrl;
    env.TOOLRUN_REDIS_PREFIX = redisPrefix;
  }
  if (options.config !== undefined) {
    env.TOOLRUN_CONFIG = join(dir, "toolrun.json");
    writeFileSync(env.TOOLRUN_CONFIG, JSON.stringify(options.config));
  }
  const servers: ServerProcess[] = [];

  async function cli(args: readonly string[]): Promise<string> {
    const result = await runCli(args, env);
    assert.equal(result.code, 0, `toolrun ${args.join(" ")} failed:\n${result.stderr}`);
    return result.stdout;
  }

  const cluster: Cluster = {
    schema,
    env,
    async start(count, extra = {}) {
      // One after another: starting many Node processes at once on a busy machine can take longer
      // than startServerProcess waits for each.
      const started: ServerProcess[] = [];
      for (let n = 0; n < count; n++) {
        const server = await startServerProcess({ ...env, ...extra }, ["--no-migrate"]);
        servers.push(server);
        started.push(server);
      }
      return started;
    },
    cli,
    async createKey(plan, credits) {
      const out = await cli(["keys", "create", "--plan", plan, "--credits", String(credits), "--json"]);
      const created = JSON.parse(out) as { id: string; key: string };
      return { id: created.id, key: created.key };
    },
    async query<T>(text: string, values: unknown[] = []) {
      const client = new Client({
        connectionString: options.databaseUrl,
        options: `-c search_path=${schema}`,
        types,
      });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      await Promise.all(servers.map((server) => stopProcess(server)));
      await dropSchema(options.databaseUrl, schema);
      if (options.redisUrl !== null) await deleteRedisPrefix(options.redisUrl, redisPrefix);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    // Two migrators at once, as two deploy jobs might: the advisory lock lets exactly one apply.
    await Promise.all([cli(["migrate"]), cli(["migrate"])]);
  } catch (error) {
    await cluster.cleanup();
    throw error;
  }
  return cluster;
}

/** SIGTERM, then SIGKILL if the process has not exited within 5 s. */
export async function stopProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 5_000);
  await server.stop("SIGTERM");
  clearTimeout(timer);
}

/** Deletes every key under `prefix` (SCAN, never KEYS: the server may be shared). */
async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = "0";
    for (let round = 0; round < 10_000; round++) {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
      if (cursor === "0") break;
    }
  } finally {
    await redis.quit();
  }
}
