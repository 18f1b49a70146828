/**
 * The schema files of a SQL adapter: `migrations/NNNN_name.sql` beside its code, applied in order
 * and recorded in its `schema_migrations` table. Each backend applies them its own way.
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
