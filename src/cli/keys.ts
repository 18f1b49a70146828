/**
 * `toolrun keys ...`: create, list, revoke, rotate and re-plan API keys.
 */
import { type Command, InvalidArgumentError } from "commander";
import { type Config, MAX_COUNT } from "../config.ts";
import { createApiKey, revokeApiKey, rotateApiKey, setKeyPlan } from "../core/admin.ts";
import { monthlyAllowance, planOf } from "../core/credits.ts";
import type { ApiKeyRecord, Store } from "../ports/store.ts";
import type { CliContext } from "./main.ts";
import { openExisting } from "./store.ts";

export function registerKeysCommands(program: Command, cli: CliContext): void {
  const keys = program.command("keys").description("create, list, revoke, rotate and re-plan API keys");

  keys
    .command("create")
    .description("create a key and print it once")
    .requiredOption("--plan <plan>", "the key's plan (free, builder, or one from TOOLRUN_CONFIG)")
    .option("--name <text>", "a name to recognise the key by", "")
    .option("--credits <n>", "the key's own monthly allowance instead of its plan's", wholeNumber)
    .option(
      "--json",
      'print one JSON object {"id","key","plan","name","monthly_allowance",...} and nothing else',
    )
    .action((options: { plan: string; name: string; credits?: number; json?: boolean }) =>
      withStore(cli, async (store, config) => {
        const created = await createApiKey(store, config.settings, {
          plan: options.plan,
          name: options.name,
          monthlyAllowance: options.credits ?? null,
        });
        if (options.json) cli.out(JSON.stringify(keyJson(created.record, config, created.key)));
        else
          cli.out(
            `Created key ${created.record.id} (plan ${created.record.plan}). Shown only this once:\n\n  ${created.key}\n`,
          );
      }),
    );

  keys
    .command("list")
    .description("list keys with their plan, allowance and dates (never their secrets)")
    .option("--json", "print a JSON array")
    .action((options: { json?: boolean }) =>
      withStore(cli, async (store, config) => {
        const all = await store.listKeys();
        if (options.json) cli.out(JSON.stringify(all.map((k) => keyJson(k, config))));
        else if (all.length === 0) cli.out("No keys yet: toolrun keys create --plan free");
        else {
          cli.out(["ID", "PREFIX", "PLAN", "ALLOWANCE", "NAME", "CREATED", "REVOKED"].join("\t"));
          for (const k of all) {
            const allowance = monthlyAllowance(k, planOf(k, config.settings));
            cli.out(
              [
                k.id,
                `${k.displayPrefix}…`,
                k.plan,
                allowance,
                k.name || "-",
                k.createdAt,
                k.revokedAt ?? "-",
              ].join("\t"),
            );
          }
        }
      }),
    );

  keys
    .command("revoke")
    .description("revoke a key at once (its next request answers 401)")
    .argument("<id>", "the key's id (key_...)")
    .action((id: string) =>
      withStore(cli, async (store) => {
        await revokeApiKey(store, id);
        cli.out(`Revoked ${id}.`);
      }),
    );

  keys
    .command("rotate")
    .description("give a key a new secret, printed once; the old one stops working at once")
    .argument("<id>", "the key's id (key_...)")
    .option("--json", "print one JSON object with the new key")
    .action((id: string, options: { json?: boolean }) =>
      withStore(cli, async (store, config) => {
        const rotated = await rotateApiKey(store, config.settings, id);
        if (options.json) cli.out(JSON.stringify(keyJson(rotated.record, config, rotated.key)));
        else
          cli.out(
            `New secret for ${id}; the old one no longer works. Shown only this once:\n\n  ${rotated.key}\n`,
          );
      }),
    );

  keys
    .command("set-plan")
    .description("move a key to another configured plan")
    .argument("<id>", "the key's id (key_...)")
    .argument("<plan>", "the plan's id")
    .action((id: string, plan: string) =>
      withStore(cli, async (store, config) => {
        await setKeyPlan(store, config.settings, id, plan);
        cli.out(`Key ${id} is now on plan ${plan}.`);
      }),
    );
}

async function withStore(
  cli: CliContext,
  use: (store: Store, config: Config) => Promise<void>,
): Promise<void> {
  const config = cli.config();
  const deps = await openExisting(config, cli.env);
  try {
    await use(deps.store, config);
  } finally {
    await deps.close();
  }
}

function keyJson(record: ApiKeyRecord, config: Config, key?: string) {
  return {
    id: record.id,
    ...(key === undefined ? { prefix: record.displayPrefix } : { key }),
    plan: record.plan,
    name: record.name,
    monthly_allowance: monthlyAllowance(record, planOf(record, config.settings)),
    created_at: record.createdAt,
    revoked_at: record.revokedAt,
  };
}

function wholeNumber(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_COUNT)
    throw new InvalidArgumentError(`must be a whole number from 0 to ${MAX_COUNT}`);
  return Number(raw);
}
