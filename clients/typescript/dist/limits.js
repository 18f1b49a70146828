/** A call's own limits: the caller's abort signal and a deadline for the whole call. */
import { ToolrunTimeoutError } from "./errors.js";
/** Largest delay a timer takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;
/** Runs `request` with one signal that aborts when the caller's does or when `timeoutMs` has passed. */
export async function withinLimits(options, request) {
    const { signal, timeoutMs } = options;
    if (timeoutMs === undefined)
        return request(signal);
    if (!(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS))
        throw new RangeError(`timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${timeoutMs}`);
    signal?.throwIfAborted();
    const call = new AbortController();
    const timeout = new ToolrunTimeoutError(timeoutMs);
    const timer = setTimeout(() => call.abort(timeout), timeoutMs);
    const follow = () => call.abort(signal?.reason);
    signal?.addEventListener("abort", follow, { once: true });
    try {
        return await request(call.signal);
    }
    catch (error) {
        // Whatever broke off once the deadline passed (the fetch, the wait, reading the body) was it.
        throw call.signal.reason === timeout ? timeout : error;
    }
    finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", follow);
    }
}
