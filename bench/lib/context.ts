/**
 * What every case receives: the run's options, where servers go (a CPU, or null when unpinned),
 * a private temporary directory, and the peak rates of cases already run.
 */
import type { CaseResult } from "./report.ts";

export interface BenchOptions {
  /** Seconds of each measured run. */
  readonly duration: number;
  /** Seconds of unreported load before each measured run. */
  readonly warmup: number;
  readonly connections: number;
  /** Requests of the inspector's 1 MiB soak (one connection). */
  readonly soak: number;
  /** Requests of the inspector's soak on the typical push (all connections). */
  readonly pushSoak: number;
  readonly postgresAdminUrl: string;
  readonly redisUrl: string;
  /** Where toolrun servers write V8 CPU profiles; null for none. */
  readonly cpuProfDir: string | null;
  /** calculator-sqlite without its half-rate runs (`--peak-only`). */
  readonly peakOnly: boolean;
  /** Node flags every toolrun server starts with (`--node-flags`). */
  readonly nodeFlags: readonly string[];
}

export interface BenchContext {
  readonly options: BenchOptions;
  /** The CPU the servers are pinned to; null when taskset is missing. */
  readonly serverCpu: number | null;
  /** The CPU the load generator (this process) is pinned to; null when nothing is pinned. */
  readonly generatorCpu: number | null;
  /** A directory of its own for this case, removed after the run. */
  readonly dir: string;
  /** Peak requests per second of the cases run so far, by case name. */
  readonly peaks: ReadonlyMap<string, number>;
  progress(line: string): void;
}

export interface BenchCase {
  readonly name: string;
  readonly title: string;
  run(context: BenchContext, result: CaseResult): Promise<void>;
}
