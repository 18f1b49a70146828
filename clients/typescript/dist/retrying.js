/**
 * A fetch that retries 429, 409 (the same key's first request still running), 5xx and network
 * failures, waiting as the answer says or backing off exponentially with full jitter. An answer
 * marked `Idempotent-Replayed` is the stored answer of the call, which every retry would get again,
 * so it is final. The request's signal ends the attempts and the waits between them.
 */
export function retrying(options) {
    const send = options.fetch ?? ((request) => globalThis.fetch(request));
    const maxRetries = options.maxRetries ?? 3;
    const base = options.baseDelayMs ?? 250;
    const cap = options.maxDelayMs ?? 20_000;
    const maxRetryAfter = options.maxRetryAfterMs ?? 120_000;
    const sleep = options.sleep ?? pause;
    const random = options.random ?? Math.random;
    return async (request) => {
        const { signal } = request;
        for (let attempt = 0;; attempt++) {
            signal.throwIfAborted();
            let response;
            let failure;
            try {
                // Each attempt sends a copy: the body of a sent request cannot be read again.
                response = await send(request.clone());
            }
            catch (error) {
                // An aborted call is over; only a failure of the network is worth another attempt.
                signal.throwIfAborted();
                failure = error;
            }
            if (response !== undefined &&
                (isFinal(response) || response.headers.get("idempotent-replayed") === "true"))
                return response;
            const told = response === undefined ? undefined : retryAfterMs(response.headers.get("retry-after"));
            const wait = told ?? Math.floor(random() * Math.min(cap, base * 2 ** attempt));
            if (attempt >= maxRetries || wait > maxRetryAfter) {
                if (response !== undefined)
                    return response;
                throw failure;
            }
            await response?.body?.cancel();
            await sleep(wait, signal);
        }
    };
}
function isFinal(response) {
    return response.status !== 409 && response.status !== 429 && response.status < 500;
}
/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds. */
function retryAfterMs(header) {
    if (header === null || header.trim() === "")
        return undefined;
    if (/^\d+$/.test(header.trim()))
        return Number(header.trim()) * 1000;
    const at = Date.parse(header);
    return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal.aborted)
            return reject(signal.reason);
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
