/**
 * What every command's action is given: the configuration (read on first use), where to write,
 * who the audit log says acted, and the configured database opened for it. A `keys` or `tools`
 * command never creates a database: on SQLite the file must exist already (made by `serve` or
 * `migrate`), so a command run from the wrong directory says where it looked instead of making
 * keys no server knows.
 */
import { existsSync } from "node:fs";
import { userInfo } from "node:os";
import { type Config, DEFAULT_DATABASE_PATH, loadConfig, unknownVariableWarnings } from "../config.ts";
import { type ActedBy, cliActor } from "../core/admin/audit.ts";
import { createDeps, type Deps, loadConfiguredTools } from "../deps.ts";
import { databaseError, describeDatabase } from "../startup.ts";

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** What a command's action needs: the configuration (read on first use) and where to write. */
export interface CliContext {
  readonly env: NodeJS.ProcessEnv;
  config(): Config;
  out(text: string): void;
  /** Who the audit log says acted: the CLI, run by the operating-system user. */
  actor(): ActedBy;
  /** Sets the exit code the command ends with. */
  exit(code: number): void;
  /** The exit code set so far (0 unless a command set another). */
  readonly exitCode: number;
}

export function createCliContext(env: NodeJS.ProcessEnv): CliContext {
  let exitCode = 0;
  let config: Config | undefined;
  return {
    env,
    config() {
      if (config === undefined) {
        for (const warning of unknownVariableWarnings(env))
          process.stderr.write(`toolrun: warning: ${warning}\n`);
        config = loadConfig(env);
      }
      return config;
    },
    out: (text) => process.stdout.write(`${text}\n`),
    actor: () => cliActor(osUser(env)),
    exit(code) {
      exitCode = code;
    },
    get exitCode() {
      return exitCode;
    },
  };
}

/** The user the command runs as; the environment's name when the system has no entry for it (containers). */
function osUser(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.LOGNAME ?? "unknown";
  }
}

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
          ? `TOOLRUN_DATABASE is unset, so the default ${DEFAULT_DATABASE_PATH} was looked for in ${process.cwd()}`
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

/**
 * The deps of the configured database and tools; the tools are loaded first (a ToolLoadError names
 * every problem), without their secrets: a command lists tools and never runs one, so it works in a
 * shell that does not hold the upstreams' credentials.
 */
export async function openDeps(config: Config): Promise<Deps> {
  const tools = await loadConfiguredTools(config, { readSecrets: false });
  try {
    return await createDeps(config, tools, { blockOnLocks: true });
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
