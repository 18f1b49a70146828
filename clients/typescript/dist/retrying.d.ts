/**
 * A fetch that retries 429, 409 (the same key's first request still running), 5xx and network
 * failures, waiting as the answer says or backing off exponentially with full jitter. An answer
 * marked `Idempotent-Replayed` is the stored answer of the call, which every retry would get again,
 * so it is final. The request's signal ends the attempts and the waits between them.
 */
export interface RetryOptions {
    /** Retries after the first attempt (default 3). */
    readonly maxRetries?: number;
    /** First backoff step when the answer gives no `Retry-After` (default 250 ms); doubles each retry. */
    readonly baseDelayMs?: number;
    /** Largest backoff step (default 20 s). */
    readonly maxDelayMs?: number;
    /** A `Retry-After` longer than this is not waited for: the error is thrown (default 120 s). */
    readonly maxRetryAfterMs?: number;
    readonly fetch?: (request: Request) => Promise<Response>;
    /** How to wait; tests pass their own. It should end early, rejecting, when `signal` aborts. */
    readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
    /** In [0, 1): the jitter's source (default Math.random). */
    readonly random?: () => number;
}
export declare function retrying(options: RetryOptions): (request: Request) => Promise<Response>;
