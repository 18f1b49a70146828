/**
 * `toolrun tools ...`: list the tools and flip the operator switches stored in the database.
 */
import { type Command, Option } from "commander";
import type { ToolSwitch } from "../ports/store.ts";
import type { CliContext } from "./main.ts";
import { CliError, openExisting } from "./store.ts";

export function registerToolsCommands(program: Command, cli: CliContext): void {
  const tools = program.command("tools").description("list the tools and switch them for every instance");

  tools
    .command("list")
    .description("list the tools with their weight, body limit and switches")
    .option("--json", "print a JSON array")
    .action(async (options: { json?: boolean }) => {
      const deps = await openExisting(cli.config(), cli.env);
      try {
        const rows = await Promise.all(
          deps.registry.all().map(async (tool) => ({
            slug: tool.slug,
            tool_version: tool.definition.version,
            weight: tool.weight,
            max_body_bytes: tool.maxBodyBytes,
            ...(await deps.switches.of(tool)),
          })),
        );
        if (options.json) cli.out(JSON.stringify(rows));
        else
          for (const r of rows)
            cli.out(`${r.slug}\tv${r.tool_version}\tweight ${r.weight}\tenabled ${r.enabled}\tapi ${r.api}`);
      } finally {
        await deps.close();
      }
    });

  tools
    .command("set")
    .description("store an operator switch in the database; every instance sees it within seconds")
    .argument("<slug>", "the tool's slug")
    .addOption(
      new Option("--enabled <bool>", "false: calls answer 503 tool_disabled").choices(["true", "false"]),
    )
    .addOption(
      new Option(
        "--api <bool>",
        "false: calls answer 403 tool_not_allowed, and MCP does not list it",
      ).choices(["true", "false"]),
    )
    .action(async (slug: string, options: { enabled?: string; api?: string }) => {
      const change: { enabled?: boolean; api?: boolean } = {};
      if (options.enabled !== undefined) change.enabled = options.enabled === "true";
      if (options.api !== undefined) change.api = options.api === "true";
      if (Object.keys(change).length === 0) throw new CliError("tools set needs --enabled or --api.", 2);
      const deps = await openExisting(cli.config(), cli.env);
      try {
        if (!deps.registry.get(slug)) {
          const known = deps.registry.all().map((t) => t.slug);
          throw new CliError(`No tool is named "${slug}" (known: ${known.join(", ")}).`, 2);
        }
        await deps.store.setSwitch(slug, change satisfies ToolSwitch);
        cli.out(
          `${slug}: ${Object.entries(change)
            .map(([k, v]) => `${k}=${v}`)
            .join(", ")} (every instance sees it within seconds)`,
        );
      } finally {
        await deps.close();
      }
    });
}
