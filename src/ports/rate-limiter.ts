/**
 * The rate-limit port: fixed windows counted per key. Implemented in memory (one process), in
 * Redis and in PostgreSQL (shared by instances); all pass test/contracts/rate-limiter.contract.ts.
 */

export interface RateLimiter {
  /**
   * Counts `slots` hits (default 1) for `key` in the window that starts at `windowStartMs` and lasts
   * `windowMs`, atomically, unless they would take the window's count past `limit` (default none):
   * then it counts none of them. Returns the window's count with these hits when they were
   * counted, and a number above `limit` when they were not: the count they would have made, as
   * far as the adapter saw it. A batch of requests takes its slots in one call, all or none.
   */
  hit(key: string, windowStartMs: number, windowMs: number, slots?: number, limit?: number): Promise<number>;
  /** Throws when the backend cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
