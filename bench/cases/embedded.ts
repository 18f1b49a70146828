/**
 * Cases on one machine: the bare Fastify baseline, and the real `toolrun serve` on the embedded
 * SQLite store running the calculator (at peak, at half of it, and with LOG_LEVEL=warn) and the
 * webhook inspector (a typical GitHub push and a 1 MiB one, each with a memory soak), and the
 * calculator's latency at a paced rate with and without 1 MiB inspector calls beside it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { accountOf, settledAccountOf } from "../lib/accounting.ts";
import { startCallStream } from "../lib/call-stream.ts";
import type { BenchCase, BenchContext } from "../lib/context.ts";
import {
  CALCULATOR_SLUG,
  calculatorBody,
  githubPushBody,
  githubPushNear,
  INSPECTOR_SLUG,
} from "../lib/payloads.ts";
import { BASELINE_SCRIPT, type ServerHandle, startScriptServer } from "../lib/procs.ts";
import type { CaseResult, Check } from "../lib/report.ts";
import { loadRow, pacedRow, probe, type Target, warmUp, warmUpPaced } from "../lib/runs.ts";
import {
  authHeaders,
  prepareService,
  type Service,
  SkipCase,
  serveToolrun,
  toolTarget,
} from "../lib/service.ts";
import { peerSqlite } from "./peer.ts";

/** Node flags of the latency tuning in docs/configuration.md. */
const LATENCY_NODE_FLAGS = ["--initial-old-space-size=256"];

async function withServer<T>(
  start: () => Promise<ServerHandle>,
  work: (server: ServerHandle) => Promise<T>,
): Promise<T> {
  const server = await start();
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

/** The real service on a temporary SQLite file of the case's own. */
function sqliteService(context: BenchContext, logLevel: string): Promise<Service> {
  return prepareService({
    dir: context.dir,
    database: join(context.dir, "toolrun.db"),
    logLevel,
    cpuProfDir: context.options.cpuProfDir,
    nodeFlags: context.options.nodeFlags,
  });
}

function startBaseline(context: BenchContext): Promise<ServerHandle> {
  return startScriptServer(BASELINE_SCRIPT, "baseline", context.serverCpu, context.dir);
}

function baselineTarget(server: ServerHandle): Target {
  return {
    url: `${server.url}/v1/tool/${CALCULATOR_SLUG}`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: calculatorBody,
  };
}

const baseline: BenchCase = {
  name: "baseline",
  title: "bare Fastify route answering an envelope of the calculator's size (the practical limit)",
  async run(context, result) {
    const { options } = context;
    await withServer(
      () => startBaseline(context),
      async (server) => {
        const target = baselineTarget(server);
        await probe(target);
        await warmUp(target, options.connections, options.warmup);
        const { row } = await loadRow("baseline", [server.pid], {
          ...target,
          connections: options.connections,
          duration: options.duration,
        });
        result.rows.push(row);
      },
    );
  },
};

/** Probe, warm up, then the closed-loop peak run; its row joins the case's rows. */
async function measurePeak(context: BenchContext, result: CaseResult, server: ServerHandle, target: Target) {
  const { options } = context;
  await probe(target);
  await warmUp(target, options.connections, options.warmup);
  const peak = await loadRow(result.name, [server.pid], {
    ...target,
    connections: options.connections,
    duration: options.duration,
  });
  result.rows.push(peak.row);
  return peak;
}

async function calculatorPeak(
  context: BenchContext,
  result: CaseResult,
  logLevel: string,
  halfRate: boolean,
) {
  const { options } = context;
  const service = await sqliteService(context, logLevel);
  await withServer(
    () => serveToolrun(service, context.serverCpu, "serve"),
    async (server) => {
      const target = toolTarget(server, service, CALCULATOR_SLUG, calculatorBody);
      const peak = await measurePeak(context, result, server, target);
      if (!halfRate) return;

      const half = Math.max(1, Math.floor(peak.row.rps / 2));
      context.progress(`${result.name}: p99 at half of the peak rate (${half}/s)`);
      const paced = await pacedRun(context, `${result.name} @ ${half}/s paced`, server, target, half);
      result.rows.push(paced.row);
      const bursts = await loadRow(`${result.name} @ ${half}/s overallRate`, [server.pid], {
        ...target,
        connections: options.connections,
        duration: options.duration,
        overallRate: half,
      });
      result.rows.push(bursts.row);
      // The same generator at the same rate against the bare baseline: the latency floor of the
      // generator, the HTTP stack and this machine, side by side with the pipeline's.
      const floor = await pacedOnServer(
        context,
        `baseline @ ${half}/s paced, same generator`,
        () => startBaseline(context),
        baselineTarget,
        half,
      );
      result.rows.push(floor.row);
      result.details.halfRate = { rate: half, paced: paced.paced, baselinePaced: floor.paced };
      result.checks.push({
        name: "p99 under 10 ms at half of the peak rate (paced)",
        ok: paced.row.p99 < 10 && paced.row.non2xx + paced.row.errors === 0,
        detail: `p99 ${paced.row.p99} ms at ${paced.paced.achievedRate}/s (target ${half}/s); the bare baseline at the same rate with the same generator: p99 ${floor.row.p99} ms; counted from the due time even when the generator itself woke late: p99 ${paced.paced.latencyFromDueMs.p99} ms (the generator's longest gap: ${paced.paced.generatorMaxGapMs} ms, ${paced.paced.generatorGapsOver5Ms} over 5 ms)`,
      });
      // The same rate on a server started with a larger initial V8 old generation, the tuning
      // docs/configuration.md offers: fewer full collections, more memory.
      const tuned = await pacedOnServer(
        context,
        `${result.name} @ ${half}/s paced, ${LATENCY_NODE_FLAGS.join(" ")}`,
        () => serveToolrun(service, context.serverCpu, "serve-tuned", LATENCY_NODE_FLAGS),
        (tunedServer) => toolTarget(tunedServer, service, CALCULATOR_SLUG, calculatorBody),
        half,
      );
      result.rows.push(tuned.row);
      result.details.tunedHalfRate = { nodeFlags: LATENCY_NODE_FLAGS, paced: tuned.paced };
      result.notes.push(
        `with node ${LATENCY_NODE_FLAGS.join(" ")} at the same rate: p99 ${tuned.row.p99} ms (the check above is for Node's defaults)`,
      );
      result.notes.push(
        "autocannon's overallRate sends each connection's share of a second in one burst, then idles; its row shows burst latency. The paced row spaces requests evenly and counts latency from when each was due (or, when the generator itself woke up late, from its wake-up), so waiting on a busy server counts.",
      );
    },
  );
}

/** The paced generator at `rate` against a running server, after its own warm-up, as a report row. */
async function pacedRun(
  context: BenchContext,
  label: string,
  server: ServerHandle,
  target: Target,
  rate: number,
) {
  await warmUpPaced(target, rate, context.options.warmup);
  return pacedRow(label, [server.pid], { ...target, rate, durationS: context.options.duration });
}

/** The same paced run on a server of its own, started for it and stopped after. */
function pacedOnServer(
  context: BenchContext,
  label: string,
  start: () => Promise<ServerHandle>,
  targetOf: (server: ServerHandle) => Target,
  rate: number,
) {
  return withServer(start, async (server) => {
    const target = targetOf(server);
    await probe(target);
    return pacedRun(context, label, server, target, rate);
  });
}

const calculatorSqlite: BenchCase = {
  name: "calculator-sqlite",
  title: "retaining-wall calculator through the whole pipeline on SQLite (LOG_LEVEL=info, the default)",
  run: (context, result) => calculatorPeak(context, result, "info", !context.options.peakOnly),
};

const calculatorSqliteWarn: BenchCase = {
  name: "calculator-sqlite-warn",
  title: "the same with LOG_LEVEL=warn (no per-request log lines), to price request logging",
  run: (context, result) => calculatorPeak(context, result, "warn", false),
};

/** How the inspector case ends: a soak of 1 MiB calls one at a time, or of typical pushes at full load. */
type InspectorSoak = "serial-1mib" | "concurrent-push";

async function inspector(context: BenchContext, result: CaseResult, body: string, soak: InspectorSoak) {
  const service = await sqliteService(context, "info");
  await withServer(
    () => serveToolrun(service, context.serverCpu, "serve"),
    async (server) => {
      const described = await fetch(`${server.url}/v1/tool/${INSPECTOR_SLUG}`, {
        headers: authHeaders(service),
      });
      await described.body?.cancel();
      if (described.status === 404) throw new SkipCase("tool not registered");
      const target = toolTarget(server, service, INSPECTOR_SLUG, body);
      result.details.requestBytes = Buffer.byteLength(body);
      await measurePeak(context, result, server, target);
      if (soak === "serial-1mib") await serialSoak(context, result, server, target);
      else await pushSoak(context, result, server, target);
    },
  );
}

async function serialSoak(
  context: BenchContext,
  result: CaseResult,
  server: { pid: number },
  target: Target,
) {
  const { soak } = context.options;
  context.progress(`${result.name}: ${soak} requests one at a time (soak)`);
  const serial = await loadRow(
    `${result.name} serial x${soak}`,
    [server.pid],
    { ...target, connections: 1, amount: soak },
    Math.max(60, soak * 0.2),
  );
  result.rows.push(serial.row);
  result.checks.push({
    name: "1 MiB call under 20 ms (one at a time)",
    ok: serial.row.p99 < 20 && serial.row.non2xx + serial.row.errors === 0,
    detail: `p50 ${serial.row.p50} ms, p99 ${serial.row.p99} ms, mean ${serial.load.latencyMs.mean.toFixed(2)} ms over ${serial.load.requests} calls`,
  });
  result.details.soak = { requests: serial.load.requests, rssSamplesKiB: serial.usage.rssSamples };
  result.checks.push(memoryFlat("memory flat over the soak", serial));
}

async function pushSoak(context: BenchContext, result: CaseResult, server: { pid: number }, target: Target) {
  const { pushSoak: amount, connections } = context.options;
  context.progress(`${result.name}: ${amount} requests over ${connections} connections (soak)`);
  const soaked = await loadRow(
    `${result.name} soak x${amount}`,
    [server.pid],
    { ...target, connections, amount },
    Math.max(60, amount * 0.01),
  );
  result.rows.push(soaked.row);
  result.details.soak = { requests: soaked.load.requests, rssSamplesKiB: soaked.usage.rssSamples };
  result.checks.push(memoryFlat(`memory flat over ${amount} requests`, soaked));
}

/**
 * RSS may grow while the heap warms up, not after. RSS swings by tens of MiB between samples when
 * calls allocate megabytes, so the medians of the second and of the last quarter of the samples are
 * compared: at most 10 MiB of growth.
 */
function memoryFlat(name: string, run: Awaited<ReturnType<typeof loadRow>>): Check {
  const rss = run.usage.rssSamples.map(([, kib]) => kib / 1024);
  const failed = run.row.non2xx + run.row.errors;
  if (rss.length < 4)
    return { name, ok: false, detail: `only ${rss.length} RSS samples: too short to judge` };
  const quarter = (i: number) =>
    median(rss.slice(Math.floor((rss.length * i) / 4), Math.floor((rss.length * (i + 1)) / 4)));
  const early = quarter(1);
  const late = quarter(3);
  const growth = late - early;
  const mib = (v: number) => v.toFixed(0);
  return {
    name,
    ok: growth < 10 && failed === 0,
    detail: `RSS median ${mib(early)} MiB over the second quarter of ${run.load.requests} calls, ${mib(late)} MiB over the last (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MiB; samples ${mib(Math.min(...rss))}-${mib(Math.max(...rss))} MiB)${failed > 0 ? `; ${failed} failed` : ""}`,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const inspectorPush: BenchCase = {
  name: "inspector-push",
  title: "webhook inspector on a typical GitHub push (octokit example, GitHub headers, signed), with a soak",
  run: (context, result) => inspector(context, result, githubPushBody(), "concurrent-push"),
};

const inspector1MiB: BenchCase = {
  name: "inspector-1mib",
  title: "webhook inspector on a GitHub push grown to just under the 1 MiB body limit, with a soak",
  run: (context, result) => inspector(context, result, githubPushNear(), "serial-1mib"),
};

/** The calculator's rate in calculator-with-inspector-1mib: a steady load, well under its peak. */
const MIXED_CALCULATOR_RATE = 1000;

/**
 * CPU milliseconds the main thread of process `pid` has used (Linux: /proc, in 10 ms ticks); null
 * elsewhere. Its own thread, apart from the compute workers, so what a large call still costs the
 * event loop shows.
 */
function mainThreadCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Milliseconds the main thread of process `pid` has spent runnable but waiting for a CPU (Linux:
 * /proc schedstat, in nanoseconds); null elsewhere. What sharing CPU 0 with the worker costs it,
 * apart from its own work.
 */
function mainThreadWaitMs(pid: number): number | null {
  try {
    const [, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").trim().split(" ");
    return waiting === undefined ? null : Number(waiting) / 1e6;
  } catch {
    return null;
  }
}

const round = (ms: number | null): number | null => (ms === null ? null : Math.round(ms));

function spent(before: number | null, after: number | null): number | null {
  return before === null || after === null ? null : after - before;
}

interface MixedRuns {
  readonly alone: Awaited<ReturnType<typeof pacedRow>>;
  readonly beside: Awaited<ReturnType<typeof pacedRow>>;
  readonly inspected: { readonly ok: number; readonly failed: number };
  /** What the calculator's p99 gained beside the inspector calls, in ms. */
  readonly addedP99Ms: number;
  /** What the inspector calls added to the main thread's CPU, per call (the calculator's share taken out). */
  readonly mainMsPerInspectorCall: number | null;
  readonly mainThreadCpuMs: { readonly alone: number | null; readonly beside: number | null };
  /** How long the main thread waited for a CPU over each run, in ms. */
  readonly mainThreadWaitMs: { readonly alone: number | null; readonly beside: number | null };
  readonly accounting: Check;
}

/**
 * The calculator at a paced rate alone, then with a back-to-back stream of 1 MiB inspector calls
 * on one more connection (always one in progress), on `server`. Every call of the second run is
 * answered before the books are read, so the credits its 200s cost must equal what the key's
 * balance and usage say was used.
 */
async function mixedRuns(
  context: BenchContext,
  service: Service,
  server: ServerHandle,
  label: string,
): Promise<MixedRuns> {
  const { duration, warmup } = context.options;
  const calculator = toolTarget(server, service, CALCULATOR_SLUG, calculatorBody);
  const inspectorTarget = toolTarget(server, service, INSPECTOR_SLUG, githubPushNear());
  const costs = {
    calculator: ((await probe(calculator)) as { credits_used: number }).credits_used,
    inspector: ((await probe(inspectorTarget)) as { credits_used: number }).credits_used,
  };
  const rate = MIXED_CALCULATOR_RATE;
  const paced = { ...calculator, rate, durationS: duration };

  await warmUpPaced(calculator, rate, warmup);
  const aloneCpu = mainThreadCpuMs(server.pid);
  const aloneWait = mainThreadWaitMs(server.pid);
  const alone = await pacedRow(`calculator @ ${rate}/s paced, alone${label}`, [server.pid], paced);
  const aloneCpuMs = spent(aloneCpu, mainThreadCpuMs(server.pid));
  const aloneWaitMs = spent(aloneWait, mainThreadWaitMs(server.pid));

  const warm = await startCallStream(inspectorTarget);
  await warmUpPaced(calculator, rate, warmup);
  await warm.stop();
  const keys = [authHeaders(service)];
  const before = await settledAccountOf(server.url, keys);
  const besideCpu = mainThreadCpuMs(server.pid);
  const besideWait = mainThreadWaitMs(server.pid);
  const stream = await startCallStream(inspectorTarget);
  const beside = await pacedRow(
    `calculator @ ${rate}/s paced, beside 1 MiB inspector calls${label}`,
    [server.pid],
    paced,
  );
  const inspected = await stream.stop();
  const besideCpuMs = spent(besideCpu, mainThreadCpuMs(server.pid));
  const besideWaitMs = spent(besideWait, mainThreadWaitMs(server.pid));
  const after = await accountOf(server.url, keys);

  const charged = beside.paced.ok * costs.calculator + inspected.ok * costs.inspector;
  const credits = after.credits - before.credits;
  const usage = after.usage - before.usage;
  return {
    alone,
    beside,
    inspected,
    addedP99Ms: Math.round((beside.row.p99 - alone.row.p99) * 100) / 100,
    mainMsPerInspectorCall:
      aloneCpuMs === null || besideCpuMs === null || inspected.ok === 0
        ? null
        : Math.round(((besideCpuMs - aloneCpuMs) / inspected.ok) * 100) / 100,
    mainThreadCpuMs: { alone: aloneCpuMs, beside: besideCpuMs },
    mainThreadWaitMs: { alone: round(aloneWaitMs), beside: round(besideWaitMs) },
    accounting: {
      name: `exact accounting${label}`,
      ok: charged === credits && credits === usage && beside.paced.errors + inspected.failed === 0,
      detail: `${beside.paced.ok} x 200 x ${costs.calculator} + ${inspected.ok} x 200 x ${costs.inspector} = ${charged}; /v1/me/credits +${credits}; /v1/me/usage +${usage}`,
    },
  };
}

function describeMixed(runs: MixedRuns, durationS: number): string {
  const { alone, beside, inspected, addedP99Ms } = runs;
  return `p99 ${alone.row.p99} ms alone, ${beside.row.p99} ms beside ${inspected.ok} inspector calls (${(inspected.ok / durationS).toFixed(1)}/s): ${addedP99Ms >= 0 ? "+" : ""}${addedP99Ms} ms; p50 ${alone.row.p50} -> ${beside.row.p50} ms; main-thread CPU ${runs.mainMsPerInspectorCall} ms per inspector call; the main thread waited for a CPU ${runs.mainThreadWaitMs.alone} ms alone, ${runs.mainThreadWaitMs.beside} ms beside; the generator's longest gap ${beside.paced.generatorMaxGapMs} ms`;
}

/**
 * The calculator's latency beside 1 MiB inspector calls, on a server with Node's defaults (the
 * check), then on one with the latency tuning of docs/configuration.md: a large call moves
 * megabytes through the main thread's buffers, whose collection the tuning makes rarer.
 */
const calculatorWithInspector: BenchCase = {
  name: "calculator-with-inspector-1mib",
  title: `retaining-wall calculator paced at ${MIXED_CALCULATOR_RATE}/s alone, then beside a stream of 1 MiB inspector calls on one connection`,
  async run(context, result) {
    const service = await sqliteService(context, "info");
    const { duration } = context.options;
    context.progress(
      `${result.name}: the calculator at ${MIXED_CALCULATOR_RATE}/s alone, then beside 1 MiB calls`,
    );
    const plain = await withServer(
      () => serveToolrun(service, context.serverCpu, "serve"),
      (server) => mixedRuns(context, service, server, ""),
    );
    result.rows.push(plain.alone.row, plain.beside.row);
    result.checks.push({
      name: "a 1 MiB inspector call in progress adds at most 1 ms to the calculator's p99",
      ok:
        plain.addedP99Ms <= 1 &&
        plain.beside.row.non2xx + plain.beside.row.errors + plain.inspected.failed === 0,
      detail: describeMixed(plain, duration),
    });
    result.checks.push(plain.accounting);

    const tunedLabel = `, ${LATENCY_NODE_FLAGS.join(" ")}`;
    context.progress(`${result.name}: the same on a server started with ${LATENCY_NODE_FLAGS.join(" ")}`);
    const tuned = await withServer(
      () => serveToolrun(service, context.serverCpu, "serve-tuned", LATENCY_NODE_FLAGS),
      (server) => mixedRuns(context, service, server, tunedLabel),
    );
    result.rows.push(tuned.alone.row, tuned.beside.row);
    result.checks.push(tuned.accounting);
    result.notes.push(
      `with node ${LATENCY_NODE_FLAGS.join(" ")}: ${describeMixed(tuned, duration)} (the check above is for Node's defaults)`,
    );
    const { alone, beside, inspected, ...figures } = plain;
    const { alone: tunedAlone, beside: tunedBeside, inspected: tunedInspected, ...tunedFigures } = tuned;
    result.details.mixed = {
      rate: MIXED_CALCULATOR_RATE,
      alone: alone.paced,
      beside: beside.paced,
      inspected,
      ...figures,
      tuned: {
        alone: tunedAlone.paced,
        beside: tunedBeside.paced,
        inspected: tunedInspected,
        ...tunedFigures,
      },
    };
  },
};

export const embeddedCases: readonly BenchCase[] = [
  baseline,
  calculatorSqlite,
  calculatorSqliteWarn,
  peerSqlite,
  inspectorPush,
  inspector1MiB,
  calculatorWithInspector,
];
