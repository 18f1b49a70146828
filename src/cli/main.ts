/**
 * The `toolrun` command line: serve, migrate, keys, tools. It uses the same configuration and
 * createDeps as the server and talks to the database directly, never through HTTP.
 */
import { ConfigError, loadConfig } from "../config.ts";
import { AdminError } from "../core/admin.ts";
import { SchemaNotReadyError } from "../ports/errors.ts";
import { tools } from "../tools/index.ts";
import { runKeysCommand } from "./keys.ts";
import { runMigrate } from "./migrate.ts";
import { runServe } from "./serve.ts";
import { runToolsCommand } from "./tools.ts";
import { UsageError } from "./usage.ts";

export const HELP = `Usage: toolrun <command> [options]

Commands:
  serve [--no-migrate]                 run the HTTP and MCP service
  migrate                              apply the database schema
  keys create --plan PLAN [--name TEXT] [--credits N] [--json]
                                       create a key and print it once
  keys list [--json]                   list keys (never their secrets)
  keys revoke ID                       revoke a key at once
  keys rotate ID [--json]              give a key a new secret; the old one stops working
  keys set-plan ID PLAN                move a key to another plan
  tools list [--json]                  list tools with their switches
  tools set SLUG [--enabled true|false] [--api true|false]
                                       switch a tool for every instance

Configuration comes from the environment: TOOLRUN_DATABASE, TOOLRUN_REDIS_URL, TOOLRUN_METERING,
TOOLRUN_PUBLIC_URL, TOOLRUN_KEY_PREFIX, TOOLRUN_CONFIG, HOST, PORT, LOG_LEVEL (see docs/configuration.md).
`;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  try {
    const config = loadConfig(
      env,
      tools.map((t) => t.slug),
    );
    switch (command) {
      case "serve":
        return await runServe(config, rest);
      case "migrate":
        return await runMigrate(config, rest);
      case "keys":
        return await runKeysCommand(config, rest);
      case "tools":
        return await runToolsCommand(config, rest);
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`toolrun: ${error.message}\n\n${HELP}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`toolrun: ${error.message}\n`);
      return 2;
    }
    if (error instanceof AdminError) {
      process.stderr.write(`toolrun: ${error.message}\n`);
      return 1;
    }
    if (error instanceof SchemaNotReadyError) {
      process.stderr.write("toolrun: the database has no schema yet; run `toolrun migrate` first.\n");
      return 1;
    }
    process.stderr.write(`toolrun: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2), process.env);
  if (code !== 0) process.exitCode = code;
}
