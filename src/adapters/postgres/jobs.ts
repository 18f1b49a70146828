/**
 * JobStore on PostgreSQL, for several instances on one database. Boundary: the `jobs` table, and
 * the webhook outbox through `appendEvents`. A creation takes a transaction-scoped advisory lock
 * on its account before it counts the live jobs and checks the idempotency key, so the limit
 * holds whatever arrives at once on any instance.
 */
import type { Pool } from "pg";
import type { JobStatus, JobStore } from "../../ports/job-store.ts";
import { JOB_COLUMNS, type JobRow, LIVE_STATUSES, toJob } from "../job-rows.ts";
import { run, statement, transaction } from "./db.ts";
import { appendEvents } from "./outbox.ts";

const LOCK_ACCOUNT = statement(
  "job_lock_account",
  "SELECT pg_advisory_xact_lock(hashtextextended('toolrun_jobs:' || $1, 0))",
);
const LIVE_COUNT = statement(
  "job_live_count",
  `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND status IN ${LIVE_STATUSES} AND lease_expires_at > $2`,
);
const BY_KEY = statement(
  "job_by_key",
  `SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = $1 AND idempotency_key = $2`,
);
const INSERT = statement(
  "job_insert",
  `INSERT INTO jobs (id, account_id, key_id, tool, status, call_id, idempotency_key, fingerprint,
     lease_owner, lease_expires_at, created_at)
   VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8, $9, $10)
   RETURNING ${JOB_COLUMNS}`,
);
const FIND = statement("job_find", `SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = $1 AND id = $2`);
const PAGE = statement(
  "job_page",
  `SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = $1 AND ($2::bigint IS NULL OR seq < $2)
     AND ($3::text IS NULL OR (CASE status WHEN 'settling' THEN 'running' ELSE status END) = $3)
   ORDER BY seq DESC LIMIT $4`,
);
const DELETE = statement("job_delete", "DELETE FROM jobs WHERE id = $1");
const RUNNING = statement(
  "job_running",
  "UPDATE jobs SET status = 'running', started_at = $2 WHERE id = $1 AND status = 'queued' RETURNING id",
);
const RENEW = statement(
  "job_renew",
  `UPDATE jobs SET lease_expires_at = CASE WHEN status IN ${LIVE_STATUSES} THEN $3::timestamptz ELSE lease_expires_at END
   WHERE id = $1 AND lease_owner = $2 RETURNING status`,
);
const SETTLE = statement(
  "job_settle",
  "UPDATE jobs SET status = 'settling' WHERE id = $1 AND status = 'running' RETURNING id",
);
const END = statement(
  "job_end",
  `UPDATE jobs SET status = $2, finished_at = $3, expires_at = $4, credits_used = $5, result = $6, problem = $7
   WHERE id = $1 AND status IN ${LIVE_STATUSES} AND ($8::timestamptz IS NULL OR lease_expires_at <= $8)
   RETURNING id`,
);
const CANCEL = statement(
  "job_cancel",
  `UPDATE jobs SET status = 'canceled', finished_at = $3, expires_at = $4, credits_used = $5, result = $6, problem = $7
   WHERE account_id = $1 AND id = $2 AND status IN ('queued', 'running')`,
);
const LAPSED = statement(
  "job_lapsed",
  `SELECT ${JOB_COLUMNS} FROM jobs WHERE status IN ${LIVE_STATUSES} AND lease_expires_at <= $1
   ORDER BY lease_expires_at, seq LIMIT $2`,
);
const PURGE = statement("job_purge", "DELETE FROM jobs WHERE expires_at <= $1 RETURNING 1");

export function createJobStore(pool: Pool): JobStore {
  return {
    async createJob(job, maxLive, now) {
      return transaction(pool, async (client) => {
        await run(client, LOCK_ACCOUNT, [job.accountId]);
        if (job.idempotency !== undefined) {
          const [existing] = await run<JobRow>(client, BY_KEY, [job.accountId, job.idempotency.key]);
          if (existing !== undefined)
            return { created: false, reason: "exists", job: toJob(existing) } as const;
        }
        const live = (await run<{ n: number }>(client, LIVE_COUNT, [job.accountId, now]))[0]?.n ?? 0;
        if (live >= maxLive) return { created: false, reason: "limit" } as const;
        const [created] = await run<JobRow>(client, INSERT, [
          job.id,
          job.accountId,
          job.keyId,
          job.tool,
          job.callId,
          job.idempotency?.key ?? null,
          job.idempotency?.fingerprint ?? null,
          job.leaseOwner,
          job.leaseExpiresAt,
          job.createdAt,
        ]);
        if (created === undefined) throw new Error("the job just inserted is not there");
        return { created: true, job: toJob(created) } as const;
      });
    },
    async getJob(accountId, id) {
      const [row] = await run<JobRow>(pool, FIND, [accountId, id]);
      return row === undefined ? null : toJob(row);
    },
    async listJobs(accountId, { limit, before, status }) {
      return (await run<JobRow>(pool, PAGE, [accountId, before, status ?? null, limit])).map(toJob);
    },
    async deleteJob(id) {
      await run(pool, DELETE, [id]);
    },
    async markJobRunning(id, at) {
      return (await run(pool, RUNNING, [id, at])).length === 1;
    },
    async renewJobLease(id, owner, leaseExpiresAt) {
      const [row] = await run<{ status: string }>(pool, RENEW, [id, owner, leaseExpiresAt]);
      if (row === undefined) return null;
      return (row.status === "settling" ? "running" : row.status) as JobStatus;
    },
    async settleJob(id) {
      return (await run(pool, SETTLE, [id])).length === 1;
    },
    async endJob(job, events, lapsedAt) {
      return transaction(pool, async (client) => {
        const ended = await run(client, END, [
          job.id,
          job.status,
          job.finishedAt,
          job.expiresAt,
          job.creditsUsed,
          job.result,
          job.problem,
          lapsedAt ?? null,
        ]);
        if (ended.length !== 1) return false;
        await appendEvents(client, events);
        return true;
      });
    },
    async cancelJob(accountId, id, ending) {
      return transaction(pool, async (client) => {
        await run(client, CANCEL, [
          accountId,
          id,
          ending.finishedAt,
          ending.expiresAt,
          ending.creditsUsed,
          ending.result,
          ending.problem,
        ]);
        const [row] = await run<JobRow>(client, FIND, [accountId, id]);
        return row === undefined ? null : toJob(row);
      });
    },
    async lapsedJobs(now, limit) {
      return (await run<JobRow>(pool, LAPSED, [now, limit])).map(toJob);
    },
    async purgeJobs(now) {
      return (await run(pool, PURGE, [now])).length;
    },
  };
}
