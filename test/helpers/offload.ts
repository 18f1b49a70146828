/**
 * Compute offloads for tests: the worker's own runner on the test's thread (the same-thread
 * adapter), watched, with tasks that a test can hold until it lets them go, so that the order of
 * events around the offload is set by the test rather than by timing.
 */
import type { TestContext } from "node:test";
import { createSameThreadOffload } from "../../src/adapters/compute/same-thread.ts";
import createRunner, { computeRunner, type RunnerTools } from "../../src/core/call/compute-runner.ts";
import type { ComputeAnswer, ComputeOffload, ComputeTask } from "../../src/ports/compute-offload.ts";

/** The fixture tools (fixture-tools.ts), as the runner finds them. */
export const FIXTURE_TOOLS: RunnerTools = {
  module: new URL("./fixture-tools.ts", import.meta.url).href,
  export: "fixtureTools",
};

/** The runner module of the fixture tools, for an offload that loads it (the worker pool). */
export const fixtureRunner = computeRunner(FIXTURE_TOOLS);

/** A task as a test names it: `run {"value":1}` or `validate {"value":1}`. */
export function taskName(task: ComputeTask): string {
  return `${task.run ? "run" : "validate"} ${Buffer.from(task.raw).toString("utf8")}`;
}

/** A point a matching task stops at until the test opens it. */
export interface Gate {
  /** Resolves once a matching task has stopped here. */
  readonly reached: Promise<void>;
  open(): void;
}

export interface WatchedOffload extends ComputeOffload {
  /** Every task asked for, in order (taskName). */
  readonly asked: string[];
  /** Every task the runner answered, in order (taskName). */
  readonly answered: string[];
  /**
   * Stops the first task matching `match` until the gate opens: `before-turn` before it waits for
   * its turn (it holds nothing), `in-turn` once its turn came (every task after it waits).
   */
  hold(where: "before-turn" | "in-turn", match: (task: ComputeTask) => boolean): Gate;
  /** Resolves once a task was dropped (its client had gone) while it waited for its turn. */
  readonly dropped: Promise<void>;
}

/** The fixture tools' runner on this thread, watched; every call goes to it, however small. */
export function watchedOffload(t: TestContext, tools: RunnerTools = FIXTURE_TOOLS): WatchedOffload {
  const asked: string[] = [];
  const answered: string[] = [];
  const gates: { where: string; match: (task: ComputeTask) => boolean; stop: () => Promise<void> }[] = [];
  const dropped = Promise.withResolvers<void>();
  const runner = createRunner(tools);
  const stopAt = async (where: string, task: ComputeTask) => {
    const index = gates.findIndex((gate) => gate.where === where && gate.match(task));
    if (index === -1) return;
    const [gate] = gates.splice(index, 1);
    await gate?.stop();
  };
  const inner = createSameThreadOffload({
    minBytes: 0,
    runner: async (task): Promise<ComputeAnswer> => {
      await stopAt("in-turn", task);
      const answer = (await runner)(task);
      answered.push(taskName(task));
      return answer;
    },
  });
  t.after(() => inner.close());
  return {
    minBytes: inner.minBytes,
    asked,
    answered,
    dropped: dropped.promise,
    async compute(task, signal) {
      asked.push(taskName(task));
      await stopAt("before-turn", task);
      return inner.compute(task, signal).catch((error: unknown) => {
        if (error instanceof Error && error.name === "ComputeDroppedError") dropped.resolve();
        throw error;
      });
    },
    close: () => inner.close(),
    hold(where, match) {
      const reached = Promise.withResolvers<void>();
      const opened = Promise.withResolvers<void>();
      gates.push({
        where,
        match,
        stop: () => {
          reached.resolve();
          return opened.promise;
        },
      });
      return { reached: reached.promise, open: () => opened.resolve() };
    },
  };
}
