/**
 * The peer cases: the same calculator call answered by bench/peer/server.ts, a conventional
 * implementation (Fastify, @fastify/rate-limit, one transaction per call), on SQLite (at
 * LOG_LEVEL=info and =warn, beside calculator-sqlite and calculator-sqlite-warn) and on
 * PostgreSQL + Redis (one key per connection, as calculator-pg-redis). Each ends with the same
 * accounting check as toolrun's two-instance case, on a counted run of about a second.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkedAccounting } from "../lib/accounting.ts";
import type { BenchCase, BenchContext } from "../lib/context.ts";
import { runLoad } from "../lib/load.ts";
import { CALCULATOR_SLUG, calculatorBody } from "../lib/payloads.ts";
import { type ServerHandle, startServer } from "../lib/procs.ts";
import type { CaseResult } from "../lib/report.ts";
import { loadRow, probe, type Target, warmUp } from "../lib/runs.ts";
import { createDatabase } from "../lib/service.ts";

const PEER_SCRIPT = fileURLToPath(new URL("../peer/server.ts", import.meta.url));
/** The peer charges 1 credit a calculator call, as toolrun charges a builder key. */
const CALCULATOR_COST = 1;

interface PeerSetup {
  readonly label: string;
  readonly args: readonly string[];
  readonly logLevel: string;
  /** How many keys: one for all connections, or one per connection. */
  readonly keys: number;
}

function startPeer(
  context: BenchContext,
  setup: PeerSetup,
  secrets: readonly string[],
): Promise<ServerHandle> {
  return startServer({
    script: PEER_SCRIPT,
    args: [...setup.args],
    env: { PEER_KEYS: secrets.join(","), LOG_LEVEL: setup.logLevel },
    cpu: context.serverCpu,
    logFile: join(context.dir, `${setup.label}.log`),
    ready: /peer listening on (http:\/\/\S+)/,
    nodeFlags: context.options.nodeFlags,
  });
}

/** One row at peak for `setup`, then the accounting check on the same server. */
async function peerRun(context: BenchContext, result: CaseResult, setup: PeerSetup): Promise<void> {
  const { options } = context;
  const secrets = Array.from({ length: setup.keys }, () => `peer_${randomBytes(24).toString("base64url")}`);
  const perConnection = secrets.map((secret) => ({
    authorization: `Bearer ${secret}`,
    "content-type": "application/json",
  }));
  const server = await startPeer(context, setup, secrets);
  try {
    const target: Target = {
      url: `${server.url}/v1/tool/${CALCULATOR_SLUG}`,
      method: "POST",
      headers: perConnection[0] ?? {},
      body: calculatorBody,
    };
    await probe(target);
    const load = { ...target, connections: options.connections, clientHeaders: perConnection };
    await warmUp(load, options.connections, options.warmup);
    const { row } = await loadRow(setup.label, [server.pid], { ...load, duration: options.duration });
    result.rows.push(row);

    const amount = Math.max(200, Math.round(row.rps));
    const accounting = await checkedAccounting(
      new URL(server.url).origin,
      perConnection,
      CALCULATOR_COST,
      amount,
      () => runLoad({ ...load, amount }, options.duration * 4 + 10),
      `exact accounting (${setup.label})`,
    );
    result.details[`accounting ${setup.label}`] = accounting.details;
    result.checks.push(accounting.check);
  } finally {
    await server.stop();
  }
}

export const peerSqlite: BenchCase = {
  name: "peer-sqlite",
  title:
    "the conventional peer (Fastify + @fastify/rate-limit + better-sqlite3, one transaction per call) at LOG_LEVEL=info, then =warn",
  async run(context, result) {
    for (const logLevel of ["info", "warn"]) {
      const label = logLevel === "info" ? "peer-sqlite" : "peer-sqlite-warn";
      const file = join(context.dir, `${label}.db`);
      await peerRun(context, result, { label, args: ["--sqlite", file], logLevel, keys: 1 });
    }
  },
};

export const peerPostgres: BenchCase = {
  name: "peer-pg-redis",
  title:
    "the conventional peer on PostgreSQL + Redis (pg + ioredis, one transaction per call), one key per connection",
  async run(context, result) {
    const { options } = context;
    const name = `toolrun_peer_${process.pid}_${Date.now().toString(36)}`;
    const dropDatabase = await createDatabase(options.postgresAdminUrl, name);
    try {
      const url = new URL(options.postgresAdminUrl);
      url.pathname = `/${name}`;
      await peerRun(context, result, {
        label: "peer-pg-redis",
        args: ["--postgres", url.toString(), "--redis", options.redisUrl],
        logLevel: "info",
        keys: options.connections,
      });
    } finally {
      await dropDatabase();
    }
  },
};
