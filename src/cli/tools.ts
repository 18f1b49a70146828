/**
 * `toolrun tools ...`: list the tools (and where each came from: built in, a module of
 * TOOLRUN_TOOLS, an entry of the configuration's httpTools) and flip the operator switches stored
 * in the database, through the same core function as the admin API (so every switch is in the
 * audit log).
 */
import { type Command, Option } from "commander";
import { setToolSwitch } from "../core/admin/actions.ts";
import { parseSwitch } from "../core/admin/input.ts";
import { toolSwitchViews } from "../core/admin/tool-switches.ts";
import { callCost } from "../core/kernel/credits.ts";
import { describeOrigin } from "../core/tools/loader.ts";
import { type CliContext, CliError, withDeps } from "./context.ts";
import { byteSize, formatTable } from "./table.ts";
import { registerToolsImportCommand } from "./tools-import.ts";

export function registerToolsCommands(program: Command, cli: CliContext): void {
  const tools = program.command("tools").description("list the tools and switch them for every instance");

  tools
    .command("list")
    .description(
      "list the tools with their switches, body limit, the credits a call costs on each plan and where each came from",
    )
    .option("--json", "print a JSON array")
    .action((options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const rows = (await toolSwitchViews(deps)).map((row) => {
          const tool = deps.registry.get(row.slug);
          return { ...row, from: tool ? describeOrigin(tool.origin) : "" };
        });
        // What one call costs a key of each plan, as the service charges it.
        const plans = Object.values(deps.settings.plans);
        if (options.json) cli.out(JSON.stringify(rows));
        else
          cli.out(
            formatTable(
              [
                "SLUG",
                "VERSION",
                "ENABLED",
                "API",
                { header: "MAX BODY", right: true },
                ...plans.map((plan) => ({ header: `CREDITS (${plan.id})`, right: true })),
                "FROM",
              ],
              rows.map((r) => [
                r.slug,
                r.tool_version,
                r.enabled,
                r.api,
                byteSize(r.max_body_bytes),
                ...plans.map((plan) => callCost(r.weight, plan, deps.settings)),
                r.from,
              ]),
            ),
          );
      }),
    );

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
      const body: { enabled?: boolean; api?: boolean } = {};
      if (options.enabled !== undefined) body.enabled = options.enabled === "true";
      if (options.api !== undefined) body.api = options.api === "true";
      if (Object.keys(body).length === 0) throw new CliError("tools set needs --enabled or --api.", 2);
      await withDeps(cli, async (deps) => {
        const change = parseSwitch(body);
        await setToolSwitch(deps, cli.actor(), slug, change);
        cli.out(
          `${slug}: ${Object.entries(change)
            .map(([k, v]) => `${k}=${v}`)
            .join(", ")} (every instance sees it within seconds)`,
        );
      });
    });

  registerToolsImportCommand(tools, cli);
}
