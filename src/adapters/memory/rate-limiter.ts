/**
 * The RateLimiter port in process memory: exact for one process, which is all the embedded
 * (SQLite) setup runs. Windows that ended are dropped as the clock moves on.
 */
import type { RateLimiter } from "../../ports/rate-limiter.ts";

export function createMemoryRateLimiter(): RateLimiter {
  const counts = new Map<string, number>();
  let currentWindow = 0;
  return {
    async hit(key, windowStartMs, _windowMs, slots = 1, limit = Number.POSITIVE_INFINITY) {
      if (windowStartMs > currentWindow) {
        // Fixed windows: once a newer one starts, older counts can never be asked for again.
        for (const entry of counts.keys()) {
          if (Number(entry.slice(0, entry.indexOf("|"))) < windowStartMs) counts.delete(entry);
        }
        currentWindow = windowStartMs;
      }
      const id = `${windowStartMs}|${key}`;
      const count = (counts.get(id) ?? 0) + slots;
      if (count <= limit) counts.set(id, count);
      return count;
    },
    async ping() {},
    async close() {
      counts.clear();
    },
  };
}
