/**
 * Outward HTTP for the tools declared as data: one request, one result. Every way the exchange can
 * end is a result, never a rejection, so the tool maps each to its answer; what the result carries
 * is what the upstream did (its status, how it failed), never the request's header values.
 */

export type UpstreamMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface UpstreamRequest {
  readonly url: string;
  readonly method: UpstreamMethod;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text; absent for GET and DELETE. */
  readonly body?: string | undefined;
  /** How long the whole exchange, the body read included, may take. */
  readonly timeoutMs: number;
  /** A response body larger than this is not read past it. */
  readonly maxResponseBytes: number;
  /** Ends the exchange early (the call's client went away). */
  readonly signal?: AbortSignal | undefined;
}

/** Why no response came: the connection was refused, reset or closed, the host is unknown, or else. */
export type UnreachableReason = "refused" | "reset" | "unknown_host" | "other";

export type UpstreamResult =
  /** The whole response; redirects are answers like any other, never followed. */
  | {
      readonly kind: "response";
      readonly status: number;
      readonly body: Buffer;
      /** The response's `Retry-After`, when it sent one (webhook deliveries honour it). */
      readonly retryAfter?: string;
    }
  /** The response's body is larger than `maxResponseBytes`: reading stopped there. */
  | { readonly kind: "too_large"; readonly status: number }
  | { readonly kind: "timeout" }
  /** `signal` fired first. */
  | { readonly kind: "aborted" }
  /** `code` is the system's or the HTTP client's error code, for logs. */
  | { readonly kind: "unreachable"; readonly reason: UnreachableReason; readonly code: string };

export interface Upstream {
  send(request: UpstreamRequest): Promise<UpstreamResult>;
}
