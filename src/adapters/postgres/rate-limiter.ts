/**
 * The RateLimiter port on PostgreSQL, for scale-out without Redis: one atomic upsert per hit on
 * the UNLOGGED `rate_windows` table (created by the store's migrations), conditional on the
 * window's limit, so concurrent hits from any number of instances each get their own count.
 * Expired windows are pruned now and then (at most once per `pruneIntervalMs` per instance), never
 * on the request path's critical work.
 *
 * A hit is answered within `timeoutMs` of being asked for, pool wait included; past that it
 * rejects with BackendUnavailableError, and the upsert, carrying the same deadline, counts nothing
 * if it reaches PostgreSQL later (it sat in a stalled connection): a slot is taken only by a
 * request answered after taking it. The deadline is compared on PostgreSQL's clock, so the two
 * clocks must agree (NTP) to well within the timeout.
 *
 * Pool sharing: pass `{ pool: store.pool }` to reuse the PostgresStore's connections; the limiter
 * then never ends that pool (the store does). Pass connection options instead (`{ url, schema? }`)
 * and the limiter opens and ends its own pool.
 */
import type { Pool } from "pg";
import { DEFAULT_BACKEND_TIMEOUT_MS } from "../../ports/defaults.ts";
import { BackendUnavailableError } from "../../ports/errors.ts";
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { byDeadline } from "../deadline.ts";
import { run, statement } from "./db.ts";
import { createPostgresPool, type PostgresConnectionOptions } from "./pool.ts";

interface LimiterOptions {
  /** Least time between two prunes of expired windows by this instance (default 60000). */
  readonly pruneIntervalMs?: number;
  /** Longest wait for one hit or ping, from when it is asked for (default: the pool's query timeout, DEFAULT_BACKEND_TIMEOUT_MS). */
  readonly timeoutMs?: number;
}

export type PostgresRateLimiterOptions =
  | (LimiterOptions & { readonly pool: Pool })
  | (LimiterOptions & PostgresConnectionOptions);

// $4: the hit's deadline, ms since the epoch; a hit arriving later inserts and updates nothing.
// $5: the slots to take; $6: the window's limit (null for none): slots that would pass it are not
// counted. `counted` is the new count, null when nothing was counted; then `counted_before` and
// `in_time` tell a refusal (the count it found) from a late arrival.
const HIT = statement(
  "rl_hit",
  `WITH hit AS (
     INSERT INTO rate_windows (key, window_start, expires_at, count)
     SELECT $1, $2, $3, $5::integer
     WHERE extract(epoch FROM clock_timestamp()) * 1000 < $4::bigint
       AND ($6::bigint IS NULL OR $5::integer <= $6::bigint)
     ON CONFLICT (key, window_start) DO UPDATE SET count = rate_windows.count + $5::integer
       WHERE $6::bigint IS NULL OR rate_windows.count + $5::integer <= $6::bigint
     RETURNING count
   )
   SELECT (SELECT count FROM hit) AS counted,
          coalesce((SELECT count FROM rate_windows WHERE key = $1 AND window_start = $2), 0) AS counted_before,
          extract(epoch FROM clock_timestamp()) * 1000 < $4::bigint AS in_time`,
);
const PRUNE = statement("rl_prune", "DELETE FROM rate_windows WHERE expires_at < $1");
const PING = statement("rl_ping", "SELECT 1");

/** Windows are kept this long past their end, so a hit from a slightly slow clock still counts. */
const PRUNE_GRACE_MS = 5_000;

export function createPostgresRateLimiter(options: PostgresRateLimiterOptions): RateLimiter {
  const ownsPool = !("pool" in options);
  const pool = "pool" in options ? options.pool : createPostgresPool(options);
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const timeoutMs =
    options.timeoutMs ??
    ("pool" in options ? undefined : options.queryTimeoutMs) ??
    DEFAULT_BACKEND_TIMEOUT_MS;
  /** Runs `query`, answering by `deadline` at the latest. */
  const bounded = <T>(query: Promise<T>, deadline: number) =>
    byDeadline(
      query,
      deadline,
      () => new BackendUnavailableError("rate-limiter", new Error(`no answer within ${timeoutMs} ms`)),
    );
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
    async hit(key, windowStartMs, windowMs, slots = 1, limit = Number.POSITIVE_INFINITY) {
      const deadline = Date.now() + timeoutMs;
      const [row] = await bounded(
        run<{ counted: number | null; counted_before: number; in_time: boolean }>(
          pool,
          HIT,
          [
            key,
            windowStartMs,
            windowStartMs + windowMs,
            deadline,
            slots,
            Number.isFinite(limit) ? limit : null,
          ],
          "rate-limiter",
        ),
        deadline,
      );
      maybePrune(Date.now());
      if (row?.counted != null) return Number(row.counted);
      if (!row?.in_time)
        throw new BackendUnavailableError(
          "rate-limiter",
          new Error("the hit reached PostgreSQL after its deadline"),
        );
      // Refused. The count it found is as of the statement's snapshot, which may predate the hits
      // it then waited for: the answer says "refused" (past the limit) whatever that count was.
      return Math.max(Number(row.counted_before) + slots, limit + 1);
    },
    async ping() {
      await bounded(run(pool, PING, [], "rate-limiter"), Date.now() + timeoutMs);
    },
    async close() {
      closed = true;
      await pruning;
      if (ownsPool) await pool.end();
    },
  };
}
