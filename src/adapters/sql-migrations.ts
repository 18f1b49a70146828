/**
 * The schema files of a SQL adapter: `migrations/NNNN_name.sql` beside its code, applied in order
 * and recorded (number and name) in its `schema_migrations` table. Each backend applies them its
 * own way.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const FILE = /^(\d+)_([a-z0-9_]+)\.sql$/;

/** The migrations in `directory` (a URL ending in `/`), oldest first. */
export function readMigrations(directory: URL): readonly Migration[] {
  const found: Migration[] = [];
  for (const file of readdirSync(directory)) {
    const match = FILE.exec(file);
    if (!match?.[1] || !match[2]) continue;
    found.push({
      version: Number(match[1]),
      name: match[2],
      sql: readFileSync(new URL(file, directory), "utf8"),
    });
  }
  return found.sort((a, b) => a.version - b.version);
}

/** A row of `schema_migrations`. */
export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
}

/**
 * Throws when the database records a migration under a number this code ships with another name:
 * it was made by a build whose migrations differ (a development one), and applying the rest would
 * skip what this code needs under that number.
 */
export function checkApplied(applied: readonly AppliedMigration[], shipped: readonly Migration[]): void {
  for (const row of applied) {
    const ours = shipped.find((m) => m.version === row.version);
    if (ours && ours.name !== row.name)
      throw new Error(
        `the database records migration ${row.version} as "${row.name}", where this release has "${ours.name}": it was made by another build of toolrun; make a new database (or schema) and migrate that`,
      );
  }
}

/**
 * True when every migration `shipped` has been applied, same number and same name (a database
 * migrated further by newer code counts too).
 */
export function allApplied(applied: readonly AppliedMigration[], shipped: readonly Migration[]): boolean {
  return shipped.every((m) => applied.some((row) => row.version === m.version && row.name === m.name));
}
