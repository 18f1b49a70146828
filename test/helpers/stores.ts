/**
 * Every store this machine can run, for HTTP tests that must hold on each: SQLite always,
 * PostgreSQL (a throwaway schema, dropped when the test file ends) when its test URL is set.
 *
 * A suite asking for `{ postgres: "system" }` runs its PostgreSQL variant in `npm run test:system`
 * only (test/system/http-on-postgres.test.ts imports it with POSTGRES_VARIANTS set, and it then
 * runs on PostgreSQL alone): such suites pin HTTP behaviour that no store changes, while the
 * store's own behaviour is pinned on PostgreSQL by the contract suites in `npm test`, which keeps
 * its minute.
 */
import { after } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import type { Store } from "../../src/ports/store.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { testDatabaseUrl } from "./services.ts";

/** Set by test/system/http-on-postgres.test.ts before it imports the suites. */
export const POSTGRES_VARIANTS = "TOOLRUN_TEST_POSTGRES_VARIANTS";

export interface StoreToTest {
  readonly name: string;
  /** A fresh store, not yet migrated (createTestApp migrates it). */
  make(): Promise<Store>;
}

export interface StoresOptions {
  /** Where the PostgreSQL variant runs: in `npm test` (the default), or in `npm run test:system`. */
  readonly postgres?: "always" | "system";
}

export function storesToTest(options: StoresOptions = {}): StoreToTest[] {
  const variantsRun = process.env[POSTGRES_VARIANTS] === "1";
  const system = options.postgres === "system";
  const stores: StoreToTest[] = [];
  if (!(system && variantsRun))
    stores.push({ name: "SQLite", make: async () => createSqliteStore(":memory:") });
  if (system && !variantsRun) return stores;
  const database = testDatabaseUrl();
  if (database.url !== undefined) {
    const url = database.url;
    const schemas: string[] = [];
    after(async () => {
      for (const schema of schemas) await dropSchema(url, schema);
    });
    stores.push({
      name: "PostgreSQL",
      make: async () => {
        const schema = uniqueSchema();
        schemas.push(schema);
        return createPostgresStore({ url, schema, keyCache: false });
      },
    });
  }
  return stores;
}
