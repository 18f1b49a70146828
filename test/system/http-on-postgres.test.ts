/**
 * The PostgreSQL variants of the HTTP suites that ask for them (`storesToTest({ postgres:
 * "system" })`, test/helpers/stores.ts): the same tests as their SQLite runs in `npm test`, here on
 * a throwaway PostgreSQL schema each. Imported after the variable is set, so that each suite sees it.
 */
import { it } from "node:test";
import { testDatabaseUrl } from "../helpers/services.ts";
import { POSTGRES_VARIANTS } from "../helpers/stores.ts";

const database = testDatabaseUrl();
if (database.skip) it("the HTTP suites on PostgreSQL", { skip: database.skip }, () => {});
else {
  process.env[POSTGRES_VARIANTS] = "1";
  for (const suite of [
    "../http/captures.test.ts",
    "../http/jobs.test.ts",
    "../admin/webhooks.test.ts",
    "../admin/grants.test.ts",
    "../admin/credit-alerts.test.ts",
    "../http/unwritable-answers.test.ts",
    "../http/fuzz.test.ts",
  ])
    await import(suite);
}
