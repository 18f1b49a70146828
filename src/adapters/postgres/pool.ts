/**
 * One `pg` Pool configured for toolrun: the schema on every connection's search_path, bounded
 * connect time, and idle-client errors absorbed so a database restart never crashes the process.
 * Boundary: connection setup only; statements live in the store and limiter modules.
 * The store and the PostgreSQL rate limiter can share one pool (see rate-limiter.ts).
 */
import pg, { type CustomTypesConfig, Pool } from "pg";
import {
  DEFAULT_BACKEND_TIMEOUT_MS,
  DEFAULT_DATABASE_SCHEMA,
  DEFAULT_POOL_SIZE,
} from "../../ports/defaults.ts";

export interface PostgresConnectionOptions {
  /** `postgres://user@host:port/db` */
  readonly url: string;
  /** Most connections held at once (default DEFAULT_POOL_SIZE). */
  readonly poolSize?: number;
  /** Schema for every table (default DEFAULT_DATABASE_SCHEMA); tests use a throwaway one. Plain identifiers only. */
  readonly schema?: string;
  /** How long to wait for a connection (pool wait and connect) before failing with BackendUnavailableError (default DEFAULT_BACKEND_TIMEOUT_MS). */
  readonly connectTimeoutMs?: number;
  /**
   * Longest wait for one statement's answer (default DEFAULT_BACKEND_TIMEOUT_MS): the server cancels it
   * (statement_timeout) and the client stops waiting (query_timeout) and drops the connection,
   * so a stalled network cannot hold a request; TCP keepalive finds dead idle connections.
   */
  readonly queryTimeoutMs?: number;
  /** `application_name` shown in pg_stat_activity (default `toolrun`). */
  readonly applicationName?: string;
  /**
   * Receives errors of idle connections (the server restarted or killed them). The pool drops such
   * connections and opens new ones on demand; this is for logging only.
   */
  readonly onError?: (err: Error) => void;
}

export const DEFAULT_APPLICATION_NAME = "toolrun";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function schemaName(options: Pick<PostgresConnectionOptions, "schema">): string {
  const schema = options.schema ?? DEFAULT_DATABASE_SCHEMA;
  // The name goes into a startup option and DDL unquoted, so only plain identifiers are accepted.
  if (!IDENTIFIER.test(schema)) throw new TypeError(`invalid PostgreSQL schema name: ${schema}`);
  return schema;
}

/**
 * A bigint (credits, sums of credits, sequence numbers) as a JavaScript number, refused past
 * Number.MAX_SAFE_INTEGER, where a number stops being exact: the statement reading it fails rather
 * than answer a rounded figure.
 */
export function parseBigint(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new RangeError(`${text} is past the exact range of a JavaScript number`);
  return value;
}

/** The type parsers of toolrun's connections: bigint as a checked number (parseBigint). */
export const types: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 && format !== "binary"
      ? parseBigint
      : pg.types.getTypeParser(oid, format)) as CustomTypesConfig["getTypeParser"],
};

/** Creates a pool; it connects lazily, so a database that is down does not stop start-up. */
export function createPostgresPool(options: PostgresConnectionOptions): Pool {
  const schema = schemaName(options);
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS;
  const pool = new Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS,
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: Math.max(1000, queryTimeoutMs),
    application_name: options.applicationName ?? DEFAULT_APPLICATION_NAME,
    types,
    // Sent in the startup packet: every connection, including ones re-opened after an outage, gets
    // the schema without an extra round trip or a race with the first query.
    options: `-c search_path=${schema}`,
  });
  // Without a listener, an idle client's error (server restart, pg_terminate_backend) is thrown
  // from the EventEmitter and kills the process. pg-pool already removes the broken client.
  const onError = options.onError ?? (() => {});
  pool.on("error", (err) => onError(err));
  // A client checked out by pool.connect() (every transaction) has no pool listener, so a
  // connection dropped under it (network cut, failover) would also throw from the EventEmitter.
  // Its pending or next query rejects anyway, and transaction() then destroys the client.
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}
