/**
 * A bound on how long a caller waits for a backend. The drivers' own timeouts start when a command
 * goes out, which can be well after the caller asked (a command queued behind a stalled one, a
 * pool wait before a statement): this one starts when the caller asks.
 */

/**
 * Settles as `work` does, or rejects with `late()` at `deadline` (ms since the epoch) if `work` has
 * not settled by then; `work` is left to finish on its own. Never before the wall clock reaches
 * the deadline: Node's timers keep a millisecond clock of their own and can fire up to a
 * millisecond early, and a backend that compares the deadline with its wall clock would then
 * count work whose caller had already given up.
 */
export function byDeadline<T>(work: Promise<T>, deadline: number, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const expire = () => {
      const left = deadline - Date.now();
      if (left > 0) timer = setTimeout(expire, left);
      else reject(late());
    };
    let timer = setTimeout(expire, Math.max(0, deadline - Date.now()));
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
