/**
 * The RateLimiter port on PostgreSQL, for scale-out without Redis: one atomic upsert per hit on
 * the UNLOGGED `rate_windows` table (created by the store's migrations), so concurrent hits from
 * any number of instances each get their own count. Expired windows are pruned now and then
 * (at most once per `pruneIntervalMs` per instance), never on the request path's critical work.
 *
 * Pool sharing: pass `{ pool: store.pool }` to reuse the PostgresStore's connections; the limiter
 * then never ends that pool (the store does). Pass connection options instead (`{ url, schema? }`)
 * and the limiter opens and ends its own pool.
 */
import type { Pool } from "pg";
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { run, statement } from "./db.ts";
import { createPostgresPool, type PostgresConnectionOptions } from "./pool.ts";

interface PruneOptions {
  /** Least time between two prunes of expired windows by this instance (default 60000). */
  readonly pruneIntervalMs?: number;
}

export type PostgresRateLimiterOptions =
  | (PruneOptions & { readonly pool: Pool })
  | (PruneOptions & PostgresConnectionOptions);

const HIT = statement(
  "rl_hit",
  `INSERT INTO rate_windows (key, window_start, expires_at, count) VALUES ($1, $2, $3, 1)
   ON CONFLICT (key, window_start) DO UPDATE SET count = rate_windows.count + 1
   RETURNING count`,
);
const PRUNE = statement("rl_prune", "DELETE FROM rate_windows WHERE expires_at < $1");
const PING = statement("rl_ping", "SELECT 1");

/** Windows are kept this long past their end, so a hit from a slightly slow clock still counts. */
const PRUNE_GRACE_MS = 5_000;

export function createPostgresRateLimiter(options: PostgresRateLimiterOptions): RateLimiter {
  const ownsPool = !("pool" in options);
  const pool = "pool" in options ? options.pool : createPostgresPool(options);
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  let lastPrune = Date.now();
  let pruning: Promise<void> | undefined;
  let closed = false;

  function maybePrune(now: number): void {
    if (pruning || closed || now - lastPrune < pruneIntervalMs) return;
    lastPrune = now;
    // Fire and forget: a failed prune is retried next interval; the hit does not wait for it.
    pruning = run(pool, PRUNE, [now - PRUNE_GRACE_MS], "rate-limiter")
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        pruning = undefined;
      });
  }

  return {
    async hit(key, windowStartMs, windowMs) {
      const [row] = await run<{ count: number }>(
        pool,
        HIT,
        [key, windowStartMs, windowStartMs + windowMs],
        "rate-limiter",
      );
      maybePrune(Date.now());
      if (!row) throw new Error("rate window upsert returned no row");
      return row.count;
    },
    async ping() {
      await run(pool, PING, [], "rate-limiter");
    },
    async close() {
      closed = true;
      await pruning;
      if (ownsPool) await pool.end();
    },
  };
}
