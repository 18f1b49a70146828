/**
 * The compute offload: where the CPU work of a large tool call (reading its body, validating it,
 * running the tool, writing its outputs as JSON) runs, so that a 1 MiB call does not hold up the
 * thread that answers every other call. The core decides which calls go and what a task does;
 * an adapter decides where tasks run (adapters/compute: a worker thread, or the same thread for
 * tests), one at a time, owners taking turns, and how many may wait.
 *
 * What answers a task is named by a module (`ComputeRunnerModule`), which the adapter loads where
 * the tasks run; the adapter knows nothing else of tools or of the core.
 */

/** One call's work, as the core asks for it. */
export interface ComputeTask {
  readonly slug: string;
  /** The call's request id, as the tool's run is told it. */
  readonly requestId?: string;
  /** The request body. With `run`, its buffer may be moved to the thread that runs it (left empty here). */
  readonly raw: Uint8Array;
  /** False: stop once the body is read and validated. */
  readonly run: boolean;
  /** Whose call it is (the API key's id): owners take turns, and each may hold only so many tasks. */
  readonly owner: string;
}

/** What a task came to: a refused body, a valid one (not run), the outputs' JSON, or the run's failure. */
export type ComputeAnswer =
  | {
      readonly kind: "refused";
      readonly detail: string;
      /** Each bad field with its message, or one message for the whole body; absent for a body that is not JSON. */
      readonly fields?: Readonly<Record<string, string>> | string;
    }
  | { readonly kind: "valid" }
  | {
      readonly kind: "ran";
      /** JSON the runner wrote, up to `end`, with room after it; moved, not copied, between threads. */
      readonly bytes: Uint8Array;
      readonly end: number;
    }
  | {
      readonly kind: "failed";
      /** The status the refunded call ends with: 422 for a tool's "no answer", else 500. */
      readonly httpStatus: number;
      readonly message: string;
      /** True when `message` says what went wrong in words fit for the client (a timeout, a bad answer). */
      readonly shown?: boolean;
      readonly stack: string | undefined;
    };

/** Answers tasks; built once per thread by a runner module. A tool that waits answers later. */
export type ComputeRunner = (task: ComputeTask) => ComputeAnswer | Promise<ComputeAnswer>;

/** The default export of a runner module: builds the runner from the module's options. */
export type CreateComputeRunner = (options: unknown) => Promise<ComputeRunner>;

/** The module whose default export builds the runner, and its options (structured-cloneable). */
export interface ComputeRunnerModule {
  /** The module's URL. */
  readonly module: string;
  readonly options: unknown;
}

/** What an offload lets wait at most. */
export interface ComputeLimits {
  /** Tasks one owner may have waiting or running at once. */
  readonly perOwner: number;
  /** Tasks that may wait at once, every owner's together (the running one aside). */
  readonly queuedTasks: number;
  /** Bytes of body the waiting tasks may hold together. */
  readonly queuedBytes: number;
}

/**
 * A key's own large calls: one running and one ready to follow it. 32 waiting tasks of the worst
 * case (tens of milliseconds for a 1 MiB inspector call) wait a few seconds at most; 32 MiB is what
 * the queue holds of bodies, however large the tools' body limits are.
 */
export const DEFAULT_COMPUTE_LIMITS: ComputeLimits = {
  perOwner: 2,
  queuedTasks: 32,
  queuedBytes: 32 * 1024 * 1024,
};

export interface ComputeOffload {
  /** Raw bodies of at least this many bytes are worth the trip; smaller ones compute where they are. */
  readonly minBytes: number;
  /**
   * Runs `task` in its owner's turn. A task its owner or the queue has no room for is refused at
   * once with ComputeBusyError. A task still waiting when `signal` aborts (its client has gone)
   * never runs: it rejects with ComputeDroppedError. Rejects with any other error when the task
   * could not run at all (the thread died, the offload is closed).
   */
  compute(task: ComputeTask, signal?: AbortSignal): Promise<ComputeAnswer>;
  /** Stops taking tasks; those still waiting fail. */
  close(): Promise<void>;
}

/** A task dropped before it ran, because its signal aborted while it waited. */
export class ComputeDroppedError extends Error {
  override readonly name = "ComputeDroppedError";
  constructor() {
    super("the task was dropped while it waited: its signal aborted");
  }
}

/** A task refused without waiting: its owner holds as many tasks as it may, or the queue is full. */
export class ComputeBusyError extends Error {
  override readonly name = "ComputeBusyError";
  /** `owner`: the owner's own tasks waiting or running; `queue`: every owner's waiting tasks. */
  readonly reason: "owner" | "queue";
  /** The bound that was reached (tasks). */
  readonly limit: number;
  /** Whole seconds after which a new try has a chance, from how long tasks take now (at least 1). */
  readonly retryAfterS: number;
  constructor(reason: "owner" | "queue", limit: number, retryAfterS: number) {
    super(
      reason === "owner"
        ? `the owner already has ${limit} tasks waiting or running`
        : `the queue holds as many tasks as it may (${limit}, or its bytes)`,
    );
    this.reason = reason;
    this.limit = limit;
    this.retryAfterS = retryAfterS;
  }
}
