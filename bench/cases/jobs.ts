/**
 * `jobs-sqlite`: jobs under load, on the embedded SQLite store. The calculator paced alone twice
 * (its run-to-run spread), then beside 500 jobs started at once across 50 accounts (keys of their
 * own, `builder` with 10 concurrent jobs), each an HTTP tool with `"jobs": "required"` whose
 * upstream (bench/upstream-server.ts `/slow/2000`) answers after 2 s. Checks: every job started
 * (202) and ended `succeeded`; the accounts' credits and usage grew by exactly one call per job;
 * the calculator's p99 beside them is within the spread of its two runs alone.
 *
 * `BENCH_JOBS` and `BENCH_JOB_ACCOUNTS` make it smaller for a smoke run (defaults 500 and 50).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { accountOf } from "../lib/accounting.ts";
import type { BenchCase, BenchContext } from "../lib/context.ts";
import { CALCULATOR_SLUG, calculatorBody } from "../lib/payloads.ts";
import { type ServerHandle, startScriptServer } from "../lib/procs.ts";
import { pacedRow, probe, warmUpPaced } from "../lib/runs.ts";
import { authHeaders, prepareService, serveToolrun, toolTarget } from "../lib/service.ts";

const UPSTREAM_SCRIPT = fileURLToPath(new URL("../upstream-server.ts", import.meta.url));
const JOBS = Number(process.env.BENCH_JOBS ?? 500);
const ACCOUNTS = Number(process.env.BENCH_JOB_ACCOUNTS ?? 50);
const UPSTREAM_MS = 2000;
const PACED_RATE = 500;
const SLUG = "slow-job";

async function stopAll(servers: readonly ServerHandle[]): Promise<void> {
  for (const server of [...servers].reverse()) await server.stop();
}

const jobsUnderLoad: BenchCase = {
  name: "jobs-sqlite",
  title: `${JOBS} jobs across ${ACCOUNTS} accounts, each waiting ${UPSTREAM_MS} ms upstream, beside the calculator`,
  async run(context: BenchContext, result) {
    const { duration, warmup } = context.options;
    const servers: ServerHandle[] = [];
    try {
      // The upstream stands for another machine: on the server's CPU, its 500 answers at once
      // would be its own stall, measured as toolrun's.
      const upstream = await startScriptServer(
        UPSTREAM_SCRIPT,
        "upstream",
        context.generatorCpu,
        context.dir,
      );
      servers.push(upstream);
      const perAccount = Math.ceil(JOBS / ACCOUNTS);
      const service = await prepareService({
        dir: context.dir,
        database: join(context.dir, "toolrun.db"),
        logLevel: "warn",
        cpuProfDir: context.options.cpuProfDir,
        nodeFlags: context.options.nodeFlags,
        // The first key paces the calculator; the others each start their share of the jobs.
        keys: ACCOUNTS + 1,
        config: {
          plans: { builder: { rpm: 100_000_000, maxConcurrentJobs: perAccount } },
          httpTools: [
            {
              slug: SLUG,
              name: SLUG,
              description: "The bench upstream's slow answer, as a job.",
              version: "1.0.0",
              weight: 1,
              inputSchema: { type: "object" },
              url: `${upstream.url}/slow/${UPSTREAM_MS}`,
              method: "POST",
              jobs: "required",
              timeoutMs: 60_000,
            },
          ],
        },
      });
      const server = await serveToolrun(service, context.serverCpu, "serve");
      servers.push(server);

      const calculator = toolTarget(server, service, CALCULATOR_SLUG, calculatorBody);
      const paced = { ...calculator, rate: PACED_RATE, durationS: duration };
      await warmUpPaced(calculator, PACED_RATE, warmup);
      const first = await pacedRow(`calculator @ ${PACED_RATE}/s paced, alone`, [server.pid], paced);
      const second = await pacedRow(`calculator @ ${PACED_RATE}/s paced, alone again`, [server.pid], paced);
      result.rows.push(first.row, second.row);

      const accountKeys = service.keys.slice(1).map((key) => authHeaders(service, key));
      const before = await accountOf(server.url, accountKeys);
      const url = `${server.url}/v1/tool/${SLUG}`;
      const started = await Promise.all(
        Array.from({ length: JOBS }, async (_, n) => {
          const headers = accountKeys[n % accountKeys.length] ?? {};
          const answer = await fetch(url, { method: "POST", headers, body: "{}" });
          const body = (await answer.json()) as { id?: string };
          return { status: answer.status, id: body.id, headers };
        }),
      );
      const beside = await pacedRow(
        `calculator @ ${PACED_RATE}/s paced, beside ${JOBS} jobs waiting upstream`,
        [server.pid],
        paced,
      );
      result.rows.push(beside.row);

      // Every job read until it ended.
      const ends = new Map<string, number>();
      for (const job of started) {
        if (job.id === undefined) continue;
        for (;;) {
          const read = (await probe({
            url: `${server.url}/v1/jobs/${job.id}`,
            method: "GET",
            headers: job.headers,
          })) as {
            status: string;
          };
          if (read.status !== "queued" && read.status !== "running") {
            ends.set(read.status, (ends.get(read.status) ?? 0) + 1);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      const after = await accountOf(server.url, accountKeys);
      const accepted = started.filter((job) => job.status === 202).length;
      const succeeded = ends.get("succeeded") ?? 0;
      result.checks.push({
        name: `${JOBS} jobs across ${ACCOUNTS} accounts: all accepted, all succeeded, each charged once`,
        ok:
          accepted === JOBS &&
          succeeded === JOBS &&
          after.credits - before.credits === JOBS &&
          after.usage - before.usage === JOBS,
        detail: `202 ${accepted} of ${JOBS}; ended ${JSON.stringify(Object.fromEntries(ends))}; /v1/me/credits +${after.credits - before.credits}, /v1/me/usage +${after.usage - before.usage} (1 credit a job)`,
      });
      const spread = Math.abs(first.row.p99 - second.row.p99);
      const highest = Math.max(first.row.p99, second.row.p99);
      result.checks.push({
        name: "the calculator's p99 beside the jobs within its run-to-run spread",
        ok: beside.row.p99 <= highest + spread && beside.row.non2xx + beside.row.errors === 0,
        detail: `p99 alone ${first.row.p99} and ${second.row.p99} ms (spread ${spread.toFixed(2)} ms), beside the jobs ${beside.row.p99} ms (from the due time ${beside.paced.latencyFromDueMs.p99} ms; the generator's longest gap ${beside.paced.generatorMaxGapMs} ms)`,
      });
    } finally {
      await stopAll(servers);
    }
  },
};

export const jobCases: readonly BenchCase[] = [jobsUnderLoad];
