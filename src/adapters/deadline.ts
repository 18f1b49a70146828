/**
 * A bound on how long a caller waits for a backend. The drivers' own timeouts start when a command
 * goes out, which can be well after the caller asked (a command queued behind a stalled one, a
 * pool wait before a statement): this one starts when the caller asks.
 */

/**
 * Settles as `work` does, or rejects with `late()` at `deadline` (ms since the epoch) if `work` has
 * not settled by then; `work` is left to finish on its own.
 */
export function byDeadline<T>(work: Promise<T>, deadline: number, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), Math.max(0, deadline - Date.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
