/**
 * Versioned schema migrations: `migrations/NNNN_name.sql`, applied in order, each recorded in
 * `schema_migrations`. Boundary: schema only; no data access for the ports.
 *
 * migrate() runs everything in one IMMEDIATE transaction, so processes opening the same file at
 * once apply each migration exactly once and a failure leaves no half-applied schema.
 */
import { type AppliedMigration, allApplied, checkApplied, readMigrations } from "../sql-migrations.ts";
import type { Db } from "./db.ts";

/** The migrations this code ships, oldest first. */
const migrations = readMigrations(new URL("./migrations/", import.meta.url));

function appliedMigrations(db: Db): AppliedMigration[] {
  const table = db
    .statement<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    )
    .get();
  if (!table) return [];
  return db.statement<AppliedMigration>("SELECT version, name FROM schema_migrations").all();
}

/**
 * A new in-memory database migrated once in this process, as bytes: each later empty in-memory
 * database is a copy of it instead of running every migration again (a few milliseconds each;
 * the tests open hundreds). A file is always migrated statement by statement.
 */
let migratedInMemory: Uint8Array | undefined;

/** Applies what is pending; returns the versions applied. */
export function migrate(db: Db, inMemory = false): number[] {
  const empty =
    inMemory && db.statement<{ n: number }>("SELECT count(*) AS n FROM sqlite_master").get()?.n === 0;
  if (empty && migratedInMemory !== undefined) {
    db.replaceWith(migratedInMemory);
    return migrations.map((migration) => migration.version);
  }
  const applied = migrateFile(db);
  if (empty) migratedInMemory = db.image();
  return applied;
}

function migrateFile(db: Db): number[] {
  return db.transaction(() => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version    INTEGER PRIMARY KEY,
         name       TEXT NOT NULL,
         applied_at TEXT NOT NULL
       )`,
    );
    const recorded = appliedMigrations(db);
    checkApplied(recorded, migrations);
    const done = new Set(recorded.map((row) => row.version));
    const record = db.statement("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      applied.push(migration.version);
    }
    return applied;
  });
}

/** True when every migration this code ships has been applied (allApplied). */
export function isMigrated(db: Db): boolean {
  const applied = appliedMigrations(db);
  return allApplied(applied, migrations);
}
