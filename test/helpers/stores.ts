/**
 * Every store this machine can run, for HTTP tests that must hold on each: SQLite always,
 * PostgreSQL (a throwaway schema, dropped when the test file ends) when its test URL is set.
 */
import { after } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import type { Store } from "../../src/ports/store.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { testDatabaseUrl } from "./services.ts";

export interface StoreToTest {
  readonly name: string;
  /** A fresh store, not yet migrated (createTestApp migrates it). */
  make(): Promise<Store>;
}

export function storesToTest(): StoreToTest[] {
  const stores: StoreToTest[] = [{ name: "SQLite", make: async () => createSqliteStore(":memory:") }];
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
