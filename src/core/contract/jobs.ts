/**
 * What the API shows of jobs (core/call/jobs.ts runs them): a job as JSON, the account's list a
 * page at a time, and the schemas of both. Reads are free and see only the account's own jobs.
 */
import type { JobStatus } from "../../ports/job-store.ts";
import type { ApiKeyRecord } from "../../ports/store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import type { CoreDeps } from "../call/deps.ts";
import { type JobView, jobView } from "../call/jobs.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { envelopeSchema, nullable, problemSchema, SCHEMA_DIALECT } from "./schemas.ts";

export const JOBS_LIMIT_DEFAULT = 20;
export const JOBS_LIMIT_MAX = 100;
const JOBS_CURSOR = "jobs";
export const JOB_STATUSES: readonly JobStatus[] = ["queued", "running", "succeeded", "failed", "canceled"];

export async function listJobs(
  deps: CoreDeps,
  key: ApiKeyRecord,
  page: { limit: number; cursor: string | null; status?: JobStatus | undefined },
): Promise<{ jobs: JobView[]; next_cursor: string | null }> {
  const before = page.cursor === null ? null : Number(decodeCursor(JOBS_CURSOR, page.cursor));
  // One more than asked tells whether another page follows.
  const records = await deps.store.listJobs(key.accountId, {
    limit: page.limit + 1,
    before,
    ...(page.status !== undefined && { status: page.status }),
  });
  const shown = records.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    jobs: shown.map(jobView),
    next_cursor:
      records.length > page.limit && last ? encodeCursor(JOBS_CURSOR, String(last.sequence)) : null,
  };
}

const timestamp: JsonSchema = { type: "string", format: "date-time" };

/** An id of the form the service gives: anything else is a 400 naming `id`. */
const jobId: JsonSchema = {
  type: "string",
  pattern: "^job_[0-9a-f]{32}$",
  description: "The job's id (`job_…`).",
};

export const jobIdParameters: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  additionalProperties: false,
  required: ["id"],
  properties: { id: jobId },
};

export const jobListParameters: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  additionalProperties: false,
  properties: {
    status: { type: "string", enum: [...JOB_STATUSES], description: "Only the jobs in this status." },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: JOBS_LIMIT_MAX,
      default: JOBS_LIMIT_DEFAULT,
      description: "Most jobs per page.",
    },
    cursor: { type: "string", description: "next_cursor of the previous page." },
  },
};

const { $schema: _problemDialect, ...problem } = problemSchema;
const { $schema: _envelopeDialect, ...envelope } = envelopeSchema(undefined, { type: "object" });

const jobItem: JsonSchema = {
  type: "object",
  required: ["id", "tool", "status", "created_at", "started_at", "finished_at", "credits_used"],
  properties: {
    id: jobId,
    tool: { type: "string", description: "The tool's slug." },
    status: {
      type: "string",
      enum: [...JOB_STATUSES],
      description: "`queued` and `running` are live; the others are ends.",
    },
    created_at: timestamp,
    started_at: nullable(timestamp),
    finished_at: nullable(timestamp),
    credits_used: {
      type: "integer",
      minimum: 0,
      description: "Credits charged: the call's price once it succeeded, else 0.",
    },
    result: { ...envelope, description: "Once `succeeded`: the 200 envelope a synchronous call answers." },
    problem: { ...problem, description: "Once `failed`: the problem document a synchronous call answers." },
  },
};

export const jobSchema: JsonSchema = { $schema: SCHEMA_DIALECT, ...jobItem };

export const jobListSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["jobs", "next_cursor"],
  properties: {
    jobs: { type: "array", items: jobItem, description: "Newest first." },
    next_cursor: nullable({ type: "string" }),
  },
};
