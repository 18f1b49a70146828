import { describe } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { describeGrantsContract } from "../contracts/grants.contract.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { dropSchema, uniqueSchema } from "./postgres-fixture.ts";

const database = testDatabaseUrl();

describe("PostgreSQL grants", { skip: database.skip }, () => {
  // Each instance has its own pool on the same schema, as separate processes would.
  describeGrantsContract("postgres", async () => {
    const url = database.url ?? "";
    const schema = uniqueSchema();
    return {
      async open() {
        const store = await createPostgresStore({ url, schema, poolSize: 4, keyCache: false });
        await store.migrate();
        return store;
      },
      cleanup: () => dropSchema(url, schema),
    };
  });
});
