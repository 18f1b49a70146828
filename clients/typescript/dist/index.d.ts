import { type RequestOptions } from "./limits.js";
import { type RetryOptions } from "./retrying.js";
import type { components, paths } from "./schema.js";
export { type ErrorCode, type Problem, ToolrunError, ToolrunTimeoutError } from "./errors.js";
export type { RequestOptions } from "./limits.js";
export type { RetryOptions } from "./retrying.js";
export type { components, paths };
/** The slugs of the tools the document describes, each with its own path. */
export type ToolSlug = {
    [P in keyof paths]: P extends `/v1/tool/${infer S}` ? (S extends "{slug}" ? never : S) : never;
}[keyof paths];
type ToolOperation<S extends ToolSlug> = NonNullable<paths[`/v1/tool/${S}`]["post"]>;
export type ToolInput<S extends ToolSlug> = NonNullable<ToolOperation<S>["requestBody"]>["content"]["application/json"];
export type ToolEnvelope<S extends ToolSlug> = ToolOperation<S>["responses"][200]["content"]["application/json"];
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
export declare function createToolrunClient(options: ToolrunClientOptions): {
    /** The typed openapi-fetch client for any endpoint of the document, with the same retries. */
    api: import("openapi-fetch").Client<paths, `${string}/${string}`>;
    /** Runs a tool; one Idempotency-Key for the call, reused by every retry of it. */
    callTool<S extends ToolSlug>(slug: S, input: ToolInput<S>, call?: CallOptions): Promise<ToolEnvelope<S>>;
    listTools(limits?: RequestOptions): Promise<ToolList>;
    searchTools(q: string, limit?: number, limits?: RequestOptions): Promise<ToolSearch>;
    describeTool(slug: string, limits?: RequestOptions): Promise<ToolDescription>;
    getCredits(limits?: RequestOptions): Promise<Credits>;
    /** One page of usage; pass the previous page's `next_cursor` as `cursor` for the next. */
    getUsage: (page?: {
        limit?: number;
        cursor?: string;
    }, limits?: RequestOptions) => Promise<UsagePage>;
    /**
     * Every page of this month's usage, newest calls first, following `next_cursor` until the last:
     * `for await (const page of toolrun.usagePages({ limit: 100 })) for (const call of page.recent) ...`
     */
    usagePages(pages?: UsagePagesOptions): AsyncGenerator<UsagePage, void, undefined>;
};
export type ToolrunClient = ReturnType<typeof createToolrunClient>;
