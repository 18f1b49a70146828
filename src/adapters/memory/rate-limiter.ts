/**
 * The RateLimiter port in process memory: exact for one process, which is all the embedded
 * (SQLite) setup runs. Windows that ended are dropped as the clock moves on.
 */
import type { RateLimiter } from "../../ports/rate-limiter.ts";

interface Window {
  count: number;
  readonly endsAt: number;
}

export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, Window>();
  let latestStart = 0;
  return {
    async hit(key, windowStartMs, windowMs, slots = 1, limit = Number.POSITIVE_INFINITY) {
      if (windowStartMs > latestStart) {
        // A window has started at or after this one's end: the clock has passed it for good.
        // Windows differ in length (a key's minute, a registration's hour), so each keeps its end.
        for (const [id, window] of windows) if (window.endsAt <= windowStartMs) windows.delete(id);
        latestStart = windowStartMs;
      }
      const id = `${windowStartMs}|${windowMs}|${key}`;
      const window = windows.get(id);
      const count = (window?.count ?? 0) + slots;
      if (count <= limit) {
        if (window) window.count = count;
        else windows.set(id, { count, endsAt: windowStartMs + windowMs });
      }
      return count;
    },
    async ping() {},
    async close() {
      windows.clear();
    },
  };
}
