/**
 * The compute offload (core/offload.ts) on worker threads, pooled by piscina: one worker by
 * default, started on the first large call and kept. Its thread runs at a lower priority (nice)
 * than the main thread, so that where both share a CPU, the main thread's small calls preempt a
 * large call's compute instead of queueing behind it. So do V8's helper threads, which run the
 * worker's garbage collection (and the background part of the main thread's): at the main
 * thread's priority, a worker's collection would take the CPU from it as much as its compute.
 *
 * Calls wait for the worker here, first come first served, not in piscina's queue: a call whose
 * client has gone (its `signal` aborts) while it waits is dropped there without running, which
 * piscina can only do by stopping the worker once the call has started. Written here rather than
 * with p-queue: its `signal` also frees the slot of a call already running, which would let the
 * next call start beside it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { Piscina } from "piscina";
import { type ComputeOffload, clientGone, type OffloadedCall } from "../core/offload.ts";

/** Below this a call's compute costs less than the trip to a worker and back. */
export const DEFAULT_MIN_OFFLOAD_BYTES = 64 * 1024;
const WORKER_NICE_INCREMENT = 10;

export interface ComputeTask {
  readonly slug: string;
  readonly raw: Uint8Array;
  readonly run: boolean;
}

export interface WorkerData {
  /** URL of the module whose export `toolsExport` lists the tools the service runs. */
  readonly toolsModule: string;
  readonly toolsExport: string;
}

export interface ComputePoolOptions {
  /** Default: src/tools/index.ts, `tools`. */
  readonly tools?: WorkerData;
  readonly minBytes?: number;
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

export function createComputePool(options: ComputePoolOptions = {}): ComputeOffload {
  const workerData: WorkerData = options.tools ?? {
    toolsModule: new URL("../tools/index.ts", import.meta.url).href,
    toolsExport: "tools",
  };
  let pool: Piscina<ComputeTask, OffloadedCall> | undefined;
  let closed = false;
  const turns = createTurns();
  return {
    minBytes: options.minBytes ?? DEFAULT_MIN_OFFLOAD_BYTES,
    async call(slug, raw, run, signal) {
      if (closed) throw new Error("the compute pool is closed");
      await turns.take(signal);
      try {
        return await runOnWorker(slug, raw, run);
      } finally {
        turns.release();
      }
    },
    async close() {
      closed = true;
      turns.close();
      await pool?.destroy();
    },
  };

  function runOnWorker(slug: string, raw: Uint8Array, run: boolean): Promise<OffloadedCall> {
    if (closed) throw new Error("the compute pool is closed");
    if (!pool) lowerHelperThreads();
    pool ??= new Piscina({
      filename: new URL("./worker.ts", import.meta.url).href,
      workerData,
      // One: on the two-CPU machines this serves, more would only take more from the main thread.
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Number.POSITIVE_INFINITY,
      niceIncrement: WORKER_NICE_INCREMENT,
    });
    // A body that is a whole buffer of its own moves to the worker instead of being copied; one
    // that may still be parsed here (run: false) stays.
    const whole = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength;
    const transferList = run && whole && raw.buffer instanceof ArrayBuffer ? [raw.buffer] : [];
    return pool.run({ slug, raw, run }, { transferList });
  }
}

/** The worker's turns: one call at a time, in the order they came; a waiting call can leave. */
function createTurns() {
  let busy = false;
  const waiting: { readonly start: () => void; readonly fail: (error: Error) => void }[] = [];
  return {
    take(signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) return Promise.reject(clientGone());
      if (!busy) {
        busy = true;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          waiting.splice(waiting.indexOf(turn), 1);
          reject(clientGone());
        };
        const turn = {
          start: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
          fail: (error: Error) => {
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
        };
        waiting.push(turn);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    release(): void {
      const next = waiting.shift();
      if (next) next.start();
      else busy = false;
    },
    close(): void {
      for (const turn of waiting.splice(0)) turn.fail(new Error("the compute pool is closed"));
    },
  };
}
