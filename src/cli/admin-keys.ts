/**
 * `toolrun admin-keys ...`: the keys of the admin API (`/admin/v1`), made only here, on a machine
 * that can reach the database; each one printed once and stored as a hash.
 */
import type { Command } from "commander";
import { createAdminKey, revokeAdminKey } from "../core/admin/admin-keys.ts";
import { parseAdminKeyCreate } from "../core/admin/input.ts";
import { type CliContext, withDeps } from "./context.ts";
import { formatTable } from "./table.ts";

export function registerAdminKeysCommands(program: Command, cli: CliContext): void {
  const adminKeys = program
    .command("admin-keys")
    .description("create, list and revoke the keys of the admin API (/admin/v1)");

  adminKeys
    .command("create")
    .description("create an admin key and print it once")
    .option("--name <text>", "a name to recognise the key by (who or what uses it)", "")
    .option("--json", 'print one JSON object {"id","key","name","created_at"} and nothing else')
    .action((options: { name: string; json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const { name } = parseAdminKeyCreate({ name: options.name });
        const created = await createAdminKey(deps, cli.actor(), name);
        if (options.json)
          cli.out(
            JSON.stringify({
              id: created.record.id,
              key: created.key,
              name: created.record.name,
              created_at: created.record.createdAt,
            }),
          );
        else
          cli.out(
            `Created admin key ${created.record.id}. Shown only this once:\n\n  ${created.key}\n\nSend it as Authorization: Bearer <admin key> to ${deps.settings.docsUrl.replace(/\/docs$/, "")}/admin/v1/...`,
          );
      }),
    );

  adminKeys
    .command("list")
    .description("list admin keys (never their secrets)")
    .option("--json", "print a JSON array")
    .action((options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const all = (await deps.store.listAdminKeys()).map((k) => ({
          id: k.id,
          prefix: k.displayPrefix,
          name: k.name,
          created_at: k.createdAt,
          revoked_at: k.revokedAt,
        }));
        if (options.json) cli.out(JSON.stringify(all));
        else if (all.length === 0) cli.out("No admin keys yet: toolrun admin-keys create --name ops");
        else
          cli.out(
            formatTable(
              ["ID", "PREFIX", "NAME", "CREATED", "REVOKED"],
              all.map((k) => [k.id, `${k.prefix}…`, k.name, k.created_at, k.revoked_at]),
            ),
          );
      }),
    );

  adminKeys
    .command("revoke")
    .description("revoke an admin key at once (its next request answers 401)")
    .argument("<id>", "the admin key's id (adm_...)")
    .action((id: string) =>
      withDeps(cli, async (deps) => {
        await revokeAdminKey(deps, cli.actor(), id);
        cli.out(`Revoked admin key ${id}.`);
      }),
    );
}
