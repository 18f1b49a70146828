import { type RequestOptions } from "./limits.js";
import { type RetryOptions } from "./retrying.js";
import type { components, paths } from "./schema.js";
export { type ErrorCode, type Problem, ToolrunError, ToolrunTimeoutError } from "./errors.js";
export type { RequestOptions } from "./limits.js";
export type { RetryOptions } from "./retrying.js";
export { schemaType, toolTypesModule } from "./tool-types.js";
export type { components, paths };
/** The slugs of the built-in tools, each with its own path in the document. */
export type ToolSlug = {
    [P in keyof paths]: P extends `/v1/tool/${infer S}` ? (S extends "{slug}" ? never : S) : never;
}[keyof paths];
type ToolOperation<S extends ToolSlug> = NonNullable<paths[`/v1/tool/${S}`]["post"]>;
export type ToolInput<S extends ToolSlug> = NonNullable<ToolOperation<S>["requestBody"]>["content"]["application/json"];
export type ToolEnvelope<S extends ToolSlug> = ToolOperation<S>["responses"][200]["content"]["application/json"];
/**
 * Tools by slug, each with the body it takes and the `outputs` it answers: what `toolrun-types`
 * writes for a deployment (`export interface Tools`), given to `createToolrunClient<Tools>`.
 */
export type ToolTypes<Tools> = {
    readonly [S in keyof Tools]: {
        readonly input: object;
        readonly outputs: object;
    };
};
/** The built-in tools, the types a client knows with no generated ones. */
export type BuiltInTools = {
    [S in ToolSlug]: {
        input: ToolInput<S>;
        outputs: ToolEnvelope<S>["outputs"];
    };
};
/** The answer `callTool(slug)` gives: a built-in tool's own, a tool of `Tools` with its outputs, else `Outputs`. */
export type CallAnswer<Tools extends ToolTypes<Tools>, S extends string, Outputs> = S extends keyof Tools ? S extends ToolSlug ? ToolEnvelope<S> : CallResult<Tools[S]["outputs"]> : CallResult<Outputs>;
/** A tool call's answer, with these `outputs`. */
export type CallResult<Outputs> = Omit<NonNullable<paths["/v1/tool/{slug}"]["post"]>["responses"][200]["content"]["application/json"], "outputs"> & {
    outputs: Outputs;
};
type Json<P extends keyof paths> = paths[P]["get"] extends {
    responses: {
        200: {
            content: {
                "application/json": infer T;
            };
        };
    };
} ? T : never;
export type ToolList = Json<"/v1/tools/list">;
export type ToolSearch = Json<"/v1/tools/search">;
export type ToolDescription = Json<"/v1/tool/{slug}">;
export type Credits = Json<"/v1/me/credits">;
/** One page of `/v1/me/usage`: the month's totals and a page of the most recent calls. */
export type UsagePage = Json<"/v1/me/usage">;
/** A new capture: `url` is where the provider sends its webhooks, shown only this once. */
export type CreatedCapture = NonNullable<paths["/v1/captures"]["post"]>["responses"][201]["content"]["application/json"];
export type CaptureList = Json<"/v1/captures">;
/** One page of the requests a capture caught, newest first; each `raw` is the inspector's `payload`. */
export type CapturedRequests = Json<"/v1/captures/{id}/requests">;
/** A job: a call answered 202 at once, its `result` (the envelope) or `problem` once it ended. */
export type Job = Json<"/v1/jobs/{id}">;
/** One page of the account's jobs, newest first. */
export type JobList = Json<"/v1/jobs">;
export interface WaitOptions {
    /** Stops waiting (rejecting with its reason); the job goes on: cancel it with `cancelJob`. */
    readonly signal?: AbortSignal;
    /** Between two reads of the job (default 1000 ms, or the 202's `Retry-After`). */
    readonly intervalMs?: number;
}
export interface CallOptions extends RequestOptions {
    /**
     * The `Idempotency-Key` to send, reused by the client's own retries (default: a fresh random
     * UUID per call). Give your own to send a call again after a timeout or a crash: the service runs
     * and charges it once and answers the retry with the first answer (a 200 or 422; after a 500 the
     * retry runs the tool again).
     */
    readonly idempotencyKey?: string;
}
export interface UsagePagesOptions extends RequestOptions {
    /** Most recent calls per page (the service's default when not given). `timeoutMs` is per page. */
    readonly limit?: number;
}
export interface ToolrunClientOptions extends RetryOptions {
    /** The service's address, e.g. `https://toolrun.example.com`. */
    readonly baseUrl: string;
    readonly apiKey: string;
    /** A fresh key per tool call that is given none (default crypto.randomUUID). */
    readonly idempotencyKey?: () => string;
}
/**
 * A client for the service. `Tools` types `callTool` by slug: the built-in tools by default, or a
 * deployment's as `toolrun-types` writes them. A slug it does not know is typed by the call:
 * `callTool<Outputs>(slug, input)`, its outputs `Record<string, unknown>` when not given.
 */
export declare function createToolrunClient<Tools extends ToolTypes<Tools> = BuiltInTools>(options: ToolrunClientOptions): {
    /** The typed openapi-fetch client for any endpoint of the document, with the same retries. */
    api: import("openapi-fetch").Client<paths, `${string}/${string}`>;
    /**
     * Runs a tool; one Idempotency-Key for the call, reused by every retry of it. A slug of `Tools`
     * takes and answers its own types; any other takes an object and answers `Outputs`.
     */
    callTool<Outputs extends object = Record<string, unknown>, S extends string = string>(slug: S, input: S extends keyof Tools ? Tools[S]["input"] : Record<string, unknown>, call?: CallOptions): Promise<CallAnswer<Tools, S, Outputs>>;
    /**
     * Starts the call as a job (`Prefer: respond-async`; a tool whose `jobs` is `required` always
     * runs as one): the job, its credits held. One Idempotency-Key for the call, as `callTool`: a
     * retry gives the same job.
     */
    startJob(slug: string, input: Record<string, unknown>, call?: CallOptions): Promise<Job>;
    /** The job as it is now. */
    job(id: string, limits?: RequestOptions): Promise<Job>;
    /** Cancels a queued or running job (its credits go back); answers the job after. */
    cancelJob(id: string, limits?: RequestOptions): Promise<Job>;
    /** One page of the account's jobs, newest first (`status` keeps one status). */
    listJobs(page?: {
        limit?: number;
        cursor?: string;
        status?: Job["status"];
    }, limits?: RequestOptions): Promise<JobList>;
    /** Reads the job until it ended (succeeded, failed or canceled) and answers it. */
    waitForJob(id: string, wait?: WaitOptions): Promise<Job>;
    listTools(limits?: RequestOptions): Promise<ToolList>;
    searchTools(q: string, limit?: number, limits?: RequestOptions): Promise<ToolSearch>;
    describeTool(slug: string, limits?: RequestOptions): Promise<ToolDescription>;
    getCredits(limits?: RequestOptions): Promise<Credits>;
    /** One page of usage; pass the previous page's `next_cursor` as `cursor` for the next. */
    getUsage: (page?: {
        limit?: number;
        cursor?: string;
    }, limits?: RequestOptions) => Promise<UsagePage>;
    /** A new capture, for this account: paste its `url` into the provider's dashboard. */
    createCapture(limits?: RequestOptions): Promise<CreatedCapture>;
    /** This account's live captures, newest first. */
    listCaptures(limits?: RequestOptions): Promise<CaptureList>;
    /**
     * One page of what the capture caught, newest first; pass `next_cursor` as `cursor` for the
     * next. Inspect one with `callTool("webhook-payload-inspector", { payload: request.raw })`.
     */
    getCapturedRequests(id: string, page?: {
        limit?: number;
        cursor?: string;
    }, limits?: RequestOptions): Promise<CapturedRequests>;
    deleteCapture(id: string, limits?: RequestOptions): Promise<{
        id: string;
        deleted: true;
    }>;
    /**
     * Every page of this month's usage, newest calls first, following `next_cursor` until the last:
     * `for await (const page of toolrun.usagePages({ limit: 100 })) for (const call of page.recent) ...`
     */
    usagePages(pages?: UsagePagesOptions): AsyncGenerator<UsagePage, void, undefined>;
};
export type ToolrunClient = ReturnType<typeof createToolrunClient>;
