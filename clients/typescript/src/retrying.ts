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

export function retrying(options: RetryOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const maxRetries = options.maxRetries ?? 3;
  const base = options.baseDelayMs ?? 250;
  const cap = options.maxDelayMs ?? 20_000;
  const maxRetryAfter = options.maxRetryAfterMs ?? 120_000;
  const sleep = options.sleep ?? pause;
  const random = options.random ?? Math.random;

  return async (request) => {
    const { signal } = request;
    for (let attempt = 0; ; attempt++) {
      signal.throwIfAborted();
      let response: Response | undefined;
      let failure: unknown;
      try {
        // Each attempt sends a copy: the body of a sent request cannot be read again.
        response = await send(request.clone());
      } catch (error) {
        // An aborted call is over; only a failure of the network is worth another attempt.
        signal.throwIfAborted();
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
      await sleep(wait, signal);
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

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
