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
