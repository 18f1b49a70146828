/**
 * The RateLimiter port on Redis, shared by every instance: one Lua script per hit checks the
 * limit, does INCRBY and, on the window's first hit, PEXPIRE, atomically (Redis runs a script
 * alone, so its read and its write are one step). Keys are `${prefix}rl:${key}:${windowStartMs}`
 * and expire at the window's end plus a small margin.
 *
 * Failure behaviour: fail fast and heal. A hit or ping rejects with
 * BackendUnavailableError("rate-limiter") at most `commandTimeoutMs` after it was asked for, even
 * when it waits behind a stalled one (the hits of a turn go out as one pipeline, and the next
 * pipeline waits for the one before); ioredis keeps reconnecting (backoff capped at 1 s) and hits
 * succeed again once Redis is back. A hit whose connection drops is never replayed after
 * reconnecting (maxRetriesPerRequest 0), since it may already have been counted, and a hit that
 * reaches Redis after its caller stopped waiting is not counted (the script checks the deadline it
 * carries).
 */
import { Redis } from "ioredis";
import { DEFAULT_BACKEND_TIMEOUT_MS, DEFAULT_REDIS_PREFIX } from "../../ports/defaults.ts";
import { BackendUnavailableError } from "../../ports/errors.ts";
import type { RateLimiter } from "../../ports/rate-limiter.ts";
import { byDeadline } from "../deadline.ts";

export interface RedisRateLimiterOptions {
  /** `redis://[user:pass@]host:port[/db]` */
  readonly url: string;
  /** Prepended to every key (default DEFAULT_REDIS_PREFIX); tests use a unique one. */
  readonly prefix?: string;
  /** Longest wait for one hit or ping, from when it is asked for (default DEFAULT_BACKEND_TIMEOUT_MS). */
  readonly commandTimeoutMs?: number;
  /** Shown in CLIENT LIST (default `toolrun-rate-limiter`). */
  readonly connectionName?: string;
  /** Receives connection errors while ioredis reconnects; for logging only. */
  readonly onError?: (err: Error) => void;
}

/** Kept past the window's end so a hit from a slightly slow clock still finds its count. */
const EXPIRY_MARGIN_MS = 1_000;

// KEYS[1] the window's key; ARGV[1] its time to live in ms; ARGV[2] the hit's deadline (ms since
// the epoch); ARGV[3] the slots to take; ARGV[4] the window's limit, -1 for none. The TTL is
// computed by the caller from the same clock that chose the window. The deadline is when the caller
// stops waiting and answers 503: a hit that reaches Redis later (it sat in a stalled connection or
// the offline queue) is not counted, and returns -1. That comparison uses Redis's clock, so the two
// clocks must agree (NTP) to within the command timeout. Slots that would pass the limit are not
// counted either; the count they would have made is returned.
const HIT_SCRIPT = `
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) >= tonumber(ARGV[2]) then
  return -1
end
local slots = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
if limit >= 0 then
  local wanted = tonumber(redis.call('GET', KEYS[1]) or '0') + slots
  if wanted > limit then
    return wanted
  end
end
local count = redis.call('INCRBY', KEYS[1], slots)
if count == slots then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
`;

/** ioredis adds `rateLimitHit` from defineCommand (EVALSHA, falling back to EVAL once). */
type ScriptedRedis = Redis & {
  rateLimitHit(key: string, ttlMs: number, deadline: number, slots: number, limit: number): Promise<number>;
};

export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS;
  const redis = new Redis(options.url, {
    connectionName: options.connectionName ?? "toolrun-rate-limiter",
    // Commands issued while (re)connecting wait in the offline queue, bounded by commandTimeout and
    // flushed with an error at every failed reconnect: start-up does not fail, outages fail fast.
    commandTimeout: commandTimeoutMs,
    keepAlive: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    // How long close() waits for the socket to shut before destroying it. ioredis also arms this
    // timer for a socket that is already gone (Redis down), which would hold the process open.
    disconnectTimeout: 200,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    // The hits of one event-loop turn go out as one pipeline: one write and one round trip for
    // all of them instead of one each.
    enableAutoPipelining: true,
  }) as ScriptedRedis;
  redis.defineCommand("rateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  // Without a listener ioredis prints every reconnect failure; the errors reach callers anyway.
  const onError = options.onError ?? (() => {});
  redis.on("error", (err: Error) => onError(err));

  /** Runs `command`, answering by `deadline` at the latest. */
  async function call<T>(command: () => Promise<T>, deadline = Date.now() + commandTimeoutMs): Promise<T> {
    try {
      return await byDeadline(command(), deadline, () => new Error("Command timed out"));
    } catch (err) {
      // Every failure here (connection, timeout, LOADING, READONLY after a failover) means the
      // limiter cannot answer now; the core turns it into a 503.
      throw new BackendUnavailableError("rate-limiter", err);
    }
  }

  return {
    async hit(key, windowStartMs, windowMs, slots = 1, limit = Number.POSITIVE_INFINITY) {
      const now = Date.now();
      const deadline = now + commandTimeoutMs;
      const ttlMs = Math.max(windowStartMs + windowMs - now, 0) + EXPIRY_MARGIN_MS;
      const count = await call(
        () =>
          redis.rateLimitHit(
            `${prefix}rl:${key}:${windowStartMs}`,
            Math.ceil(ttlMs),
            deadline,
            slots,
            Number.isFinite(limit) ? limit : -1,
          ),
        deadline,
      );
      if (count < 0)
        throw new BackendUnavailableError(
          "rate-limiter",
          new Error("the hit reached Redis after its deadline"),
        );
      return count;
    },
    async ping() {
      await call(() => redis.ping());
    },
    async close() {
      if (redis.status === "end") return;
      try {
        await redis.quit();
      } catch {
        // Redis is unreachable: drop the socket and stop reconnecting.
        redis.disconnect();
      }
    },
  };
}
