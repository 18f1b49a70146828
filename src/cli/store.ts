/**
 * Opens the configured store for a CLI command. The embedded SQLite file gets its schema on the
 * spot; PostgreSQL is left to `toolrun migrate`.
 */
import type { Config } from "../config.ts";
import { createDeps } from "../deps.ts";
import type { Store } from "../ports/store.ts";

export async function openStore(config: Config): Promise<Store> {
  const deps = await createDeps(config, { blockOnLocks: true });
  if (config.database.kind === "sqlite") await deps.store.migrate();
  return { ...deps.store, close: () => deps.close() };
}
