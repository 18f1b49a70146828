/**
 * What the bench reads off the server processes around a load run: resident memory (VmRSS) before,
 * during and after, and the CPU time they used, from /proc (Linux); null where /proc is missing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { rssKiB } from "./procs.ts";

/** Linux reports utime and stime in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The backends' process names, as in /proc/<pid>/comm: PostgreSQL's postmaster and backends, Redis. */
const BACKEND_COMMANDS = new Set(["postgres", "redis-server"]);

/**
 * CPU seconds used so far by each PostgreSQL and Redis process, by pid: a call's cost on the
 * backends' side, whoever else uses them (on a shared machine other work's queries count too).
 */
function backendCpu(): Map<number, number> {
  const seconds = new Map<number, number>();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return seconds;
  }
  for (const pid of pids) {
    try {
      if (!BACKEND_COMMANDS.has(readFileSync(`/proc/${pid}/comm`, "utf8").trim())) continue;
    } catch {
      continue;
    }
    const cpu = cpuSeconds(Number(pid));
    if (cpu !== null) seconds.set(Number(pid), cpu);
  }
  return seconds;
}

/** CPU the backends used between two readings; a process born in between counts from zero. */
function backendCpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

/** CPU seconds every process on the machine spent busy so far (all CPUs), from /proc/stat. */
function machineBusySeconds(): number | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
    const ticks = line.split(/\s+/).slice(1, 9).map(Number);
    // user nice system idle iowait irq softirq steal
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return (ticks.reduce((a, b) => a + b, 0) - idle) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

export interface Usage {
  /** Sum over the processes, KiB. */
  readonly rssBeforeKiB: number | null;
  readonly rssAfterKiB: number | null;
  readonly rssPeakKiB: number | null;
  /** Every sample taken during the run: [seconds since start, KiB]. */
  readonly rssSamples: readonly (readonly [number, number])[];
  /** CPU used by the server processes during the run, as a share of one core (100 = one core busy). */
  readonly serverCpuPercent: number | null;
  /** CPU seconds the server processes used during the run. */
  readonly serverCpuSeconds: number | null;
  /**
   * CPU seconds PostgreSQL's and Redis's processes used during the run (those that exited during it
   * are missed); null without /proc.
   */
  readonly backendCpuSeconds: number | null;
  /** CPU used by this process (the load generator) during the run, as a share of one core. */
  readonly loadCpuPercent: number;
  /**
   * CPU used by every other process during the run (PostgreSQL and Redis included), as a share of
   * one core: work of others on a shared machine shows up here.
   */
  readonly otherCpuPercent: number | null;
}

const sum = (values: readonly (number | null)[]): number | null =>
  values.some((v) => v === null) ? null : values.reduce<number>((s, v) => s + (v ?? 0), 0);

/** Runs `work` while sampling the servers' RSS every `sampleMs`. */
export async function measured<T>(
  pids: readonly number[],
  work: () => Promise<T>,
  sampleMs = 1000,
): Promise<{ result: T; usage: Usage }> {
  const rssBefore = sum(pids.map(rssKiB));
  const cpuBefore = sum(pids.map(cpuSeconds));
  const ownBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const backendsBefore = backendCpu();
  const start = performance.now();
  const samples: [number, number][] = [];
  const sampler = setInterval(() => {
    const rss = sum(pids.map(rssKiB));
    if (rss !== null) samples.push([Math.round(performance.now() - start) / 1000, rss]);
  }, sampleMs);
  try {
    const result = await work();
    const elapsedS = (performance.now() - start) / 1000;
    const rssAfter = sum(pids.map(rssKiB));
    const cpuAfter = sum(pids.map(cpuSeconds));
    const own = process.cpuUsage(ownBefore);
    const machineAfter = machineBusySeconds();
    const backendsAfter = backendCpu();
    const percent = (seconds: number) => Math.round((seconds / elapsedS) * 100);
    const peak = Math.max(rssBefore ?? 0, rssAfter ?? 0, ...samples.map(([, kib]) => kib));
    return {
      result,
      usage: {
        rssBeforeKiB: rssBefore,
        rssAfterKiB: rssAfter,
        rssPeakKiB: rssBefore === null ? null : peak,
        rssSamples: samples,
        serverCpuPercent: cpuBefore === null || cpuAfter === null ? null : percent(cpuAfter - cpuBefore),
        serverCpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
        backendCpuSeconds: machineAfter === null ? null : backendCpuBetween(backendsBefore, backendsAfter),
        loadCpuPercent: percent((own.user + own.system) / 1e6),
        otherCpuPercent:
          machineBefore === null || machineAfter === null || cpuBefore === null || cpuAfter === null
            ? null
            : Math.max(
                0,
                percent(
                  machineAfter - machineBefore - (cpuAfter - cpuBefore) - (own.user + own.system) / 1e6,
                ),
              ),
      },
    };
  } finally {
    clearInterval(sampler);
  }
}
