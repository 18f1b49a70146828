/**
 * A TypeScript client for toolrun. Its types come from the service's OpenAPI document (generated
 * into `schema.ts` by openapi-typescript) and its requests go through openapi-fetch. On top it
 * adds what those libraries leave to the caller: retries that honour `Retry-After` (retrying.ts),
 * an `Idempotency-Key` on every tool call that its own retries reuse, per-call abort signals and
 * deadlines (limits.ts), problem documents thrown as `ToolrunError` carrying the stable `code`, an
 * async iterator over the pages of `/v1/me/usage`, and the captures that catch real webhook
 * deliveries.
 */
import createClient from "openapi-fetch";
import { ToolrunError } from "./errors.js";
import { withinLimits } from "./limits.js";
import { retrying } from "./retrying.js";
export { ToolrunError, ToolrunTimeoutError } from "./errors.js";
export { schemaType, toolTypesModule } from "./tool-types.js";
const ENDED = new Set(["succeeded", "failed", "canceled"]);
/**
 * A client for the service. `Tools` types `callTool` by slug: the built-in tools by default, or a
 * deployment's as `toolrun-types` writes them. A slug it does not know is typed by the call:
 * `callTool<Outputs>(slug, input)`, its outputs `Record<string, unknown>` when not given.
 */
export function createToolrunClient(options) {
    const api = createClient({
        baseUrl: options.baseUrl.replace(/\/+$/, ""),
        headers: { authorization: `Bearer ${options.apiKey}` },
        fetch: retrying(options),
    });
    const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());
    const getUsage = (page = {}, limits = {}) => withinLimits(limits, async (signal) => ok(await api.GET("/v1/me/usage", { params: { query: page }, signal })));
    return {
        /** The typed openapi-fetch client for any endpoint of the document, with the same retries. */
        api,
        /**
         * Runs a tool; one Idempotency-Key for the call, reused by every retry of it. A slug of `Tools`
         * takes and answers its own types; any other takes an object and answers `Outputs`.
         */
        callTool(slug, input, call = {}) {
            const idempotencyKey = call.idempotencyKey ?? newKey();
            return withinLimits(call, async (signal) => ok(await api.POST("/v1/tool/{slug}", {
                params: { path: { slug } },
                body: input,
                headers: { "idempotency-key": idempotencyKey },
                signal,
            })));
        },
        /**
         * Starts the call as a job (`Prefer: respond-async`; a tool whose `jobs` is `required` always
         * runs as one): the job, its credits held. One Idempotency-Key for the call, as `callTool`: a
         * retry gives the same job.
         */
        startJob(slug, input, call = {}) {
            const idempotencyKey = call.idempotencyKey ?? newKey();
            return withinLimits(call, async (signal) => {
                const answer = await api.POST("/v1/tool/{slug}", {
                    params: { path: { slug } },
                    body: input,
                    headers: { "idempotency-key": idempotencyKey, prefer: "respond-async" },
                    signal,
                });
                if (answer.response.status !== 202 && answer.response.ok)
                    throw new ToolrunError({
                        type: "about:blank",
                        title: "The tool does not run as a job",
                        status: answer.response.status,
                        code: "validation_error",
                        detail: `"${slug}" answered synchronously: its jobs is "no". Use callTool.`,
                    });
                return ok(answer);
            });
        },
        /** The job as it is now. */
        job(id, limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/jobs/{id}", { params: { path: { id } }, signal })));
        },
        /** Cancels a queued or running job (its credits go back); answers the job after. */
        cancelJob(id, limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.POST("/v1/jobs/{id}/cancel", { params: { path: { id } }, signal })));
        },
        /** One page of the account's jobs, newest first (`status` keeps one status). */
        listJobs(page = {}, limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/jobs", { params: { query: page }, signal })));
        },
        /** Reads the job until it ended (succeeded, failed or canceled) and answers it. */
        async waitForJob(id, wait = {}) {
            const { signal, intervalMs = 1000 } = wait;
            for (;;) {
                signal?.throwIfAborted();
                const job = await withinLimits(signal ? { signal } : {}, async (request) => ok(await api.GET("/v1/jobs/{id}", { params: { path: { id } }, signal: request })));
                if (ENDED.has(job.status))
                    return job;
                await pause(intervalMs, signal);
            }
        },
        listTools(limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/tools/list", { signal })));
        },
        searchTools(q, limit, limits = {}) {
            const query = limit === undefined ? { q } : { q, limit };
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/tools/search", { params: { query }, signal })));
        },
        describeTool(slug, limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/tool/{slug}", { params: { path: { slug } }, signal })));
        },
        getCredits(limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/me/credits", { signal })));
        },
        /** One page of usage; pass the previous page's `next_cursor` as `cursor` for the next. */
        getUsage,
        /** A new capture, for this account: paste its `url` into the provider's dashboard. */
        createCapture(limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.POST("/v1/captures", { signal })));
        },
        /** This account's live captures, newest first. */
        listCaptures(limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/captures", { signal })));
        },
        /**
         * One page of what the capture caught, newest first; pass `next_cursor` as `cursor` for the
         * next. Inspect one with `callTool("webhook-payload-inspector", { payload: request.raw })`.
         */
        getCapturedRequests(id, page = {}, limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.GET("/v1/captures/{id}/requests", { params: { path: { id }, query: page }, signal })));
        },
        deleteCapture(id, limits = {}) {
            return withinLimits(limits, async (signal) => ok(await api.DELETE("/v1/captures/{id}", { params: { path: { id } }, signal })));
        },
        /**
         * Every page of this month's usage, newest calls first, following `next_cursor` until the last:
         * `for await (const page of toolrun.usagePages({ limit: 100 })) for (const call of page.recent) ...`
         */
        async *usagePages(pages = {}) {
            const { limit, ...limits } = pages;
            let cursor;
            do {
                const page = await getUsage({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }, limits);
                yield page;
                cursor = page.next_cursor ?? undefined;
            } while (cursor !== undefined);
        },
    };
}
/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms, signal) {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(done, ms);
        function done() {
            signal?.removeEventListener("abort", aborted);
            resolve();
        }
        function aborted() {
            clearTimeout(timer);
            reject(signal?.reason);
        }
        signal?.addEventListener("abort", aborted, { once: true });
    });
}
function ok({ data, error, response }) {
    if (response.ok && data !== undefined)
        return data;
    if (isProblem(error))
        throw new ToolrunError(error);
    throw new ToolrunError({
        type: "about:blank",
        title: response.statusText || "Unexpected answer",
        status: response.status,
        code: response.status >= 500 ? "internal_error" : "validation_error",
        detail: `The service answered ${response.status} without a problem document.`,
    });
}
function isProblem(value) {
    return typeof value === "object" && value !== null && typeof value.code === "string";
}
