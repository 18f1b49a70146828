/**
 * `npm run bench`: starts the baseline and the real service on loopback and drives each case with
 * a load generator in this process, servers pinned to CPU 0 and this process to CPU 1 (taskset).
 * Prints one table with every figure's ratio to the baseline and writes the JSON to --out.
 * Bounded in time: every load run has a duration or a count with a hard stop.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { embeddedCases } from "./cases/embedded.ts";
import { jobCases } from "./cases/jobs.ts";
import { mcpCases } from "./cases/mcp.ts";
import { operatorToolCases } from "./cases/operator-tools.ts";
import { scaleOutCases } from "./cases/scale-out.ts";
import { parseBenchArgs, USAGE } from "./lib/args.ts";
import type { BenchCase } from "./lib/context.ts";
import { findExecutable, pinSelf } from "./lib/procs.ts";
import {
  type CaseResult,
  compare,
  renderChecksAndNotes,
  renderComparisons,
  renderTable,
} from "./lib/report.ts";
import { SkipCase } from "./lib/service.ts";

const ALL: readonly BenchCase[] = [
  ...embeddedCases,
  ...mcpCases,
  ...operatorToolCases,
  ...jobCases,
  ...scaleOutCases,
];

async function main(argv: readonly string[]): Promise<number> {
  const args = parseBenchArgs(argv);
  if (args === "help") {
    process.stdout.write(`${USAGE}\nCases: ${ALL.map((c) => c.name).join(", ")}\n`);
    return 0;
  }
  const selected =
    args.cases === null ? ALL : args.cases.map((name) => ALL.find((c) => c.name === name) ?? name);
  const unknown = selected.filter((c) => typeof c === "string");
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown case(s): ${unknown.join(", ")}. Cases: ${ALL.map((c) => c.name).join(", ")}\n`,
    );
    return 2;
  }
  const cases = selected.filter((c): c is BenchCase => typeof c !== "string");
  const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);

  // Read before pinning: afterwards this process sees only its own CPU.
  const machine = {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    pinning: "",
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
  const taskset = findExecutable("taskset");
  let serverCpu: number | null = null;
  let generatorCpu: number | null = null;
  let pinning: string;
  if (!args.pin) pinning = "off (--no-pin): servers and load generator share every CPU";
  else if (taskset === null) pinning = "off: taskset not found, servers and load generator share every CPU";
  else if (machine.cpus < 2) pinning = "off: only one CPU";
  else if (await pinSelf(1)) {
    serverCpu = 0;
    generatorCpu = 1;
    pinning = "servers on CPU 0, load generator on CPU 1 (taskset); PostgreSQL and Redis not pinned";
  } else pinning = "off: taskset could not pin this process";

  machine.pinning = pinning;
  progress(`${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}; pinning: ${pinning}`);
  const [load1] = machine.loadAverageAtStart;
  if (load1 !== undefined && load1 > 0.5)
    progress(`warning: load average ${load1} before starting; other work on this machine skews the figures`);
  progress(
    `each run ${args.duration} s after ${args.warmup} s warm-up, ${args.connections} connections; soaks: ${args.soak} requests of 1 MiB, ${args.pushSoak} typical pushes`,
  );

  const root = mkdtempSync(join(tmpdir(), "toolrun-bench-"));
  const peaks = new Map<string, number>();
  const results: CaseResult[] = [];
  try {
    for (const benchCase of cases) {
      const result: CaseResult = {
        name: benchCase.name,
        title: benchCase.title,
        status: "ok",
        rows: [],
        checks: [],
        notes: [],
        details: {},
      };
      results.push(result);
      const dir = join(root, benchCase.name);
      mkdirSync(dir);
      progress(`${benchCase.name}: ${benchCase.title}`);
      try {
        await benchCase.run({ options: args, serverCpu, generatorCpu, dir, peaks, progress }, result);
        const first = result.rows[0];
        if (first) peaks.set(benchCase.name, first.rps);
      } catch (error) {
        result.status = error instanceof SkipCase ? "skipped" : "failed";
        result.reason = error instanceof Error ? error.message : String(error);
        progress(`${benchCase.name}: ${result.status}: ${result.reason}`);
      }
    }
  } finally {
    if (args.keep) progress(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }

  const comparisons = compare(results);
  const command = `npm run bench${argv.length > 0 ? ` -- ${argv.join(" ")}` : ""}`;
  const date = new Date().toISOString();
  process.stdout.write(
    [
      "",
      `toolrun bench, ${date}: ${command}`,
      `machine: ${machine.cpus} CPUs, ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}`,
      `pinning: ${pinning}`,
      `load average at start: ${machine.loadAverageAtStart.join(" ")}, at end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
      `runs: ${args.duration} s each after ${args.warmup} s warm-up, ${args.connections} connections; ratios are to the baseline row`,
      "",
      renderTable(results),
      "",
      renderComparisons(comparisons),
      "",
      renderChecksAndNotes(results),
      "",
    ].join("\n"),
  );

  const out = resolve(args.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ date, command, machine, options: args, comparisons, cases: results }, null, 2)}\n`,
  );
  process.stdout.write(`JSON written to ${out}\n`);
  return results.some((r) => r.status === "failed") ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
