/**
 * One task at a time, first come first served, and a task still waiting can leave (its signal
 * aborts). Written here rather than with p-queue: its `signal` also frees the slot of a task
 * already running, which would let the next one start beside it.
 */
import {
  type ComputeAnswer,
  ComputeDroppedError,
  type ComputeOffload,
  type ComputeTask,
} from "../../ports/compute-offload.ts";

export interface Turns {
  /** Resolves when it is the caller's turn; rejects with ComputeDroppedError if `signal` aborts first. */
  take(signal?: AbortSignal): Promise<void>;
  /** Ends the current turn: the next waiting caller's starts. */
  release(): void;
  /** Fails every caller still waiting. */
  close(): void;
}

export function createTurns(): Turns {
  let busy = false;
  const waiting: { readonly start: () => void; readonly fail: (error: Error) => void }[] = [];
  return {
    take(signal) {
      if (signal?.aborted) return Promise.reject(new ComputeDroppedError());
      if (!busy) {
        busy = true;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          waiting.splice(waiting.indexOf(turn), 1);
          reject(new ComputeDroppedError());
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
    release() {
      const next = waiting.shift();
      if (next) next.start();
      else busy = false;
    },
    close() {
      for (const turn of waiting.splice(0)) turn.fail(new Error("the compute offload is closed"));
    },
  };
}

/** An offload whose tasks `run` answers one at a time, in turns; `stop` ends what runs them. */
export function offloadInTurns(
  minBytes: number,
  run: (task: ComputeTask) => Promise<ComputeAnswer>,
  stop: () => Promise<void>,
): ComputeOffload {
  const turns = createTurns();
  let closed = false;
  const refuseClosed = () => {
    if (closed) throw new Error("the compute offload is closed");
  };
  return {
    minBytes,
    async compute(task, signal) {
      refuseClosed();
      await turns.take(signal);
      try {
        refuseClosed();
        return await run(task);
      } finally {
        turns.release();
      }
    },
    async close() {
      closed = true;
      turns.close();
      await stop();
    },
  };
}
