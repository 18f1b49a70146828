/**
 * The jobs part of the storage port: tool calls answered 202 at once, run by one instance under a
 * lease and read by any. Implemented by adapters/sqlite/jobs.ts and adapters/postgres/jobs.ts;
 * both pass one contract suite (test/contracts/job-store.contract.ts). A job's credits are a
 * reservation of the ledger (`callId`): the store keeps the job, never the money.
 */
import type { NewWebhookEvent } from "./webhook-store.ts";

/** What a client sees of a job's state. */
export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "canceled";

/** How a job ended. */
export type JobEnding = "succeeded" | "failed" | "canceled";

export interface NewJob {
  /** `job_…`, unguessable: it is also an MCP task id. */
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly tool: string;
  /** The ledger's call that holds the job's credits. */
  readonly callId: string;
  readonly createdAt: string;
  /** The instance that runs it, and until when its lease holds unless renewed. */
  readonly leaseOwner: string;
  readonly leaseExpiresAt: string;
  /** The client's `Idempotency-Key` and a hash of what it asked for: the same key is the same job. */
  readonly idempotency?: { readonly key: string; readonly fingerprint: string };
}

export interface JobRecord {
  readonly id: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly tool: string;
  readonly status: JobStatus;
  readonly callId: string;
  /** What its idempotency key was sent for; null without one. */
  readonly fingerprint: string | null;
  readonly leaseOwner: string;
  readonly leaseExpiresAt: string;
  readonly creditsUsed: number;
  /** The 200 envelope, as JSON text, once it succeeded. */
  readonly result: string | null;
  /** The problem document, as JSON text, once it failed or was canceled. */
  readonly problem: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  /** Its place in the order of creation (for cursors): larger is newer. */
  readonly sequence: number;
}

export type JobCreation =
  | { readonly created: true; readonly job: JobRecord }
  /** The account has `maxLive` jobs queued or running already: nothing was written. */
  | { readonly created: false; readonly reason: "limit" }
  /** A job of the account has this idempotency key already (whatever it asked for): that job. */
  | { readonly created: false; readonly reason: "exists"; readonly job: JobRecord };

export interface JobEnd {
  readonly id: string;
  readonly status: JobEnding;
  readonly finishedAt: string;
  /** When the ended job is purged. */
  readonly expiresAt: string;
  readonly creditsUsed: number;
  readonly result: string | null;
  readonly problem: string | null;
}

export interface JobPage {
  readonly limit: number;
  /** A `sequence` of the previous page's last job; null for the newest. */
  readonly before: number | null;
  readonly status?: JobStatus;
}

export interface JobStore {
  /**
   * Creates the job unless its account has `maxLive` jobs queued or running whose lease holds at
   * `now`, or a job with the same idempotency key: the count, the key's check and the insert are
   * one atomic step on every instance, so concurrent creations never pass `maxLive`.
   */
  createJob(job: NewJob, maxLive: number, now: string): Promise<JobCreation>;
  /** The account's job with this id; null for another account's, or one purged. */
  getJob(accountId: string, id: string): Promise<JobRecord | null>;
  /** The account's jobs newest first. */
  listJobs(accountId: string, page: JobPage): Promise<JobRecord[]>;
  /** Removes a job that never ran (its credits were refused). */
  deleteJob(id: string): Promise<void>;
  /** Queued to running at `at`. False when it is not queued (canceled meanwhile). */
  markJobRunning(id: string, at: string): Promise<boolean>;
  /**
   * Moves the lease of a live job `owner` runs to `leaseExpiresAt`. Returns the job's status after
   * (`canceled` when it was canceled meanwhile, on any instance), or null when it is gone.
   */
  renewJobLease(id: string, owner: string, leaseExpiresAt: string): Promise<JobStatus | null>;
  /**
   * Running to settling, for a job whose tool succeeded and whose charge comes next: from then on
   * it cannot be canceled. False when it is no longer running (canceled).
   */
  settleJob(id: string): Promise<boolean>;
  /**
   * Ends a live job (queued, running or settling) and writes `events` to the webhook outbox in the
   * same transaction. With `lapsedAt`, only when its lease lapsed at or before then (the sweep of
   * a dead instance's jobs). False when it had ended already (nothing written).
   */
  endJob(end: JobEnd, events: readonly NewWebhookEvent[], lapsedAt?: string): Promise<boolean>;
  /**
   * Cancels the account's job when queued or running (not settling: its charge is being made).
   * Returns the job after, canceled or as it was; null for no such job of the account.
   */
  cancelJob(accountId: string, id: string, end: Omit<JobEnd, "id" | "status">): Promise<JobRecord | null>;
  /** Live jobs whose lease lapsed at or before `now`, oldest first, at most `limit`. */
  lapsedJobs(now: string, limit: number): Promise<JobRecord[]>;
  /** Removes ended jobs whose time ran out at `now`; returns how many. */
  purgeJobs(now: string): Promise<number>;
}
