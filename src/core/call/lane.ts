/**
 * A lane for background work that should run in the event loop's spare time: a job's ending (its
 * charge, its row, its event) waits here until the loop has been idle since the lane last looked,
 * that is, until it has caught up with the requests that arrived. Node has no priorities of its
 * own: without the lane, 500 jobs whose upstreams answer in the same instant run their endings
 * back to back, and every request read meanwhile waits behind them (docs/benchmarks.md, "Jobs
 * under load"). A loop that is never idle still ends its jobs: one every `busyEveryMs`.
 * Written here because no queue library yields to the loop's idle time; it is a timer and
 * `performance.eventLoopUtilization`.
 */
import { performance } from "node:perf_hooks";

export interface Lane {
  /** Resolves when the piece may run, with the function that frees its place (once). */
  enter(): Promise<() => void>;
}

export interface LaneOptions {
  /** How many pieces run at once. */
  readonly width: number;
  /** How often a piece runs anyway while the loop is never idle. */
  readonly busyEveryMs: number;
}

type Waiting = (leave: () => void) => void;

export function createLane({ width, busyEveryMs }: LaneOptions): Lane {
  let inside = 0;
  const waiting: Waiting[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seen = performance.eventLoopUtilization();
  let lastRun = performance.now();

  const admit = (next: Waiting) => {
    inside++;
    lastRun = performance.now();
    let left = false;
    next(() => {
      if (left) return;
      left = true;
      inside--;
      schedule();
    });
  };
  // A timer, not setImmediate: a pending immediate keeps the loop from waiting for I/O at all,
  // so it would never look idle.
  const look = () => {
    timer = undefined;
    const now = performance.eventLoopUtilization();
    const idle = now.idle > seen.idle;
    seen = now;
    if (idle) while (inside < width && waiting.length > 0) admit(waiting.shift() as Waiting);
    else if (inside < width && performance.now() - lastRun >= busyEveryMs) admit(waiting.shift() as Waiting);
    schedule();
  };
  const schedule = () => {
    if (timer !== undefined || waiting.length === 0 || inside >= width) return;
    timer = setTimeout(look, 1);
  };

  return {
    enter: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
        schedule();
      }),
  };
}
