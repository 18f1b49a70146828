/**
 * The compute offload on the thread that asks: the worker's runner, taking the same turns as the
 * worker pool's tasks, run once the caller has gone on. For tests of everything around the offload
 * (which calls go, the answers they get, the order of checks, dropped calls) without the cost of a
 * thread.
 */
import type {
  ComputeAnswer,
  ComputeLimits,
  ComputeOffload,
  ComputeRunnerModule,
  ComputeTask,
  CreateComputeRunner,
} from "../../ports/compute-offload.ts";
import { DEFAULT_MIN_OFFLOAD_BYTES } from "./pool.ts";
import { offloadInTurns } from "./turns.ts";

/** A runner as this offload takes it: it may wait (a test holding a task in its turn). */
export type SameThreadRunner = (task: ComputeTask) => ComputeAnswer | Promise<ComputeAnswer>;

export interface SameThreadOffloadOptions {
  /** The runner module the worker pool would load, or a runner of its own. */
  readonly runner: ComputeRunnerModule | SameThreadRunner;
  readonly minBytes?: number;
  /** What may wait for a turn (default DEFAULT_COMPUTE_LIMITS, as on the worker pool). */
  readonly limits?: ComputeLimits;
}

export function createSameThreadOffload(options: SameThreadOffloadOptions): ComputeOffload {
  const { runner } = options;
  let loaded: Promise<SameThreadRunner> | undefined;
  const runHere = async (task: ComputeTask): Promise<ComputeAnswer> => {
    loaded ??= typeof runner === "function" ? Promise.resolve(runner) : load(runner);
    const run = await loaded;
    return run(task);
  };
  return offloadInTurns(
    options.minBytes ?? DEFAULT_MIN_OFFLOAD_BYTES,
    runHere,
    async () => {},
    options.limits,
  );
}

async function load(runner: ComputeRunnerModule): Promise<SameThreadRunner> {
  const module = (await import(runner.module)) as { default: CreateComputeRunner };
  return module.default(runner.options);
}
