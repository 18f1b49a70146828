/**
 * One measured load run turned into a report row: a probe request that must answer 2xx first, a
 * warm-up that is not reported, then the run with the servers' memory and CPU read around it.
 */
import { type LoadOptions, type LoadResult, runLoad } from "./load.ts";
import { measured, type Usage } from "./measure.ts";
import { type PacedOptions, type PacedResult, runPaced } from "./paced.ts";
import type { Row } from "./report.ts";

export interface Target {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One request; throws with the status and the start of the body unless it is 2xx. */
export async function probe(target: Target): Promise<unknown> {
  const init: RequestInit = { method: target.method, headers: target.headers };
  if (target.body !== undefined) init.body = target.body;
  const response = await fetch(target.url, init);
  const text = await response.text();
  if (!response.ok)
    throw new Error(
      `probe ${target.method} ${target.url} answered ${response.status}: ${text.slice(0, 400)}`,
    );
  return JSON.parse(text) as unknown;
}

export async function warmUp(target: Target, connections: number, seconds: number): Promise<void> {
  if (seconds > 0) await runLoad({ ...target, connections, duration: seconds });
}

/** The paced generator's own warm-up: its code compiled and its connection pool grown before it measures. */
export async function warmUpPaced(target: Target, rate: number, seconds: number): Promise<void> {
  if (seconds > 0) await runPaced({ ...target, rate, durationS: seconds });
}

function usageColumns(usage: Usage, requests: number) {
  return {
    serverCpuUsPerRequest:
      usage.serverCpuSeconds === null || requests === 0 ? null : (usage.serverCpuSeconds / requests) * 1e6,
    allCpuUsPerRequest:
      usage.serverCpuSeconds === null || usage.backendCpuSeconds === null || requests === 0
        ? null
        : ((usage.serverCpuSeconds + usage.backendCpuSeconds) / requests) * 1e6,
    rssBeforeKiB: usage.rssBeforeKiB,
    rssAfterKiB: usage.rssAfterKiB,
    rssPeakKiB: usage.rssPeakKiB,
    serverCpuPercent: usage.serverCpuPercent,
    loadCpuPercent: usage.loadCpuPercent,
    otherCpuPercent: usage.otherCpuPercent,
  };
}

export async function loadRow(
  label: string,
  pids: readonly number[],
  options: LoadOptions,
  hardStopS?: number,
): Promise<{ row: Row; load: LoadResult; usage: Usage }> {
  const { result: load, usage } = await measured(pids, () => runLoad(options, hardStopS));
  const row: Row = {
    label,
    rps: load.rps,
    requests: load.requests,
    p50: load.latencyMs.p50,
    p99: load.latencyMs.p99,
    max: load.latencyMs.max,
    non2xx: load.non2xx,
    errors: load.errors + load.timeouts,
    ...usageColumns(usage, load.requests),
    load:
      options.overallRate === undefined
        ? `autocannon, ${options.connections} connections`
        : `autocannon overallRate ${options.overallRate}/s, ${options.connections} connections (bursts)`,
  };
  return { row, load, usage };
}

export async function pacedRow(
  label: string,
  pids: readonly number[],
  options: PacedOptions,
): Promise<{ row: Row; paced: PacedResult }> {
  const { result: paced, usage } = await measured(pids, () => runPaced(options));
  const row: Row = {
    label,
    rps: paced.achievedRate,
    requests: paced.requests,
    p50: paced.latencyMs.p50,
    p99: paced.latencyMs.p99,
    max: paced.latencyMs.max,
    non2xx: paced.non2xx,
    errors: paced.errors,
    ...usageColumns(usage, paced.requests),
    load: `paced open loop at ${options.rate}/s over ${paced.connections} keep-alive connections`,
  };
  return { row, paced };
}
