/**
 * The compute offload on the thread that asks: the worker's runner, taking the same turns as the
 * worker pool's tasks, run on a microtask. For tests of everything around the offload (which calls
 * go, the answers they get, the order of checks, dropped calls) without the cost of a thread.
 */
import type {
  ComputeAnswer,
  ComputeOffload,
  ComputeRunnerModule,
  ComputeTask,
  CreateComputeRunner,
} from "../../ports/compute-offload.ts";
import { DEFAULT_MIN_OFFLOAD_BYTES } from "./pool.ts";
import { createTurns } from "./turns.ts";

/** A runner as this offload takes it: it may wait (a test holding a task in its turn). */
export type SameThreadRunner = (task: ComputeTask) => ComputeAnswer | Promise<ComputeAnswer>;

export interface SameThreadOffloadOptions {
  /** The runner module the worker pool would load, or a runner of its own. */
  readonly runner: ComputeRunnerModule | SameThreadRunner;
  readonly minBytes?: number;
}

export function createSameThreadOffload(options: SameThreadOffloadOptions): ComputeOffload {
  const { runner } = options;
  let loaded: Promise<SameThreadRunner> | undefined;
  let closed = false;
  const turns = createTurns();
  return {
    minBytes: options.minBytes ?? DEFAULT_MIN_OFFLOAD_BYTES,
    async compute(task, signal) {
      if (closed) throw new Error("the compute offload is closed");
      loaded ??= typeof runner === "function" ? Promise.resolve(runner) : load(runner);
      const run = await loaded;
      await turns.take(signal);
      try {
        // Even a turn taken at once lets the caller go on before the task runs, as a thread would.
        await Promise.resolve();
        return await run(task);
      } finally {
        turns.release();
      }
    },
    async close() {
      closed = true;
      turns.close();
    },
  };
}

async function load(runner: ComputeRunnerModule): Promise<SameThreadRunner> {
  const module = (await import(runner.module)) as { default: CreateComputeRunner };
  return module.default(runner.options);
}
