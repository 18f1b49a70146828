/**
 * The jobs this instance runs (core/call/jobs.ts runs them): the name it holds their leases under,
 * the controller whose signal each one's cancel fires, and their drain when the instance stops.
 * Apart from the runner so that CoreDeps holds it without reaching the call path.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createLane, type Lane } from "./lane.ts";

/**
 * The reason a job's signal fires with when its instance stops: the job ends `failed`, its credits
 * released, unlike a cancel (whose row already says `canceled`).
 */
export const INSTANCE_STOPPING = new Error("The instance running the job is stopping.");

/** How long the jobs stopped at the shutdown bound have to end, once their signal fired. */
const STOPPED_GRACE_MS = 5_000;

/** How jobs end on an instance (their charge, their row, their event): a few at once, in spare time. */
const ENDINGS = { width: 4, busyEveryMs: 10 };

/** The jobs this instance runs: their lease, and the signal each one's cancel fires. */
export interface JobsInFlight {
  /** This instance's name on the leases it holds. */
  readonly owner: string;
  /** How long a lease holds unless renewed (the abandon time). */
  readonly leaseMs: number;
  /** The lane a job's ending waits in, so that a burst of endings does not hold up requests. */
  readonly endings: Lane;
  /** Fires the tool's signal of a job running here; false when it runs elsewhere or not at all. */
  abort(id: string): boolean;
  /** Resolves once no job runs here (tests, and a server that stops). */
  idle(): Promise<void>;
  /**
   * Lets the jobs running here end within `boundMs`; past it, fires the signal of those left
   * (INSTANCE_STOPPING: each ends failed, its credits released) and waits a few seconds more for
   * their endings. Says how many were stopped, and how many still ran after that (their leases
   * lapse, and the sweep of any instance ends them).
   */
  drain(boundMs: number): Promise<{ stopped: number; left: number }>;
  /** @internal the runner's bookkeeping */
  track(id: string, controller: AbortController, ended: Promise<void>): void;
}

export function createJobsInFlight(leaseMs: number): JobsInFlight {
  const running = new Map<string, { controller: AbortController; ended: Promise<void> }>();
  const idle = async () => {
    while (running.size > 0) await Promise.allSettled([...running.values()].map((job) => job.ended));
  };
  /** Whether every job here ended within `ms`. */
  const idleWithin = async (ms: number) => {
    const timer = new AbortController();
    const done = await Promise.race([
      idle().then(() => true),
      sleep(ms, false, { signal: timer.signal }).catch(() => false),
    ]);
    timer.abort();
    return done;
  };
  return {
    owner: `inst_${randomUUID()}`,
    leaseMs,
    endings: createLane(ENDINGS),
    abort(id) {
      const job = running.get(id);
      if (job === undefined) return false;
      job.controller.abort();
      return true;
    },
    idle,
    async drain(boundMs) {
      if (running.size === 0 || (await idleWithin(boundMs))) return { stopped: 0, left: 0 };
      const stopped = running.size;
      for (const job of running.values()) job.controller.abort(INSTANCE_STOPPING);
      await idleWithin(STOPPED_GRACE_MS);
      return { stopped, left: running.size };
    },
    track(id, controller, ended) {
      running.set(id, { controller, ended });
      void ended.finally(() => running.delete(id));
    },
  };
}
