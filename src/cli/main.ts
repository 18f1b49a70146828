/**
 * The `toolrun` command line on commander: serve, migrate, keys, tools, each with its own
 * `--help`, suggestions for mistyped commands and options, and one-line errors. Commands use the
 * same configuration and createDeps as the server and talk to the database directly, never
 * through HTTP.
 *
 * Key, admin-key and tool commands go through the same core functions as the admin API, so each
 * change is in the audit log as made by `cli` and the operating-system user.
 *
 * Exit codes: 0 success; 1 the command failed (unknown key, unreachable or missing database,
 * migrations pending for `migrate status`); 2 the command was called wrongly, or the configuration
 * or a tool it names is invalid.
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { ConfigError, DEFAULT_DATABASE_PATH, KNOWN_VARIABLES } from "../config.ts";
import { ApiError } from "../core/kernel/errors.ts";
import { ToolLoadError } from "../core/tools/loader.ts";
import { SchemaNotReadyError } from "../ports/errors.ts";
import { StartupError } from "../startup.ts";
import { registerAccountsCommands } from "./accounts.ts";
import { registerAdminKeysCommands } from "./admin-keys.ts";
import { CliError, createCliContext, EXIT_FAILED, EXIT_USAGE } from "./context.ts";
import { registerKeysCommands } from "./keys.ts";
import { registerAccountInviteCommand, registerMembersCommands } from "./members.ts";
import { registerMigrateCommands } from "./migrate.ts";
import { registerServeCommand } from "./serve.ts";
import { registerToolsCommands } from "./tools.ts";
import { registerUsageCommands } from "./usage.ts";
import { registerWebhooksCommands } from "./webhooks.ts";

const VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Greedy word wrap at the width of the rest of the help. */
function wrap(text: string, width = 100): string {
  const lines = [""];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    const line = lines[last] ?? "";
    if (line !== "" && line.length + 1 + word.length > width) lines.push(word);
    else lines[last] = line === "" ? word : `${line} ${word}`;
  }
  return lines.join("\n");
}

const ENVIRONMENT_HELP = `
${wrap(`Configuration comes from the environment: ${KNOWN_VARIABLES.join(", ")}; TOOLRUN_DATABASE defaults to ${DEFAULT_DATABASE_PATH}, from the current directory (docs/configuration.md gives each variable's default and what it accepts).`)}

Exit codes: 0 success, 1 the command failed, 2 wrong usage or invalid configuration (docs/cli.md).`;

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const context = createCliContext(env);

  const program = new Command("toolrun")
    .description("Runs named tools over HTTP and MCP, with API keys, rate limits and metered credits.")
    .version(VERSION, "-v, --version", "print the version")
    .helpOption("-h, --help", "show help for a command")
    .helpCommand("help [command]", "show help for a command")
    .addHelpText("after", ENVIRONMENT_HELP);
  registerServeCommand(program, context);
  registerMigrateCommands(program, context);
  registerKeysCommands(program, context);
  registerAccountsCommands(program, context);
  registerAdminKeysCommands(program, context);
  registerToolsCommands(program, context);
  registerWebhooksCommands(program, context);
  registerUsageCommands(program, context);
  registerMembersCommands(program, context);
  registerAccountInviteCommand(program, context);
  // Every command reports mistakes the same way, on one line, and exits through us.
  for (const command of [program, ...allCommands(program)]) {
    command
      .exitOverride()
      .showSuggestionAfterError(true)
      .configureOutput({
        writeOut: (text) => process.stdout.write(text),
        writeErr: (text) => process.stderr.write(text),
        outputError: (text, write) => write(`${oneLine(text, command)}\n`),
      });
  }

  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return EXIT_USAGE;
  }
  try {
    await program.parseAsync([...argv], { from: "user" });
    return context.exitCode;
  } catch (error) {
    return reportError(error);
  }
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

/** Commander's message and its suggestion on one line, then where the help is. */
function oneLine(text: string, command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  const line = text
    .trim()
    .replace(/^error: /, "")
    .replace(/\s*\n\s*/g, " ");
  return `toolrun: ${line} (see ${names.join(" ")} --help)`;
}

/** A core refusal on one line: its detail, then each bad field with its message. */
function apiErrorLine(error: ApiError): string {
  const fields = error.extras.fields;
  if (fields === undefined) return error.message;
  const list =
    typeof fields === "string"
      ? fields
      : Object.entries(fields)
          .map(([field, message]) => `${field} ${message}`)
          .join("; ");
  return `${error.message} (${list})`;
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    // --help and --version end here too, with exit code 0.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  const fail = (message: string, code: number) => {
    process.stderr.write(`toolrun: ${message}\n`);
    return code;
  };
  // A configuration or a tool that cannot be used: one line per problem, every problem at once.
  if (error instanceof ConfigError || error instanceof ToolLoadError) {
    for (const problem of error.problems) process.stderr.write(`toolrun: ${problem}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof StartupError) return fail(error.message, EXIT_FAILED);
  if (error instanceof CliError) return fail(error.message, error.exitCode);
  if (error instanceof ApiError) return fail(apiErrorLine(error), EXIT_FAILED);
  if (error instanceof SchemaNotReadyError)
    return fail("the database has no schema yet; run `toolrun migrate` first.", EXIT_FAILED);
  return fail(error instanceof Error ? error.message : String(error), EXIT_FAILED);
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2), process.env);
  if (code !== 0) process.exitCode = code;
}
