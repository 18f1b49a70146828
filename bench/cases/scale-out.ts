/**
 * Scale-out cases: the calculator on PostgreSQL + Redis with one `toolrun serve`, then with two
 * instances sharing one database and one Redis (autocannon spreads its connections over both),
 * followed by the accounting check: 200s x cost == /v1/me/credits == /v1/me/usage credits_used.
 * Each case gets a database of its own, dropped at the end.
 */
import { checkedAccounting } from "../lib/accounting.ts";
import type { BenchCase, BenchContext } from "../lib/context.ts";
import { runLoad } from "../lib/load.ts";
import { CALCULATOR_SLUG, calculatorBody } from "../lib/payloads.ts";
import type { ServerHandle } from "../lib/procs.ts";
import type { CaseResult, Row } from "../lib/report.ts";
import { loadRow, probe, type Target } from "../lib/runs.ts";
import { authHeaders, createDatabase, prepareService, type Service, serveToolrun } from "../lib/service.ts";
import { peerPostgres } from "./peer.ts";

/** A builder key pays max(weight 1, minimum 1) = 1 credit per calculator call. */
const CALCULATOR_COST = 1;

async function onPostgres(
  context: BenchContext,
  result: CaseResult,
  instances: number,
  work: (service: Service, servers: readonly ServerHandle[]) => Promise<void>,
): Promise<void> {
  const { options } = context;
  const name = `toolrun_bench_${process.pid}_${Date.now().toString(36)}`;
  const dropDatabase = await createDatabase(options.postgresAdminUrl, name);
  const servers: ServerHandle[] = [];
  try {
    const url = new URL(options.postgresAdminUrl);
    url.pathname = `/${name}`;
    result.details.database = url.toString();
    const service = await prepareService({
      dir: context.dir,
      database: url.toString(),
      redisUrl: options.redisUrl,
      logLevel: "info",
      cpuProfDir: context.options.cpuProfDir,
      nodeFlags: context.options.nodeFlags,
      // One key per connection, as many clients would: calls of one key all update that key's
      // balance row, which PostgreSQL locks until each call's transaction commits.
      keys: options.connections,
    });
    for (let i = 0; i < instances; i++)
      // Each instance gets a CPU of its own, as instances on separate machines would: the first
      // the servers' CPU, the second the other one (which the load generator shares).
      servers.push(
        await serveToolrun(
          service,
          context.serverCpu === null ? null : (context.serverCpu + i) % 2,
          `serve-${i}`,
        ),
      );
    await work(service, servers);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await dropDatabase();
  }
}

function targets(service: Service, servers: readonly ServerHandle[]): Target[] {
  return servers.map((server) => ({
    url: `${server.url}/v1/tool/${CALCULATOR_SLUG}`,
    method: "POST",
    headers: authHeaders(service),
    body: calculatorBody,
  }));
}

const single: BenchCase = {
  name: "calculator-pg-redis",
  title: "the calculator on PostgreSQL + Redis, one instance",
  run: (context, result) =>
    onPostgres(context, result, 1, async (service, servers) => {
      const { options } = context;
      const [target] = targets(service, servers);
      if (!target) throw new Error("no server");
      await probe(target);
      await runLoad({
        ...target,
        connections: options.connections,
        duration: options.warmup,
        clientHeaders: perConnection(service),
      });
      const { row } = await loadRow(
        result.name,
        servers.map((s) => s.pid),
        {
          ...target,
          connections: options.connections,
          duration: options.duration,
          clientHeaders: perConnection(service),
        },
      );
      result.rows.push(row);
    }),
};

const double: BenchCase = {
  name: "calculator-pg-redis-2x",
  title: "the calculator on two instances sharing PostgreSQL + Redis, then the accounting check",
  run: (context, result) =>
    onPostgres(context, result, 2, async (service, servers) => {
      const { options } = context;
      const all = targets(service, servers);
      const [first] = all;
      if (!first) throw new Error("no server");
      for (const target of all) await probe(target);
      // Warm-up by count, not time: a timed run abandons calls in flight that would be charged
      // after `before` is read.
      const warmAmount = Math.max(
        100,
        Math.round((context.peaks.get("calculator-pg-redis") ?? 500) * options.warmup),
      );
      for (const target of all)
        await runLoad({
          ...target,
          connections: options.connections,
          amount: warmAmount,
          clientHeaders: perConnection(service),
        });
      if (context.serverCpu !== null)
        result.notes.push(
          `instance 1 on CPU ${context.serverCpu}, instance 2 on CPU ${(context.serverCpu + 1) % 2} beside the load generator; PostgreSQL and Redis float over both`,
        );
      // A fixed number of requests, so every charge made has its response counted: about
      // `duration` seconds of load if two instances serve twice what one does.
      const oneRps = context.peaks.get("calculator-pg-redis") ?? 1000;
      const amount = Math.max(200, Math.round(oneRps * 2 * options.duration));
      const connections = Math.max(2, options.connections - (options.connections % 2));
      const hardStopS = options.duration * 4 + 10;
      let row: Row | undefined;
      const accounting = await checkedAccounting(
        new URL(first.url).origin,
        perConnection(service),
        CALCULATOR_COST,
        amount,
        async () => {
          const measuredRun = await loadRow(
            result.name,
            servers.map((s) => s.pid),
            {
              ...first,
              url: all.map((t) => t.url),
              connections,
              amount,
              clientHeaders: perConnection(service),
            },
            hardStopS,
          );
          row = measuredRun.row;
          return measuredRun.load;
        },
        "exact accounting across instances",
      );
      if (row === undefined) throw new Error("no row");
      result.rows.push(row);
      if (context.peaks.has("calculator-pg-redis")) {
        result.details.speedupOverOneInstance = row.rps / oneRps;
        result.checks.push({
          name: "two instances serve more than one",
          ok: row.rps > oneRps,
          detail: `${row.rps.toFixed(0)} req/s vs ${oneRps.toFixed(0)} req/s (x${(row.rps / oneRps).toFixed(2)})`,
        });
      }
      result.details.accounting = accounting.details;
      result.checks.push(accounting.check);
    }),
};

const perConnection = (service: Service) => service.keys.map((key) => authHeaders(service, key));

export const scaleOutCases: readonly BenchCase[] = [single, peerPostgres, double];
