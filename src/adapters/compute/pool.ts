/**
 * The compute offload on a worker thread, pooled by piscina: one worker, started on the first task
 * and kept. Its thread runs at a lower priority (nice) than the main thread, so that where both
 * share a CPU, the main thread's small calls preempt a large call's compute instead of queueing
 * behind it. So do V8's helper threads, which run the worker's garbage collection (and the
 * background part of the main thread's): at the main thread's priority, a worker's collection
 * would take the CPU from it as much as its compute.
 *
 * Tasks wait for the worker here (turns.ts), not in piscina's queue: keys take turns there, what
 * waits is bounded, and a task whose client has gone while it waits is dropped without running,
 * which piscina can only do by stopping the worker once the task has started.
 */
import { readdirSync, readFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { Piscina } from "piscina";
import type {
  ComputeAnswer,
  ComputeLimits,
  ComputeOffload,
  ComputeRunnerModule,
  ComputeTask,
} from "../../ports/compute-offload.ts";
import { offloadInTurns } from "./turns.ts";

/** Below this a call's compute costs less than the trip to a worker and back. */
export const DEFAULT_MIN_OFFLOAD_BYTES = 64 * 1024;
const WORKER_NICE_INCREMENT = 10;

export interface ComputePoolOptions {
  /** What answers the tasks, loaded in the worker. */
  readonly runner: ComputeRunnerModule;
  readonly minBytes?: number;
  /** What may wait for the worker (default DEFAULT_COMPUTE_LIMITS). */
  readonly limits?: ComputeLimits;
}

/**
 * Lowers V8's helper threads of this process to the workers' priority (Linux, where a thread has
 * its own nice value; elsewhere, or without /proc, nothing changes).
 */
function lowerHelperThreads(): void {
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return;
  }
  const target = Math.min(19, getPriority(process.pid) + WORKER_NICE_INCREMENT);
  for (const tid of tids) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() !== "V8Worker") continue;
      const id = Number(tid);
      if (getPriority(id) < target) setPriority(id, target);
    } catch {
      // Gone, or not ours to change: it keeps its priority.
    }
  }
}

export function createComputePool(options: ComputePoolOptions): ComputeOffload {
  let pool: Piscina<ComputeTask, ComputeAnswer> | undefined;
  const runOnWorker = (task: ComputeTask): Promise<ComputeAnswer> => {
    if (!pool) lowerHelperThreads();
    pool ??= new Piscina({
      filename: new URL("./worker.ts", import.meta.url).href,
      workerData: options.runner,
      // One: on the two-CPU machines this serves, more would only take more from the main thread.
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Number.POSITIVE_INFINITY,
      niceIncrement: WORKER_NICE_INCREMENT,
    });
    // A body that is a whole buffer of its own moves to the worker instead of being copied; one
    // that may still be read here (run: false) stays.
    const { raw } = task;
    const whole = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength;
    const transferList = task.run && whole && raw.buffer instanceof ArrayBuffer ? [raw.buffer] : [];
    return pool.run(task, { transferList });
  };
  return offloadInTurns(
    options.minBytes ?? DEFAULT_MIN_OFFLOAD_BYTES,
    runOnWorker,
    async () => {
      await pool?.destroy();
    },
    options.limits,
  );
}
