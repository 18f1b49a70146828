import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { describeGrantsContract } from "../contracts/grants.contract.ts";

// Instances on one machine share the file; each opens its own connection.
describeGrantsContract("sqlite file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-grants-"));
  const path = join(dir, "toolrun.db");
  return {
    async open() {
      const store = createSqliteStore(path);
      await store.migrate();
      return store;
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
