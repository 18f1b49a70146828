/**
 * Rows of the `jobs` table both SQL stores share (same names, see their migrations 0014), turned
 * into the job port's records, written once for SQLite and PostgreSQL.
 */
import type { JobRecord, JobStatus } from "../ports/job-store.ts";
import { iso, type Timestamp } from "./sql-rows.ts";

export const JOB_COLUMNS = `seq, id, account_id, key_id, tool, status, call_id, fingerprint, lease_owner,
  lease_expires_at, credits_used, result, problem, created_at, started_at, finished_at`;

/** The statuses a job still counts against its account's limit in. */
export const LIVE_STATUSES = "('queued', 'running', 'settling')";

export interface JobRow {
  seq: number | bigint | string;
  id: string;
  account_id: string;
  key_id: string;
  tool: string;
  status: string;
  call_id: string;
  fingerprint: string | null;
  lease_owner: string;
  lease_expires_at: Timestamp;
  credits_used: number | bigint | string;
  result: string | null;
  problem: string | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export function toJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    keyId: row.key_id,
    tool: row.tool,
    // Settling is the store's own step: to a client the job still runs.
    status: (row.status === "settling" ? "running" : row.status) as JobStatus,
    callId: row.call_id,
    fingerprint: row.fingerprint,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: iso(row.lease_expires_at),
    creditsUsed: Number(row.credits_used),
    result: row.result,
    problem: row.problem,
    createdAt: iso(row.created_at),
    startedAt: row.started_at === null ? null : iso(row.started_at),
    finishedAt: row.finished_at === null ? null : iso(row.finished_at),
    sequence: Number(row.seq),
  };
}
