/**
 * The jobs this instance runs (core/call/jobs.ts runs them): the name it holds their leases under,
 * and the controller whose signal each one's cancel fires. Apart from the runner so that CoreDeps
 * holds it without reaching the call path.
 */
import { randomUUID } from "node:crypto";
import { createLane, type Lane } from "./lane.ts";

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
  /** @internal the runner's bookkeeping */
  track(id: string, controller: AbortController, ended: Promise<void>): void;
}

export function createJobsInFlight(leaseMs: number): JobsInFlight {
  const running = new Map<string, { controller: AbortController; ended: Promise<void> }>();
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
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running.values()].map((job) => job.ended));
    },
    track(id, controller, ended) {
      running.set(id, { controller, ended });
      void ended.finally(() => running.delete(id));
    },
  };
}
