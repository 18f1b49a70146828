/**
 * A TypeScript client for toolrun. Its types come from the service's OpenAPI document (generated
 * into `schema.ts` by openapi-typescript) and its requests go through openapi-fetch. On top it
 * adds what those libraries leave to the caller: retries of 429, 409 `idempotency_key_in_use` and 5xx
 * (and network failures) that honour `Retry-After` and otherwise back off exponentially with full
 * jitter (a replayed answer is final, so it is never retried), an `Idempotency-Key`
 * on every tool call that its own retries reuse, and problem documents thrown as `ToolrunError`
 * carrying the stable `code`.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths };
export type Problem = components["schemas"]["Problem"];
export type ErrorCode = Problem["code"];

/** The slugs of the tools the document describes, each with its own path. */
export type ToolSlug = {
  [P in keyof paths]: P extends `/v1/tool/${infer S}` ? (S extends "{slug}" ? never : S) : never;
}[keyof paths];
type ToolOperation<S extends ToolSlug> = NonNullable<paths[`/v1/tool/${S}`]["post"]>;
export type ToolInput<S extends ToolSlug> = NonNullable<
  ToolOperation<S>["requestBody"]
>["content"]["application/json"];
export type ToolEnvelope<S extends ToolSlug> =
  ToolOperation<S>["responses"][200]["content"]["application/json"];

type Json<P extends keyof paths> = paths[P]["get"] extends {
  responses: { 200: { content: { "application/json": infer T } } };
}
  ? T
  : never;

/** A problem document the service answered with, by its `code`. */
export class ToolrunError extends Error {
  override readonly name = "ToolrunError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.code}: ${problem.detail ?? problem.title}`);
    this.code = problem.code;
    this.status = problem.status;
    this.problem = problem;
  }
}

export interface ToolrunClientOptions {
  /** The service's address, e.g. `https://toolrun.example.com`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Retries after the first attempt (default 3). */
  readonly maxRetries?: number;
  /** First backoff step when the answer gives no `Retry-After` (default 250 ms); doubles each retry. */
  readonly baseDelayMs?: number;
  /** Largest backoff step (default 20 s). */
  readonly maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown (default 120 s). */
  readonly maxRetryAfterMs?: number;
  readonly fetch?: (request: Request) => Promise<Response>;
  /** How to wait; tests pass their own. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** In [0, 1): the jitter's source (default Math.random). */
  readonly random?: () => number;
  /** A fresh key per tool call (default crypto.randomUUID). */
  readonly idempotencyKey?: () => string;
}

export function createToolrunClient(options: ToolrunClientOptions) {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: retrying(options),
  });
  const newKey = options.idempotencyKey ?? (() => globalThis.crypto.randomUUID());

  return {
    /** The typed openapi-fetch client for any endpoint of the document, with the same retries. */
    api,

    /** Runs a tool; one Idempotency-Key for the call, reused by every retry of it. */
    async callTool<S extends ToolSlug>(slug: S, input: ToolInput<S>): Promise<ToolEnvelope<S>> {
      const { data, error, response } = await api.POST("/v1/tool/{slug}", {
        params: { path: { slug } },
        body: input as never,
        headers: { "idempotency-key": newKey() },
      });
      return ok(data, error, response) as ToolEnvelope<S>;
    },
    async listTools(): Promise<Json<"/v1/tools/list">> {
      const { data, error, response } = await api.GET("/v1/tools/list");
      return ok(data, error, response);
    },
    async searchTools(q: string, limit?: number): Promise<Json<"/v1/tools/search">> {
      const query = limit === undefined ? { q } : { q, limit };
      const { data, error, response } = await api.GET("/v1/tools/search", { params: { query } });
      return ok(data, error, response);
    },
    async describeTool(slug: string): Promise<Json<"/v1/tool/{slug}">> {
      const { data, error, response } = await api.GET("/v1/tool/{slug}", { params: { path: { slug } } });
      return ok(data, error, response);
    },
    async getCredits(): Promise<Json<"/v1/me/credits">> {
      const { data, error, response } = await api.GET("/v1/me/credits");
      return ok(data, error, response);
    },
    async getUsage(page: { limit?: number; cursor?: string } = {}): Promise<Json<"/v1/me/usage">> {
      const { data, error, response } = await api.GET("/v1/me/usage", { params: { query: page } });
      return ok(data, error, response);
    },
  };
}

export type ToolrunClient = ReturnType<typeof createToolrunClient>;

function ok<T>(data: T | undefined, error: unknown, response: Response): T {
  if (response.ok && data !== undefined) return data;
  if (isProblem(error)) throw new ToolrunError(error);
  throw new ToolrunError({
    type: "about:blank",
    title: response.statusText || "Unexpected answer",
    status: response.status,
    code: response.status >= 500 ? "internal_error" : "validation_error",
    detail: `The service answered ${response.status} without a problem document.`,
  });
}

function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && typeof (value as Problem).code === "string";
}

/**
 * A fetch that retries 429, 409 (the same key's first request still running), 5xx and network
 * failures, waiting as the answer says or backing off. An answer marked `Idempotent-Replayed` is the
 * stored answer of the call, which every retry would get again.
 */
function retrying(options: ToolrunClientOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const maxRetries = options.maxRetries ?? 3;
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 20_000;
  const maxRetryAfter = options.maxRetryAfterMs ?? 120_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;

  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        // Each attempt sends a copy: the body of a sent request cannot be read again.
        response = await send(request.clone());
      } catch (error) {
        failure = error;
      }
      if (
        response !== undefined &&
        (isFinal(response) || response.headers.get("idempotent-replayed") === "true")
      )
        return response;
      const told = response === undefined ? undefined : retryAfterMs(response.headers.get("retry-after"));
      const wait = told ?? Math.floor(random() * Math.min(cap, base * 2 ** attempt));
      if (attempt >= maxRetries || wait > maxRetryAfter) {
        if (response !== undefined) return response;
        throw failure;
      }
      await response?.body?.cancel();
      await sleep(wait);
    }
  };
}

function isFinal(response: Response): boolean {
  return response.status !== 409 && response.status !== 429 && response.status < 500;
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
