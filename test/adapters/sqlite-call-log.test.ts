import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { describeCallLogContract } from "../contracts/call-log.contract.ts";

describeCallLogContract("sqlite in memory", async () => {
  const store = createSqliteStore(":memory:");
  await store.migrate();
  return { store, cleanup: () => store.close() };
});
