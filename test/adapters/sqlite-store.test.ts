import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { describeStoreContract } from "../contracts/store.contract.ts";

describeStoreContract("sqlite in memory", async () => {
  const store = createSqliteStore(":memory:");
  await store.migrate();
  return { store, cleanup: () => store.close() };
});

describeStoreContract("sqlite file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-sqlite-"));
  const store = createSqliteStore(join(dir, "nested", "toolrun.db"));
  await store.migrate();
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
