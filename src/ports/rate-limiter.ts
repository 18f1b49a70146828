/**
 * The rate-limit port: fixed windows counted per key. Implemented in memory (one process), in
 * Redis and in PostgreSQL (shared by instances); all pass test/contracts/rate-limiter.contract.ts.
 */

export interface RateLimiter {
  /**
   * Counts one hit for `key` in the window that starts at `windowStartMs` and lasts `windowMs`,
   * atomically, and returns the window's count including this hit. Hits past the limit count too.
   */
  hit(key: string, windowStartMs: number, windowMs: number): Promise<number>;
  /** Throws when the backend cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
