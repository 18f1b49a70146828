/**
 * The defaults of the configuration (src/config.ts) that an adapter also falls back to when its
 * caller names none (tests, benchmarks). They are written here, once, because adapters may import
 * ports but not the configuration; the configuration's table reads them from here.
 */

/** TOOLRUN_DB_TIMEOUT_MS: the longest wait for one database or Redis operation. */
export const DEFAULT_BACKEND_TIMEOUT_MS = 5000;

/** TOOLRUN_CALL_ABANDON_S: when a call still pending belongs to a dead process. */
export const DEFAULT_CALL_ABANDON_S = 120;

/** TOOLRUN_DATABASE_POOL_SIZE: PostgreSQL connections per instance. */
export const DEFAULT_POOL_SIZE = 10;

/** TOOLRUN_DATABASE_SCHEMA: the PostgreSQL schema of toolrun's tables. */
export const DEFAULT_DATABASE_SCHEMA = "public";

/** TOOLRUN_REDIS_PREFIX: what every Redis key starts with. */
export const DEFAULT_REDIS_PREFIX = "toolrun:";
