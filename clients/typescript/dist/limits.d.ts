export interface RequestOptions {
    /** Aborts the request, its retries and the waits between them; it rejects with the signal's reason. */
    readonly signal?: AbortSignal;
    /**
     * Longest time for the whole request, its retries and waits included; past it, it rejects with
     * `ToolrunTimeoutError`.
     */
    readonly timeoutMs?: number;
}
/** Runs `request` with one signal that aborts when the caller's does or when `timeoutMs` has passed. */
export declare function withinLimits<T>(options: RequestOptions, request: (signal: AbortSignal | undefined) => Promise<T>): Promise<T>;
