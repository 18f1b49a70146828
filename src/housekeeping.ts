/**
 * Every periodic job of a running server, in one list: what a stopped process left pending, what
 * can no longer be used (expired answers, OAuth artifacts, captures, old webhook deliveries), and
 * the webhook deliveries due. Each instance runs them all; every job is safe to run on several
 * instances at once (the store's statements make them so). Adding a job is one entry in `jobs`.
 */
import type { Config } from "./config.ts";
import type { WebhookDeliverer } from "./core/admin/webhook-delivery.ts";
import type { CoreDeps } from "./core/call/deps.ts";
import { endLapsedJobs } from "./core/call/jobs.ts";
import { SchemaNotReadyError } from "./ports/errors.ts";

/** How often a sweep for abandoned calls runs, at most (half the abandon time when that is shorter). */
const SWEEP_EVERY_MS = 30_000;
/** How often expired codes, tokens, ended authorizations and expired member sessions are removed. */
const OAUTH_PURGE_EVERY_MS = 10 * 60 * 1000;
/** How often expired captures and what they caught are removed (reads hide them meanwhile). */
const CAPTURE_PURGE_EVERY_MS = 10 * 60 * 1000;
/** How often jobs ended longer ago than TOOLRUN_JOB_TTL_S are removed. */
const JOB_PURGE_EVERY_MS = 10 * 60 * 1000;
/** How often webhook deliveries and events older than TOOLRUN_WEBHOOK_RETENTION_S are removed. */
const WEBHOOK_PURGE_EVERY_MS = 10 * 60 * 1000;
/** How often each instance looks for webhook deliveries due: the shortest a retry waits, about. */
export const WEBHOOK_DELIVERY_EVERY_MS = 1000;

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
  /** Ends what a run has in flight, for a server that stops (the deliveries being sent). */
  stop?(): Promise<void>;
}

/** The jobs of a server with this configuration. */
export function jobs(
  config: Pick<Config, "callAbandonS" | "oauth" | "webhookRetentionS"> & Partial<Pick<Config, "signin">>,
  deps: Pick<CoreDeps, "store" | "now" | "settings"> & { readonly webhooks?: WebhookDeliverer },
  log: WarningLog,
): Job[] {
  const { webhooks } = deps;
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
      // A job whose lease lapsed belongs to a process that died too: it ends failed, and its
      // call, pending as long, is among those the sweep above refunds.
      name: "sweep of abandoned jobs",
      everyMs: sweepEveryMs,
      atStart: true,
      async run() {
        const failed = await endLapsedJobs(deps);
        if (failed > 0) log.warn({ failed }, "ended the jobs of a stopped process");
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
    {
      name: "purge of expired captures",
      everyMs: CAPTURE_PURGE_EVERY_MS,
      atStart: true,
      async run() {
        await deps.store.purgeCaptures(now());
      },
    },
    {
      name: "purge of ended jobs",
      everyMs: JOB_PURGE_EVERY_MS,
      atStart: true,
      async run() {
        await deps.store.purgeJobs(now());
      },
    },
    {
      // Whether this instance delivers or not: the rows are the store's, and pending ones stay.
      name: "purge of old webhook deliveries",
      everyMs: WEBHOOK_PURGE_EVERY_MS,
      atStart: true,
      async run() {
        const before = new Date(deps.now().getTime() - config.webhookRetentionS * 1000).toISOString();
        await deps.store.purgeWebhooks(before);
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
    ...(webhooks
      ? [
          {
            // Every instance delivers; the store's claims keep two from sending one delivery.
            name: "delivery of webhooks",
            everyMs: WEBHOOK_DELIVERY_EVERY_MS,
            atStart: true,
            async run() {
              await webhooks.deliverDue();
            },
            stop: () => webhooks.stop(),
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

/**
 * Starts every job on its interval (timers that never keep the process alive); stop() ends them,
 * and resolves once the jobs that hold work in flight have ended it.
 */
export function startHousekeeping(list: readonly Job[], log: WarningLog): { stop(): Promise<void> } {
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
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled(list.map((job) => job.stop?.()));
    },
  };
}
