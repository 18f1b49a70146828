/**
 * Jobs: a tool call answered at once (202) and run in the background, read later by id from any
 * instance. A job passes the checks of a call (invoke.ts) and the limit of live jobs of its
 * account, then takes the ledger's reserved way (`Store.runReservedCall`): its credits are held
 * before the answer (402 before anything runs), captured when the tool succeeds, released when it
 * fails or is canceled. The instance that runs a job holds its lease and renews it while the tool
 * runs; a job whose instance died is ended failed by the sweep (`endLapsedJobs`), and the ledger's
 * sweep of abandoned calls gives its credits back. docs/jobs.md says the same for users.
 */
import { randomUUID } from "node:crypto";
import type { JobRecord, JobStatus } from "../../ports/job-store.ts";
import type { CallOutcome, Reservation } from "../../ports/store.ts";
import { ApiError, problemDocument } from "../kernel/errors.ts";
import { DEFAULT_MAX_CONCURRENT_JOBS } from "../kernel/settings.ts";
import { webhookEvent } from "../kernel/webhook-events.ts";
import type { RegisteredTool } from "../tools/registry.ts";
import { CANCELED_STATUS } from "../tools/run.ts";
import { answersOf, type Price, priceOf } from "./answers.ts";
import { computeOf, type Work } from "./compute.ts";
import { recordDepletion } from "./depletion.ts";
import type { CoreDeps } from "./deps.ts";
import { type Computed, jsonText } from "./envelope.ts";
import { fingerprintOf, outwardKeyOf } from "./idempotency.ts";
import { checkSize, checkSwitches, report } from "./invoke.ts";
import { INSTANCE_STOPPING } from "./jobs-in-flight.ts";
import { reservationOf } from "./reservation.ts";
import { checkMayCall, resolveForKey } from "./scope.ts";
import type { ToolCall } from "./tool-call.ts";

/** What a client is told to wait before it first reads a job, and after a refusal for too many. */
export const JOB_RETRY_AFTER_S = 1;
export const TOO_MANY_JOBS_RETRY_AFTER_S = 5;

/** Whether the call runs as a job: always for a `required` tool, on request for an `optional` one. */
export function runsAsJob(tool: RegisteredTool, asked: boolean): boolean {
  const { jobs } = tool.definition;
  return jobs === "required" || (jobs === "optional" && asked);
}

/** The call's tool as its key sees it, for a transport deciding whether the call runs as a job. */
export function toolOfCall(deps: CoreDeps, call: Pick<ToolCall, "key" | "slug">): RegisteredTool {
  return resolveForKey(deps.registry, call.key, call.slug);
}

export interface StartedJob {
  readonly job: JobRecord;
  /** The job an earlier request with the same idempotency key started. */
  readonly replayed: boolean;
}

/**
 * Starts the call as a job: the call's checks (404, 403, 413, 400, 503), the account's limit of
 * live jobs (429 `too_many_jobs`), its credits held (402), then the job, queued or running. The
 * same idempotency key again gives the same job.
 */
export async function startJob(deps: CoreDeps, call: ToolCall): Promise<StartedJob> {
  const tool = resolveForKey(deps.registry, call.key, call.slug);
  checkMayCall(call.key, tool);
  checkSize(tool, call.body);
  const controller = new AbortController();
  // A job outlives its request: its client leaving is no reason to drop its compute.
  const compute = computeOf(
    deps,
    tool,
    { ...call, clientGone: undefined },
    {
      requestId: call.requestId,
      idempotencyKey:
        call.idempotencyKey === undefined ? undefined : outwardKeyOf(call.key.accountId, call.idempotencyKey),
      cancel: controller.signal,
      writesOutputs: true,
    },
  );
  await checkSwitches(deps, tool, compute);
  const price = priceOf(deps, tool, call.key);
  const work = await compute.validate(async () => false);
  const body = "raw" in call.body ? call.body.raw : call.body.json;
  const fingerprint = fingerprintOf(tool.slug, body);
  const now = price.now;
  const callId = deps.newCallId();
  const creation = await deps.store.createJob(
    {
      id: newJobId(),
      accountId: call.key.accountId,
      keyId: call.key.id,
      tool: tool.slug,
      callId,
      createdAt: now.toISOString(),
      leaseOwner: deps.jobs.owner,
      leaseExpiresAt: new Date(now.getTime() + deps.jobs.leaseMs).toISOString(),
      ...(call.idempotencyKey !== undefined && { idempotency: { key: call.idempotencyKey, fingerprint } }),
    },
    price.plan.maxConcurrentJobs ?? DEFAULT_MAX_CONCURRENT_JOBS,
    now.toISOString(),
  );
  if (!creation.created && creation.reason === "exists") {
    if (creation.job.fingerprint !== fingerprint || creation.job.tool !== tool.slug)
      throw new ApiError(
        "idempotency_key_mismatch",
        "This Idempotency-Key was used for another request (a different tool or body). Use a new key for a new request.",
      );
    return { job: creation.job, replayed: true };
  }
  if (!creation.created) {
    report(deps, call, { tool: tool.slug, outcome: "refused", credits: 0 });
    throw tooManyJobs(price.plan.maxConcurrentJobs ?? DEFAULT_MAX_CONCURRENT_JOBS);
  }
  const job = creation.job;
  const reservation = reservationOf(call, tool, price, callId);
  return { job: await admit(deps, call, tool, price, job, reservation, work, controller), replayed: false };
}

/**
 * Runs the job through the ledger's reserved way and answers once its credits are held (the job
 * running) or refused (the job removed, the 402 thrown); the run goes on in the background.
 */
async function admit(
  deps: CoreDeps,
  call: ToolCall,
  tool: RegisteredTool,
  price: Price,
  job: JobRecord,
  reservation: Reservation,
  work: Work,
  controller: AbortController,
): Promise<JobRecord> {
  let admitted: (started: JobRecord) => void = () => {};
  const started = new Promise<JobRecord>((resolve) => {
    admitted = resolve;
  });
  let lease: ReturnType<typeof setInterval> | undefined;
  let leave = () => {};
  const run = async () => {
    const at = deps.now().toISOString();
    if (!(await deps.store.markJobRunning(job.id, at))) {
      // Canceled in the instant between its creation and its start.
      admitted({ ...job, status: "canceled" });
      return canceled();
    }
    admitted({ ...job, status: "running", startedAt: at });
    lease = setInterval(() => void renew(deps, job.id, controller), Math.max(250, deps.jobs.leaseMs / 4));
    lease.unref();
    const result = await work();
    leave = await deps.jobs.endings.enter();
    // A job whose tool ended as its instance stopped ends as its tool did.
    if (controller.signal.aborted && controller.signal.reason !== INSTANCE_STOPPING) return canceled();
    // Past this point the job can no longer be canceled: its charge comes next.
    if (result.ok && !(await deps.store.settleJob(job.id))) return canceled();
    return result;
  };
  const outcome = deps.store.runReservedCall(reservation, run).finally(() => clearInterval(lease));
  const ended = outcome
    .then(
      (ran) => finish(deps, call, tool, price, job, ran, controller.signal),
      (error: unknown) => failJob(deps, job, error, call.requestId),
    )
    .finally(() => leave());
  deps.jobs.track(
    job.id,
    controller,
    ended.catch(() => {}),
  );
  const first = await Promise.race([
    started,
    outcome.then(
      () => null,
      () => null,
    ),
  ]);
  if (first !== null) return first;
  // The ledger spoke before the job ran: refused, or the store failed.
  const settled = await outcome.catch(async (error: unknown) => {
    await deps.store.deleteJob(job.id);
    throw error;
  });
  if (settled.status === "refused") {
    await deps.store.deleteJob(job.id);
    if (settled.reason === "insufficient_credits")
      await recordDepletion(deps, call, tool, price, settled.creditsUsed);
    report(deps, call, { tool: tool.slug, outcome: "refused", credits: 0 });
    const answer = answersOf(tool, price, call.requestId, undefined)(settled);
    if (answer instanceof ApiError) throw answer;
  }
  return (await deps.store.getJob(job.accountId, job.id)) ?? job;
}

function canceled(): { ok: false; httpStatus: number; error: Error } {
  return { ok: false, httpStatus: CANCELED_STATUS, error: new Error("The job was canceled.") };
}

/** Renews the job's lease; a job canceled on another instance has its tool's signal fired here. */
async function renew(deps: CoreDeps, id: string, controller: AbortController): Promise<void> {
  try {
    const leaseExpiresAt = new Date(deps.now().getTime() + deps.jobs.leaseMs).toISOString();
    const status = await deps.store.renewJobLease(id, deps.jobs.owner, leaseExpiresAt);
    if (status === "canceled" || status === null) controller.abort();
  } catch {
    // The store is unreachable for now: the next renewal tries again, and the lease lasts till then.
  }
}

/** Writes how the job ended, with its webhook event, once the ledger settled its credits. */
async function finish(
  deps: CoreDeps,
  call: ToolCall,
  tool: RegisteredTool,
  price: Price,
  job: JobRecord,
  outcome: CallOutcome<Computed>,
  signal: AbortSignal,
): Promise<void> {
  // A refusal ended the job before it ran (admit removed it).
  if (outcome.status === "refused" || outcome.status === "claimed") return;
  const answer = answersOf(tool, price, call.requestId, undefined)(outcome);
  const charged = outcome.status === "charged";
  report(deps, call, {
    tool: tool.slug,
    outcome: charged ? "charged" : "refunded",
    credits: charged ? price.credits : 0,
  });
  // A canceled job's row already says so; a stopped one's signal fired the same way, but it ends failed.
  if (
    outcome.status === "refunded" &&
    outcome.httpStatus === CANCELED_STATUS &&
    signal.reason !== INSTANCE_STOPPING
  )
    return;
  const now = deps.now();
  if (!(answer instanceof ApiError)) {
    const result = jsonText(answer) ?? JSON.stringify(answer.envelope);
    await endJob(deps, job, "succeeded", now, { creditsUsed: price.credits, result, problem: null });
    return;
  }
  const error =
    signal.reason === INSTANCE_STOPPING
      ? new ApiError(
          "processing_error",
          "The instance running the job stopped before the job ended; nothing was charged. Start it again.",
        )
      : answer;
  const problem = JSON.stringify(problemDocument(error, deps.settings.docsUrl, call.requestId));
  await endJob(deps, job, "failed", now, { creditsUsed: 0, result: null, problem });
}

/** A job whose run could not go through the ledger at all (the store failed): failed, nothing charged. */
async function failJob(deps: CoreDeps, job: JobRecord, cause: unknown, requestId: string): Promise<void> {
  const error = new ApiError("internal_error", "The job could not run; nothing was charged.", { cause });
  const problem = JSON.stringify(problemDocument(error, deps.settings.docsUrl, requestId));
  await endJob(deps, job, "failed", deps.now(), { creditsUsed: 0, result: null, problem });
}

async function endJob(
  deps: Pick<CoreDeps, "store" | "settings">,
  job: JobRecord,
  status: "succeeded" | "failed",
  now: Date,
  end: { creditsUsed: number; result: string | null; problem: string | null },
  lapsedAt?: string,
): Promise<boolean> {
  const event = webhookEvent(
    status === "succeeded" ? "job.succeeded" : "job.failed",
    {
      job_id: job.id,
      account_id: job.accountId,
      key_id: job.keyId,
      tool: job.tool,
      status,
      credits_used: end.creditsUsed,
    },
    now,
  );
  return deps.store.endJob(
    { id: job.id, status, finishedAt: now.toISOString(), expiresAt: expiryOf(deps, now), ...end },
    [event],
    lapsedAt,
  );
}

function expiryOf(deps: Pick<CoreDeps, "settings">, now: Date): string {
  return new Date(now.getTime() + deps.settings.jobTtlS * 1000).toISOString();
}

/** The account's job, or 404 `job_not_found` (another account's, an unknown or a purged id). */
export async function readJob(deps: CoreDeps, accountId: string, id: string): Promise<JobRecord> {
  const job = await deps.store.getJob(accountId, id);
  if (job === null) throw jobNotFound(id);
  return job;
}

/**
 * Cancels the account's job: a queued or running one ends `canceled` at once (its place freed),
 * its tool's signal fires (here, or on the instance running it when it next renews its lease) and
 * its credits are released. A job that ended, or whose charge is being made, stays as it is.
 */
export async function cancelJob(deps: CoreDeps, accountId: string, id: string): Promise<JobRecord> {
  const now = deps.now();
  const job = await deps.store.cancelJob(accountId, id, {
    finishedAt: now.toISOString(),
    expiresAt: expiryOf(deps, now),
    creditsUsed: 0,
    result: null,
    problem: null,
  });
  if (job === null) throw jobNotFound(id);
  if (job.status === "canceled") deps.jobs.abort(id);
  return job;
}

/** How many jobs the sweep reads at once. */
const LAPSED_BATCH = 100;

/**
 * Ends `failed` the live jobs whose lease lapsed (their instance died or lost the store); the
 * ledger's sweep of abandoned calls releases their credits. Safe on several instances at once.
 */
export async function endLapsedJobs(deps: Pick<CoreDeps, "store" | "now" | "settings">): Promise<number> {
  const now = deps.now();
  const at = now.toISOString();
  let ended = 0;
  for (const job of await deps.store.lapsedJobs(at, LAPSED_BATCH)) {
    const error = new ApiError(
      "processing_error",
      "The instance running the job stopped before it ended; its credits were given back.",
    );
    const problem = JSON.stringify(problemDocument(error, deps.settings.docsUrl, undefined));
    const done = await endJob(deps, job, "failed", now, { creditsUsed: 0, result: null, problem }, at);
    if (done) ended++;
  }
  return ended;
}

export function jobNotFound(id: string): ApiError {
  return new ApiError("job_not_found", `No job "${id}" belongs to this account.`);
}

export function tooManyJobs(limit: number): ApiError {
  return new ApiError(
    "too_many_jobs",
    `This account may have ${limit} job${limit === 1 ? "" : "s"} queued or running at once; wait for one to end, or cancel one.`,
    {
      headers: { "retry-after": String(TOO_MANY_JOBS_RETRY_AFTER_S) },
      extras: { retry_after: TOO_MANY_JOBS_RETRY_AFTER_S },
    },
  );
}

/** `job_` and 32 hex digits from a random UUID: unguessable, as an MCP task id must be. */
function newJobId(): string {
  return `job_${randomUUID().replaceAll("-", "")}`;
}

/** A job as the API shows it. */
export interface JobView {
  readonly id: string;
  readonly tool: string;
  readonly status: JobStatus;
  readonly created_at: string;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  readonly credits_used: number;
  readonly result?: unknown;
  readonly problem?: unknown;
}

export function jobView(job: JobRecord): JobView {
  return {
    id: job.id,
    tool: job.tool,
    status: job.status,
    created_at: job.createdAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    credits_used: job.creditsUsed,
    ...(job.result !== null && { result: JSON.parse(job.result) as unknown }),
    ...(job.problem !== null && { problem: JSON.parse(job.problem) as unknown }),
  };
}
