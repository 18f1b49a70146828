/**
 * Opens the configured database for a CLI command. A `keys` or `tools` command never creates a
 * database: on SQLite the file must exist already (made by `serve` or `migrate`), so a command
 * run from the wrong directory says where it looked instead of making keys no server knows.
 */
import { existsSync } from "node:fs";
import type { Config } from "../config.ts";
import { createDeps, type Deps } from "../deps.ts";
import { databaseError, describeDatabase } from "../startup.ts";
import type { CliContext } from "./main.ts";

/** A command that cannot go on, with the message to print and its exit code. */
export class CliError extends Error {
  override readonly name = "CliError";
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The deps of an existing database. The embedded SQLite file gets any missing schema on the spot. */
export async function openExisting(
  config: Config,
  env: NodeJS.ProcessEnv,
  options: { migrate: boolean } = { migrate: true },
): Promise<Deps> {
  const { database } = config;
  if (database.kind === "sqlite" && database.path !== ":memory:" && !database.path.startsWith("file:")) {
    if (!existsSync(database.path)) {
      const where =
        env.TOOLRUN_DATABASE === undefined || env.TOOLRUN_DATABASE.trim() === ""
          ? `TOOLRUN_DATABASE is unset, so the default ./data/toolrun.db was looked for in ${process.cwd()}`
          : `TOOLRUN_DATABASE=${describeDatabase(config)}`;
      throw new CliError(
        `no database at ${describeDatabase(config)} (${where}). Set TOOLRUN_DATABASE to the file the server uses, or run \`toolrun migrate\` to create one there.`,
      );
    }
  }
  const deps = await openDeps(config);
  if (database.kind === "sqlite" && options.migrate) {
    try {
      await deps.store.migrate();
    } catch (error) {
      await deps.close();
      throw databaseError(config, "cannot apply the schema", error);
    }
  }
  return deps;
}

export async function openDeps(config: Config): Promise<Deps> {
  try {
    return await createDeps(config, { blockOnLocks: true });
  } catch (error) {
    throw databaseError(config, "cannot open the database", error);
  }
}

/** Runs a `keys`, `tools` or `admin-keys` command on the deps of the existing database, then closes them. */
export async function withDeps(cli: CliContext, use: (deps: Deps) => Promise<void>): Promise<void> {
  const deps = await openExisting(cli.config(), cli.env);
  try {
    await use(deps);
  } finally {
    await deps.close();
  }
}
