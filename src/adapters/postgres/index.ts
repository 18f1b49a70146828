/**
 * The PostgreSQL adapters: the Store and a RateLimiter that can share its pool.
 */
export type { PostgresConnectionOptions } from "./pool.ts";
export type { PostgresRateLimiterOptions } from "./rate-limiter.ts";
export { createPostgresRateLimiter } from "./rate-limiter.ts";
export type { PostgresStore, PostgresStoreOptions } from "./store.ts";
export { createPostgresStore } from "./store.ts";
