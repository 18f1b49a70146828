/**
 * `toolrun migrate`: applies the schema to the configured database.
 */
import type { Config } from "../config.ts";
import { createDeps } from "../deps.ts";
import { parse } from "./usage.ts";

export async function runMigrate(config: Config, args: readonly string[]): Promise<number> {
  parse(args, {});
  const deps = await createDeps(config);
  try {
    await deps.store.migrate();
    process.stdout.write(`Schema is up to date (${config.database.kind}).\n`);
    return 0;
  } finally {
    await deps.close();
  }
}
