/**
 * Versioned schema migrations: `migrations/NNNN_name.sql`, applied in order, each recorded in
 * `schema_migrations`. Boundary: schema only; no data access for the ports.
 *
 * migrate() runs everything in one transaction holding a transaction-level advisory lock, so
 * several processes starting at once apply each migration exactly once and a failure leaves no
 * half-applied schema (PostgreSQL DDL is transactional).
 */
import type { Pool } from "pg";
import { type AppliedMigration, allApplied, checkApplied, readMigrations } from "../sql-migrations.ts";
import { transaction } from "./db.ts";
import { isMissingSchema, toPortError } from "./errors.ts";

/** The migrations this code ships, oldest first. */
const migrations = readMigrations(new URL("./migrations/", import.meta.url));

export async function migrate(pool: Pool, schema: string): Promise<number[]> {
  return transaction(pool, async (client) => {
    // One lock per schema: concurrent migrators of the same schema queue here; others do not wait.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`toolrun:migrate:${schema}`]);
    // Checked first because CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege on the
    // database even when the schema exists (a locked-down role owning only `public`). Under the lock,
    // so two migrators never both try to create it.
    const exists = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version    integer PRIMARY KEY,
         name       text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const applied = await client.query<AppliedMigration>("SELECT version, name FROM schema_migrations");
    checkApplied(applied.rows, migrations);
    const done = new Set(applied.rows.map((row) => row.version));
    const now: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      now.push(migration.version);
      // No parameters: sent as a simple query, so a file may hold several statements.
      await client.query(migration.sql);
      await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
    }
    return now;
  });
}

/**
 * True when every migration this code ships has been applied (allApplied). Migrations are
 * additive, so a database migrated further by newer code counts, and rolling deploys keep working.
 */
export async function isMigrated(pool: Pool): Promise<boolean> {
  let applied: AppliedMigration[];
  try {
    applied = (await pool.query<AppliedMigration>("SELECT version, name FROM schema_migrations")).rows;
  } catch (err) {
    if (isMissingSchema(err)) return false;
    throw toPortError("database", err);
  }
  return allApplied(applied, migrations);
}
