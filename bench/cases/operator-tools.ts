/**
 * An operator's tools under load, on the embedded SQLite store:
 * - `module-tool-sqlite`: a module tool (bench/tools/instant.ts, through TOOLRUN_TOOLS) that
 *   answers at once with the calculator's outputs, synchronously and through a resolved promise,
 *   beside the calculator on the same server: what the module path costs against the built-in one
 *   (its ratio to the bare route against calculator-sqlite's);
 * - `http-tool-sqlite`: an HTTP tool declared as data against a local upstream
 *   (bench/upstream-server.ts, on the servers' CPU), beside the same call made to the upstream
 *   directly: toolrun's added CPU per call, over every process;
 * - `http-tool-slow-upstream`: 1,000 connections calling an HTTP tool whose upstream answers in
 *   500 ms (all in flight together: the upstream counts them), then the calculator at a paced rate
 *   alone and beside 1,000 calls held open by the upstream: what waiting calls cost other calls'
 *   p99, and the server's memory with them in flight.
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { accountOf, checkedAccounting } from "../lib/accounting.ts";
import type { BenchCase, BenchContext } from "../lib/context.ts";
import { runLoad } from "../lib/load.ts";
import { CALCULATOR_SLUG, calculatorBody } from "../lib/payloads.ts";
import { rssKiB, type ServerHandle, startScriptServer } from "../lib/procs.ts";
import type { CaseResult } from "../lib/report.ts";
import { loadRow, pacedRow, probe, type Target, warmUp, warmUpPaced } from "../lib/runs.ts";
import { authHeaders, prepareService, type Service, serveToolrun, toolTarget } from "../lib/service.ts";

const UPSTREAM_SCRIPT = fileURLToPath(new URL("../upstream-server.ts", import.meta.url));
const BENCH_TOOLS = fileURLToPath(new URL("../tools/", import.meta.url));
const MODULE_SLUG = "instant-answer";
/** The slow upstream's answer time and how many calls wait on it together. */
const SLOW_MS = 500;
const WAITING_CALLS = 1000;
/** The calculator's rate beside the waiting calls (as calculator-with-inspector-1mib's). */
const PACED_RATE = 1000;

async function withServers<T>(
  starts: readonly (() => Promise<ServerHandle>)[],
  work: (servers: ServerHandle[]) => Promise<T>,
): Promise<T> {
  const servers: ServerHandle[] = [];
  try {
    for (const start of starts) servers.push(await start());
    return await work(servers);
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

function startUpstream(context: BenchContext): Promise<ServerHandle> {
  return startScriptServer(UPSTREAM_SCRIPT, "upstream", context.serverCpu, context.dir);
}

/** An HTTP tool on the bench upstream, costing 1 credit. */
function httpTool(slug: string, url: string, timeoutMs = 10_000) {
  return {
    slug,
    name: slug,
    description: `The bench upstream's ${new URL(url).pathname}.`,
    version: "1.0.0",
    weight: 1,
    maxBodyBytes: 16 * 1024,
    inputSchema: { type: "object" },
    url,
    method: "POST",
    timeoutMs,
  };
}

/** The real service on a SQLite file of the case's own, with the case's tools. */
function caseService(
  context: BenchContext,
  more: Pick<Parameters<typeof prepareService>[0], "config" | "env" | "keys"> & { logLevel?: string },
): Promise<Service> {
  const { logLevel = "info", ...rest } = more;
  return prepareService({
    dir: context.dir,
    database: join(context.dir, "toolrun.db"),
    logLevel,
    cpuProfDir: context.options.cpuProfDir,
    nodeFlags: context.options.nodeFlags,
    ...rest,
  });
}

async function peakRow(context: BenchContext, label: string, pids: readonly number[], target: Target) {
  const { options } = context;
  await probe(target);
  await warmUp(target, options.connections, options.warmup);
  return loadRow(label, pids, { ...target, connections: options.connections, duration: options.duration });
}

const moduleTool: BenchCase = {
  name: "module-tool-sqlite",
  title: "an operator's module tool answering at once (sync, then a resolved promise), beside the calculator",
  async run(context, result) {
    const service = await caseService(context, { env: { TOOLRUN_TOOLS: BENCH_TOOLS } });
    await withServers([() => serveToolrun(service, context.serverCpu, "serve")], async ([server]) => {
      if (!server) return;
      const promiseBody = JSON.stringify({ ...JSON.parse(calculatorBody), promise: true });
      const targets = {
        calculator: toolTarget(server, service, CALCULATOR_SLUG, calculatorBody),
        sync: toolTarget(server, service, MODULE_SLUG, calculatorBody),
        promised: toolTarget(server, service, MODULE_SLUG, promiseBody),
      };
      // Every path warmed up before any is measured, so none pays for the others' compilation.
      for (const target of Object.values(targets)) await warmUp(target, context.options.connections, 1);
      const calculator = await peakRow(
        context,
        "calculator-sqlite, operator tools loaded",
        [server.pid],
        targets.calculator,
      );
      const sync = await peakRow(context, "module-tool-sqlite", [server.pid], targets.sync);
      const promised = await peakRow(
        context,
        "module-tool-sqlite, resolved promise",
        [server.pid],
        targets.promised,
      );
      result.rows.push(sync.row, promised.row, calculator.row);
      const cpu = (row: typeof sync.row) => row.serverCpuUsPerRequest ?? Number.POSITIVE_INFINITY;
      result.checks.push({
        name: "a module tool that answers at once costs no more than the calculator, same server",
        ok: cpu(sync.row) <= cpu(calculator.row) * 1.1 && sync.row.non2xx + promised.row.non2xx === 0,
        detail: `CPU a call: module ${cpu(sync.row).toFixed(0)} us (through a promise ${cpu(promised.row).toFixed(0)} us), calculator ${cpu(calculator.row).toFixed(0)} us; req/s ${Math.round(sync.row.rps)}, ${Math.round(promised.row.rps)}, ${Math.round(calculator.row.rps)}`,
      });
    });
  },
};

const httpToolCost: BenchCase = {
  name: "http-tool-sqlite",
  title: "an HTTP tool against a local upstream, beside the same call made to the upstream directly",
  async run(context, result) {
    await withServers([() => startUpstream(context)], async ([upstream]) => {
      if (!upstream) return;
      const service = await caseService(context, {
        config: { httpTools: [httpTool("upstream-echo", `${upstream.url}/echo`)] },
      });
      await withServers([() => serveToolrun(service, context.serverCpu, "serve")], async ([server]) => {
        if (!server) return;
        const direct = await peakRow(context, "upstream directly", [upstream.pid], {
          url: `${upstream.url}/echo`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: calculatorBody,
        });
        result.rows.push(direct.row);
        const target = toolTarget(server, service, "upstream-echo", calculatorBody);
        const through = await peakRow(context, "http-tool-sqlite", [server.pid, upstream.pid], target);
        result.rows.push(through.row);
        const added =
          through.row.allCpuUsPerRequest === null || direct.row.allCpuUsPerRequest === null
            ? null
            : Math.round(through.row.allCpuUsPerRequest - direct.row.allCpuUsPerRequest);
        result.details.addedCpuUsPerCall = added;
        result.notes.push(
          `toolrun's added CPU a call: ${added} us over every process (${through.row.allCpuUsPerRequest?.toFixed(0)} us through toolrun and the upstream, ${direct.row.allCpuUsPerRequest?.toFixed(0)} us for the upstream called directly)`,
        );
        const amount = Math.max(1, Math.round(through.row.rps));
        const accounting = await checkedAccounting(server.url, [authHeaders(service)], 1, amount, () =>
          runLoad({ ...target, connections: context.options.connections, amount }, 60),
        );
        result.checks.push(accounting.check);
      });
    });
  },
};

const slowUpstream: BenchCase = {
  name: "http-tool-slow-upstream",
  title: `${WAITING_CALLS} concurrent HTTP tool calls to a ${SLOW_MS} ms upstream; the calculator paced beside ${WAITING_CALLS} waiting calls`,
  async run(context, result) {
    const { duration, warmup } = context.options;
    // The held calls wait through the paced run and its warm-up; the abandon time stays above.
    const holdTimeoutMs = (warmup + duration + 60) * 1000;
    await withServers([() => startUpstream(context)], async ([upstream]) => {
      if (!upstream) return;
      const service = await caseService(context, {
        logLevel: "warn",
        config: {
          httpTools: [
            httpTool("upstream-slow", `${upstream.url}/slow/${SLOW_MS}`),
            httpTool("upstream-hold", `${upstream.url}/hold`, holdTimeoutMs),
          ],
        },
        env: { TOOLRUN_CALL_ABANDON_S: String(Math.ceil(holdTimeoutMs / 1000) + 60) },
        // The waiting calls' key apart from the calculator's, so their books are theirs alone.
        keys: 2,
      });
      await withServers([() => serveToolrun(service, context.serverCpu, "serve")], async ([server]) => {
        if (!server) return;
        const stats = async () =>
          (await probe({ url: `${upstream.url}/stats`, method: "GET", headers: {} })) as {
            inFlight: number;
            maxInFlight: number;
          };
        const slow = toolTarget(server, service, "upstream-slow", "{}");
        await probe(slow);
        await warmUp(slow, WAITING_CALLS, warmup);
        await probe({ url: `${upstream.url}/stats/reset`, method: "POST", headers: {} });
        const concurrent = await loadRow(
          `http-tool, ${WAITING_CALLS} connections, ${SLOW_MS} ms upstream`,
          [server.pid, upstream.pid],
          { ...slow, connections: WAITING_CALLS, duration, timeout: 30 },
        );
        result.rows.push(concurrent.row);
        const { maxInFlight } = await stats();
        result.checks.push({
          name: `${WAITING_CALLS} calls to a ${SLOW_MS} ms upstream all in flight together`,
          ok: maxInFlight >= WAITING_CALLS && concurrent.row.non2xx + concurrent.row.errors === 0,
          detail: `the upstream held ${maxInFlight} at once; ${concurrent.row.rps} calls/s (${WAITING_CALLS} / ${SLOW_MS} ms = ${(WAITING_CALLS * 1000) / SLOW_MS}/s if nothing but the upstream waits), p50 ${concurrent.row.p50} ms, p99 ${concurrent.row.p99} ms; RSS ${mib(concurrent.row.rssBeforeKiB)} > ${mib(concurrent.row.rssAfterKiB)} MiB (peak ${mib(concurrent.row.rssPeakKiB)})`,
        });
        await besideWaitingCalls(context, result, service, server, upstream, stats);
      });
    });
  },
};

/** The calculator paced alone, then beside WAITING_CALLS calls the upstream holds; then their answers. */
async function besideWaitingCalls(
  context: BenchContext,
  result: CaseResult,
  service: Service,
  server: ServerHandle,
  upstream: ServerHandle,
  stats: () => Promise<{ inFlight: number }>,
): Promise<void> {
  const { duration, warmup } = context.options;
  const calculator = toolTarget(server, service, CALCULATOR_SLUG, calculatorBody);
  const paced = { ...calculator, rate: PACED_RATE, durationS: duration };
  await warmUpPaced(calculator, PACED_RATE, warmup);
  const alone = await pacedRow(`calculator @ ${PACED_RATE}/s paced, alone`, [server.pid], paced);
  result.rows.push(alone.row);

  const waitingKey = [authHeaders(service, service.keys[1])];
  const before = await accountOf(server.url, waitingKey);
  const rssBefore = rssKiB(server.pid);
  const hold = { ...toolTarget(server, service, "upstream-hold", "{}"), headers: waitingKey[0] ?? {} };
  const waiting = Array.from({ length: WAITING_CALLS }, () =>
    fetch(hold.url, { method: "POST", headers: hold.headers, body: "{}" }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    ),
  );
  while ((await stats()).inFlight < WAITING_CALLS) await new Promise((resolve) => setTimeout(resolve, 50));
  const rssWaiting = rssKiB(server.pid);
  await warmUpPaced(calculator, PACED_RATE, warmup);
  const beside = await pacedRow(
    `calculator @ ${PACED_RATE}/s paced, beside ${WAITING_CALLS} waiting calls`,
    [server.pid],
    paced,
  );
  result.rows.push(beside.row);
  await probe({ url: `${upstream.url}/release`, method: "POST", headers: {} });
  const statuses = await Promise.all(waiting);
  const answered = statuses.filter((status) => status === 200).length;
  const after = await accountOf(server.url, waitingKey);

  const added = Math.round((beside.row.p99 - alone.row.p99) * 100) / 100;
  result.checks.push({
    name: `${WAITING_CALLS} calls waiting on their upstream add at most 1 ms to the calculator's p99`,
    ok: added <= 1 && beside.row.non2xx + beside.row.errors === 0,
    detail: `p99 ${alone.row.p99} ms alone, ${beside.row.p99} ms beside ${WAITING_CALLS} waiting calls (${added >= 0 ? "+" : ""}${added} ms); p50 ${alone.row.p50} -> ${beside.row.p50} ms; RSS ${mib(rssBefore)} MiB before, ${mib(rssWaiting)} MiB with them waiting`,
  });
  const credits = after.credits - before.credits;
  const usage = after.usage - before.usage;
  result.checks.push({
    name: "exact accounting of the waiting calls",
    ok: answered === WAITING_CALLS && credits === answered && usage === answered,
    detail: `${answered} of ${WAITING_CALLS} waiting calls answered 200 once released, x 1 credit; /v1/me/credits +${credits}; /v1/me/usage +${usage}`,
  });
  result.details.waiting = {
    rssBeforeKiB: rssBefore,
    rssWaitingKiB: rssWaiting,
    answered,
    addedP99Ms: added,
  };
}

function mib(kib: number | null): string {
  return kib === null ? "?" : (kib / 1024).toFixed(0);
}

export const operatorToolCases: readonly BenchCase[] = [moduleTool, httpToolCost, slowUpstream];
