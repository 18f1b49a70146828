/**
 * MCP tasks over jobs: the tasks extension (`io.modelcontextprotocol/tasks`, protocol 2026-07-28)
 * for a client that declares it in a request's capabilities. Its `tools/call` of a tool that may
 * run as a job answers a task (`resultType: "task"`) whose id is the job's (`job_…`, unguessable);
 * `tasks/get` and `tasks/cancel` read and cancel the account's own jobs through the same core
 * functions as `GET /v1/jobs/{id}` and its cancel, so credits and charging are the job's.
 *
 * Written by hand on the SDK's low-level handlers, not with @modelcontextprotocol/ext-tasks: its
 * receiver binds a client that answers 2025-11-25 task-augmented sampling and elicitation, not a
 * server whose tools answer tasks, and the SDK has no runtime for the task methods. What the
 * extension asks of a server is three small answers, written here against its 2026-07-28 schema
 * (test/mcp/tasks.test.ts checks them with the extension's own schemas).
 *
 * Statuses: queued and running are `working`, canceled is `cancelled`. A job that succeeded and
 * one that failed are both `completed`, with the `CallToolResult` a synchronous call answers (the
 * failure's `isError` with its problem document): the extension keeps `failed` for JSON-RPC errors
 * and forbids it for a tool's own failure.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type StandardSchemaV1,
} from "@modelcontextprotocol/server";
import type { CoreDeps } from "../core/call/deps.ts";
import { cancelJob, JOB_RETRY_AFTER_S, readJob } from "../core/call/jobs.ts";
import { ApiError, type ProblemDocument } from "../core/kernel/errors.ts";
import { MAX_JOB_TIMEOUT_MS } from "../core/tools/check-definition.ts";
import type { JobRecord } from "../ports/job-store.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { problemResult, successResult } from "./tool-results.ts";

/** The MCP tasks extension (protocol 2026-07-28) a client declares to be answered with tasks. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** What the server declares in `server/discover` (no settings: an empty object says it). */
export const TASKS_CAPABILITY = { [TASKS_EXTENSION]: {} } as const;

type TaskStatus = "working" | "completed" | "cancelled";

/** The extension's `Task` (a type, not an interface: the SDK's results are indexable). */
type Task = {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** From creation; null would say "kept for ever", which no job is. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
};

/** `tasks/get`'s answer: the task, with the call's result once it completed. */
type DetailedTask = Task & { readonly result?: Record<string, unknown> };

/** The `tools/call` answer that hands the client a task instead of the result. */
export type CreateTaskResult = Task & {
  readonly resultType: "task";
  readonly _meta?: Record<string, unknown>;
};

/**
 * Whether the request declared the extension in its per-request capabilities (the SDK lifts the
 * envelope out of `_meta`); a 2025-era request carries no envelope, so never.
 */
export function declaresTasks(envelope: Readonly<Record<string, unknown>> | undefined): boolean {
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  if (typeof capabilities !== "object" || capabilities === null) return false;
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return typeof extensions === "object" && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** The missing-capability error (-32021) that names the extension. */
export function tasksRequired(message: string): MissingRequiredClientCapabilityError {
  const requiredCapabilities = { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities;
  return new MissingRequiredClientCapabilityError({ requiredCapabilities }, message);
}

export function createTaskResult(deps: CoreDeps, job: JobRecord): CreateTaskResult {
  return { resultType: "task", ...taskOf(deps, job) };
}

/** `tasks/get`: the account's job as a task; another account's, an unknown or a purged id is not found. */
export async function getTask(deps: CoreDeps, key: ApiKeyRecord, taskId: string): Promise<DetailedTask> {
  const job = await orNotFound(readJob(deps, key.accountId, taskId));
  return { ...taskOf(deps, job), ...(resultOf(job) !== undefined && { result: resultOf(job) }) };
}

/**
 * `tasks/cancel`: cancels the account's job as its HTTP cancel does (refunded, its place freed);
 * the answer is the extension's empty acknowledgement whatever the job's state was.
 */
export async function cancelTask(
  deps: CoreDeps,
  key: ApiKeyRecord,
  taskId: string,
): Promise<Record<string, never>> {
  await orNotFound(cancelJob(deps, key.accountId, taskId));
  return {};
}

/** `{taskId}`, the params of `tasks/get` and `tasks/cancel`; anything else is -32602 naming the field. */
export const taskIdParams: StandardSchemaV1<unknown, { taskId: string }> = {
  "~standard": {
    version: 1,
    vendor: "toolrun",
    validate: (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as { taskId?: unknown }).taskId === "string"
        ? { value: { taskId: (value as { taskId: string }).taskId } }
        : { issues: [{ message: "taskId: a string is required", path: ["taskId"] }] },
  },
};

async function orNotFound(read: Promise<JobRecord>): Promise<JobRecord> {
  try {
    return await read;
  } catch (error) {
    // The extension's not-found: invalid params, whatever the reason (unknown, another's, purged).
    if (error instanceof ApiError && error.code === "job_not_found")
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Failed to retrieve task: Task not found", {
        code: "job_not_found",
      });
    throw error;
  }
}

function taskOf(deps: CoreDeps, job: JobRecord): Task {
  const message = statusMessageOf(job);
  return {
    taskId: job.id,
    status: statusOf(job),
    ...(message !== undefined && { statusMessage: message }),
    createdAt: job.createdAt,
    lastUpdatedAt: job.finishedAt ?? job.startedAt ?? job.createdAt,
    ttlMs: ttlOf(deps, job),
    pollIntervalMs: JOB_RETRY_AFTER_S * 1000,
  };
}

function statusOf(job: JobRecord): TaskStatus {
  switch (job.status) {
    case "queued":
    case "running":
      return "working";
    case "succeeded":
    case "failed":
      return "completed";
    case "canceled":
      return "cancelled";
  }
}

function statusMessageOf(job: JobRecord): string | undefined {
  if (job.status === "failed" && job.problem !== null) {
    const problem = JSON.parse(job.problem) as ProblemDocument;
    return problem.detail ?? problem.title;
  }
  if (job.status === "canceled") return "Canceled; nothing was charged.";
  return undefined;
}

/**
 * How long after its creation the job is kept: an ended one until `TOOLRUN_JOB_TTL_S` after its
 * end; a live one, at most the longest a job may run (an hour) and that TTL, a bound the extension
 * lets a client give up after.
 */
function ttlOf(deps: CoreDeps, job: JobRecord): number {
  const kept = deps.settings.jobTtlS * 1000;
  if (job.finishedAt === null) return MAX_JOB_TIMEOUT_MS + kept;
  return Date.parse(job.finishedAt) - Date.parse(job.createdAt) + kept;
}

/**
 * The `CallToolResult` a synchronous call of the tool would have answered, as the 2026-07-28 wire
 * writes it (`resultType: "complete"`): the SDK stamps the task's own answer, not what it holds.
 */
function resultOf(job: JobRecord): Record<string, unknown> | undefined {
  if (job.status === "succeeded" && job.result !== null) {
    const result = successResult(JSON.parse(job.result) as Record<string, unknown>, job.result);
    return { ...result, resultType: "complete" };
  }
  if (job.status === "failed" && job.problem !== null)
    return { ...problemResult(JSON.parse(job.problem) as ProblemDocument), resultType: "complete" };
  return undefined;
}
