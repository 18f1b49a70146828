/**
 * Every periodic job of a running server, in one list: what a stopped process left pending, and
 * what can no longer be used. Each instance runs them all; every job is safe to run on several
 * instances at once (the store's statements make them so). Adding a job is one entry in `jobs`.
 */
import type { Config } from "./config.ts";
import type { CoreDeps } from "./core/call/deps.ts";
import { SchemaNotReadyError } from "./ports/errors.ts";

/** How often a sweep for abandoned calls runs, at most (half the abandon time when that is shorter). */
const SWEEP_EVERY_MS = 30_000;
/** How often expired codes, tokens, ended authorizations and expired member sessions are removed. */
const OAUTH_PURGE_EVERY_MS = 10 * 60 * 1000;

/** Where a job's failure, and what a job found worth saying, is written (the app's logger). */
export interface WarningLog {
  warn(details: object, message: string): void;
}

export interface Job {
  /** What the job does, as the log names it when it fails. */
  readonly name: string;
  readonly everyMs: number;
  /** Runs once as the server starts too, not only after its first interval. */
  readonly atStart: boolean;
  run(): Promise<void>;
}

/** The jobs of a server with this configuration. */
export function jobs(
  config: Pick<Config, "callAbandonS" | "oauth"> & Partial<Pick<Config, "signin">>,
  deps: Pick<CoreDeps, "store" | "now">,
  log: WarningLog,
): Job[] {
  const abandonedAfterMs = config.callAbandonS * 1000;
  const sweepEveryMs = Math.min(SWEEP_EVERY_MS, abandonedAfterMs / 2);
  const now = () => deps.now().toISOString();
  return [
    {
      // A call still pending after TOOLRUN_CALL_ABANDON_S belongs to a process that died: its
      // credits go back, and with them its idempotency key, which a retry then takes over.
      name: "sweep of abandoned calls",
      everyMs: sweepEveryMs,
      atStart: true,
      async run() {
        const before = new Date(deps.now().getTime() - abandonedAfterMs).toISOString();
        const refunded = await deps.store.refundAbandoned(before);
        if (refunded > 0) log.warn({ refunded }, "refunded calls abandoned by a stopped process");
      },
    },
    {
      name: "purge of expired idempotent answers",
      everyMs: sweepEveryMs,
      atStart: true,
      async run() {
        await deps.store.purgeExpiredAnswers(now());
      },
    },
    ...(config.oauth
      ? [
          {
            name: "purge of ended OAuth codes and tokens",
            everyMs: OAUTH_PURGE_EVERY_MS,
            atStart: false,
            async run() {
              await deps.store.purgeOAuth(now());
            },
          },
        ]
      : []),
    ...(config.signin
      ? [
          {
            name: "purge of expired member sessions",
            everyMs: OAUTH_PURGE_EVERY_MS,
            atStart: false,
            async run() {
              await deps.store.purgeMemberSessions(now());
            },
          },
        ]
      : []),
  ];
}

/** Starts every job on its interval (timers that never keep the process alive); stop() ends them. */
export function startHousekeeping(list: readonly Job[], log: WarningLog): { stop(): void } {
  const timers = list.map((job) => {
    const run = () =>
      job.run().catch((error: unknown) => {
        // Before `toolrun migrate` there is nothing to sweep or purge.
        if (!(error instanceof SchemaNotReadyError)) log.warn({ err: error }, `${job.name} failed`);
      });
    const timer = setInterval(run, job.everyMs);
    timer.unref();
    if (job.atStart) void run();
    return timer;
  });
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
