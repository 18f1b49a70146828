/**
 * Runs statements on a pool with the port's error mapping, and transactions that always give
 * their connection back (destroying it when the connection itself failed).
 * Boundary: no SQL of its own beyond BEGIN/COMMIT/ROLLBACK.
 */
import type { Pool, PoolClient, QueryConfig, QueryResultRow } from "pg";
import { isConnectionError, toPortError } from "./errors.ts";

export type Backend = "database" | "rate-limiter";
/** Bytes go as bytea. */
type Scalar = string | number | boolean | null | Uint8Array;
/** A statement's parameters; an array goes as a PostgreSQL array (`$1::text[]`). */
export type Values = readonly (Scalar | readonly Scalar[])[];

/** A named statement: pg prepares it once per connection and reuses the plan. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

export function statement(name: string, text: string): Statement {
  return { name: `toolrun_${name}`, text };
}

function config(stmt: Statement, values: Values): QueryConfig<(Scalar | readonly Scalar[])[]> {
  return { name: stmt.name, text: stmt.text, values: [...values] };
}

/** Something that can run a query: the pool (one statement, autocommit) or a transaction's client. */
export type Queryable = Pick<Pool, "query"> | Pick<PoolClient, "query">;

export async function run<R extends QueryResultRow>(
  db: Queryable,
  stmt: Statement,
  values: Values,
  backend: Backend = "database",
): Promise<R[]> {
  try {
    const result = await db.query<R>(config(stmt, values));
    return result.rows;
  } catch (err) {
    throw toPortError(backend, err);
  }
}

export type Isolation = "READ COMMITTED" | "REPEATABLE READ READ ONLY";

/**
 * Runs `work` inside BEGIN/COMMIT on one connection. Any throw rolls back and is rethrown mapped to
 * a port error; non-database errors (for example an outcome signal) pass through untouched.
 */
export async function transaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  isolation: Isolation = "READ COMMITTED",
): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw toPortError("database", err);
  }
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
    const result = await work(client);
    await client.query("COMMIT");
    client.release();
    return result;
  } catch (err) {
    let broken = isConnectionError(err);
    if (!broken) {
      try {
        await client.query("ROLLBACK");
      } catch {
        broken = true;
      }
    }
    // release(true) closes the connection instead of returning a half-dead one to the pool.
    client.release(broken);
    throw toPortError("database", err);
  }
}
