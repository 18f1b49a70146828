/**
 * One task at a time, shared fairly and bounded. Tasks wait in one queue per owner (the key whose
 * call it is), and owners take turns: the next task to run is the oldest of the owner whose turn
 * is next, so a key that queued many calls delays another key's call by one of its own at most.
 * What waits is bounded: an owner holds at most `perOwner` tasks waiting or running, and all the
 * waiting tasks together at most `queuedTasks` tasks and `queuedBytes` bytes of body. A task past
 * a bound is refused at once (ComputeBusyError, with a wait worth trying again after), never
 * queued. A task still waiting can leave (its signal aborts).
 *
 * Written here rather than with p-queue: its `signal` also frees the slot of a task already
 * running, which would let the next one start beside it, and it has no turns between owners.
 */
import {
  type ComputeAnswer,
  ComputeBusyError,
  ComputeDroppedError,
  type ComputeLimits,
  type ComputeOffload,
  type ComputeTask,
  DEFAULT_COMPUTE_LIMITS,
} from "../../ports/compute-offload.ts";

/** Suggested waits are at least this, and at most the second figure, in seconds. */
const MIN_RETRY_S = 1;
const MAX_RETRY_S = 60;
/** The typical task time before any task has run, and the weight of each new one in the average. */
const FIRST_ESTIMATE_MS = 100;
const AVERAGE_WEIGHT = 0.2;

export interface Turns {
  /**
   * Resolves when it is the task's turn. Rejects with ComputeBusyError past a bound, with
   * ComputeDroppedError if `signal` aborts first.
   */
  take(owner: string, bytes: number, signal?: AbortSignal): Promise<void>;
  /** Ends the current turn (the owner's task is done): the next owner's starts. */
  release(owner: string): void;
  /** Fails every caller still waiting. */
  close(): void;
}

interface Waiting {
  readonly owner: string;
  readonly bytes: number;
  readonly start: () => void;
  readonly fail: (error: Error) => void;
}

export function createTurns(limits: ComputeLimits = DEFAULT_COMPUTE_LIMITS): Turns {
  let busy = false;
  let startedAt = 0;
  let averageMs = FIRST_ESTIMATE_MS;
  /** Each owner's tasks waiting or running. */
  const held = new Map<string, number>();
  /** Each owner's waiting tasks, oldest first; the map's order is the order of their turns. */
  const queues = new Map<string, Waiting[]>();
  let waitingTasks = 0;
  let waitingBytes = 0;

  const hold = (owner: string, change: number) => {
    const count = (held.get(owner) ?? 0) + change;
    if (count === 0) held.delete(owner);
    else held.set(owner, count);
  };
  const unqueue = (task: Waiting) => {
    waitingTasks -= 1;
    waitingBytes -= task.bytes;
  };
  /** What one more task behind those waiting now would wait, in whole seconds. */
  const retryAfterS = () =>
    Math.min(MAX_RETRY_S, Math.max(MIN_RETRY_S, Math.ceil((averageMs * (waitingTasks + 1)) / 1000)));
  const start = () => {
    busy = true;
    startedAt = performance.now();
  };

  return {
    take(owner, bytes, signal) {
      if (signal?.aborted) return Promise.reject(new ComputeDroppedError());
      if ((held.get(owner) ?? 0) >= limits.perOwner)
        return Promise.reject(new ComputeBusyError("owner", limits.perOwner, retryAfterS()));
      if (!busy) {
        hold(owner, 1);
        start();
        return Promise.resolve();
      }
      if (waitingTasks >= limits.queuedTasks || waitingBytes + bytes > limits.queuedBytes)
        return Promise.reject(new ComputeBusyError("queue", limits.queuedTasks, retryAfterS()));
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const queue = queues.get(owner) ?? [];
          queue.splice(queue.indexOf(task), 1);
          if (queue.length === 0) queues.delete(owner);
          unqueue(task);
          hold(owner, -1);
          reject(new ComputeDroppedError());
        };
        const task: Waiting = {
          owner,
          bytes,
          start: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
          fail: (error: Error) => {
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
        };
        const queue = queues.get(owner);
        if (queue) queue.push(task);
        else queues.set(owner, [task]);
        waitingTasks += 1;
        waitingBytes += bytes;
        hold(owner, 1);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    release(owner) {
      averageMs += AVERAGE_WEIGHT * (performance.now() - startedAt - averageMs);
      hold(owner, -1);
      busy = false;
      // Its turn just ended: the owners waiting behind it go first.
      const mine = queues.get(owner);
      if (mine) {
        queues.delete(owner);
        queues.set(owner, mine);
      }
      const next = queues.entries().next();
      if (next.done) return;
      const [nextOwner, queue] = next.value;
      const task = queue.shift() as Waiting;
      // The owner's turn is over: its remaining tasks wait behind every other owner's.
      queues.delete(nextOwner);
      if (queue.length > 0) queues.set(nextOwner, queue);
      unqueue(task);
      start();
      task.start();
    },
    close() {
      for (const queue of queues.values())
        for (const task of queue) task.fail(new Error("the compute offload is closed"));
      queues.clear();
    },
  };
}

/** An offload whose tasks `run` answers one at a time, in turns; `stop` ends what runs them. */
export function offloadInTurns(
  minBytes: number,
  run: (task: ComputeTask) => Promise<ComputeAnswer>,
  stop: () => Promise<void>,
  limits: ComputeLimits = DEFAULT_COMPUTE_LIMITS,
): ComputeOffload {
  const turns = createTurns(limits);
  let closed = false;
  const refuseClosed = () => {
    if (closed) throw new Error("the compute offload is closed");
  };
  return {
    minBytes,
    async compute(task, signal) {
      refuseClosed();
      await turns.take(task.owner, task.raw.byteLength, signal);
      try {
        refuseClosed();
        return await run(task);
      } finally {
        turns.release(task.owner);
      }
    },
    async close() {
      closed = true;
      turns.close();
      await stop();
    },
  };
}
