import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { describeCreditAlertsContract } from "../contracts/credit-alerts.contract.ts";

// Instances on one machine share the file; each opens its own connection.
describeCreditAlertsContract("sqlite file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-alerts-"));
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
