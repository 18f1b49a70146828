/**
 * JobStore on SQLite. Boundary: the `jobs` table, and the webhook outbox through `appendEvents`.
 * A creation counts the account's live jobs, checks its idempotency key and inserts in one
 * IMMEDIATE transaction, so processes sharing the file never pass the limit.
 */
import type { JobStore } from "../../ports/job-store.ts";
import { JOB_COLUMNS, type JobRow, LIVE_STATUSES, toJob } from "../job-rows.ts";
import type { Db } from "./db.ts";
import type { AppendEvents } from "./outbox.ts";

export function createJobStore(db: Db, appendEvents: AppendEvents): JobStore {
  const liveCount = db.statement<{ n: number }>(
    `SELECT count(*) AS n FROM jobs WHERE account_id = ? AND status IN ${LIVE_STATUSES} AND lease_expires_at > ?`,
  );
  const byKey = db.statement<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = ? AND idempotency_key = ?`,
  );
  const insert = db.statement(
    `INSERT INTO jobs (id, account_id, key_id, tool, status, call_id, idempotency_key, fingerprint,
       lease_owner, lease_expires_at, created_at)
     VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
  );
  const find = db.statement<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = ? AND id = ?`);
  const page = db.statement<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = ?1 AND seq < ?2
       AND (?3 IS NULL OR (CASE status WHEN 'settling' THEN 'running' ELSE status END) = ?3)
     ORDER BY seq DESC LIMIT ?4`,
  );
  const remove = db.statement("DELETE FROM jobs WHERE id = ?");
  const running = db.statement(
    "UPDATE jobs SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued'",
  );
  const renew = db.statement<{ status: string }>(
    `UPDATE jobs SET lease_expires_at = CASE WHEN status IN ${LIVE_STATUSES} THEN ?3 ELSE lease_expires_at END
     WHERE id = ?1 AND lease_owner = ?2 RETURNING status`,
  );
  const settle = db.statement("UPDATE jobs SET status = 'settling' WHERE id = ? AND status = 'running'");
  const end = db.statement(
    `UPDATE jobs SET status = ?2, finished_at = ?3, expires_at = ?4, credits_used = ?5, result = ?6, problem = ?7
     WHERE id = ?1 AND status IN ${LIVE_STATUSES} AND (?8 IS NULL OR lease_expires_at <= ?8)`,
  );
  const cancel = db.statement(
    `UPDATE jobs SET status = 'canceled', finished_at = ?3, expires_at = ?4, credits_used = ?5, result = ?6, problem = ?7
     WHERE account_id = ?1 AND id = ?2 AND status IN ('queued', 'running')`,
  );
  const lapsed = db.statement<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE status IN ${LIVE_STATUSES} AND lease_expires_at <= ?
     ORDER BY lease_expires_at, seq LIMIT ?`,
  );
  const purge = db.statement("DELETE FROM jobs WHERE expires_at <= ?");

  return {
    async createJob(job, maxLive, now) {
      return db.transaction(() => {
        if (job.idempotency !== undefined) {
          const existing = byKey.get(job.accountId, job.idempotency.key);
          if (existing !== undefined)
            return { created: false, reason: "exists", job: toJob(existing) } as const;
        }
        if ((liveCount.get(job.accountId, now)?.n ?? 0) >= maxLive)
          return { created: false, reason: "limit" } as const;
        insert.run(
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
        );
        const created = find.get(job.accountId, job.id);
        if (created === undefined) throw new Error("the job just inserted is not there");
        return { created: true, job: toJob(created) } as const;
      });
    },
    async getJob(accountId, id) {
      const row = find.get(accountId, id);
      return row === undefined ? null : toJob(row);
    },
    async listJobs(accountId, { limit, before, status }) {
      return page.all(accountId, before ?? Number.MAX_SAFE_INTEGER, status ?? null, limit).map(toJob);
    },
    async deleteJob(id) {
      remove.run(id);
    },
    async markJobRunning(id, at) {
      return running.run(at, id) === 1;
    },
    async renewJobLease(id, owner, leaseExpiresAt) {
      const row = db.transaction(() => renew.get(id, owner, leaseExpiresAt));
      if (row === undefined) return null;
      return (row.status === "settling" ? "running" : row.status) as "running";
    },
    async settleJob(id) {
      return settle.run(id) === 1;
    },
    async endJob(job, events, lapsedAt) {
      return db.transaction(() => {
        const ended = end.run(
          job.id,
          job.status,
          job.finishedAt,
          job.expiresAt,
          job.creditsUsed,
          job.result,
          job.problem,
          lapsedAt ?? null,
        );
        if (ended !== 1) return false;
        appendEvents(events);
        return true;
      });
    },
    async cancelJob(accountId, id, ending) {
      return db.transaction(() => {
        cancel.run(
          accountId,
          id,
          ending.finishedAt,
          ending.expiresAt,
          ending.creditsUsed,
          ending.result,
          ending.problem,
        );
        const row = find.get(accountId, id);
        return row === undefined ? null : toJob(row);
      });
    },
    async lapsedJobs(now, limit) {
      return lapsed.all(now, limit).map(toJob);
    },
    async purgeJobs(now) {
      return purge.run(now);
    },
  };
}
