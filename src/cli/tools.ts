/**
 * `toolrun tools ...`: list the tools and flip the operator switches stored in the database.
 */
import type { Config } from "../config.ts";
import { createDeps } from "../deps.ts";
import type { ToolSwitch } from "../ports/store.ts";
import { parse, UsageError } from "./usage.ts";

export async function runToolsCommand(config: Config, args: readonly string[]): Promise<number> {
  const [action, ...rest] = args;
  const deps = await createDeps(config);
  const out = (text: string) => process.stdout.write(`${text}\n`);
  try {
    if (config.database.kind === "sqlite") await deps.store.migrate();
    switch (action) {
      case "list": {
        const { values } = parse(rest, { json: { type: "boolean" } });
        const rows = await Promise.all(
          deps.registry.all().map(async (tool) => ({
            slug: tool.slug,
            tool_version: tool.definition.version,
            weight: tool.weight,
            max_body_bytes: tool.maxBodyBytes,
            ...(await deps.switches.of(tool)),
          })),
        );
        if (values.json) out(JSON.stringify(rows));
        else
          for (const r of rows)
            out(`${r.slug}\tv${r.tool_version}\tweight ${r.weight}\tenabled ${r.enabled}\tapi ${r.api}`);
        return 0;
      }
      case "set": {
        const { values, positionals } = parse(rest, { enabled: { type: "string" }, api: { type: "string" } });
        const slug = positionals[0];
        if (positionals.length !== 1 || !slug)
          throw new UsageError("Usage: tools set SLUG [--enabled true|false] [--api true|false]");
        if (!deps.registry.get(slug)) throw new UsageError(`No tool is named "${slug}".`);
        const change: { enabled?: boolean; api?: boolean } = {};
        if (values.enabled !== undefined) change.enabled = bool(values.enabled, "--enabled");
        if (values.api !== undefined) change.api = bool(values.api, "--api");
        if (Object.keys(change).length === 0) throw new UsageError("tools set needs --enabled or --api.");
        await deps.store.setSwitch(slug, change satisfies ToolSwitch);
        out(
          `${slug}: ${Object.entries(change)
            .map(([k, v]) => `${k}=${v}`)
            .join(", ")} (every instance sees it within seconds)`,
        );
        return 0;
      }
      default:
        throw new UsageError(`Unknown tools action "${action ?? ""}" (list, set).`);
    }
  } finally {
    await deps.close();
  }
}

function bool(raw: string, flag: string): boolean {
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new UsageError(`${flag} must be true or false, got "${raw}".`);
}
