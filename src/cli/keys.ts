/**
 * `toolrun keys ...`: create, list, update, grant credits to, revoke, rotate and re-plan API keys,
 * through the same core functions as the admin API (so every change is in the audit log, by `cli`
 * and the operating-system user).
 */
import { type Command, InvalidArgumentError } from "commander";
import { createApiKey, revokeApiKey, rotateApiKey, updateApiKey } from "../core/admin/actions.ts";
import { grantThisMonth, grantView } from "../core/admin/grants.ts";
import {
  knownTool,
  MAX_CREDITS,
  MAX_GRACE_SECONDS,
  parseGrant,
  parseKeyCreate,
  parseKeyUpdate,
  parseRotate,
} from "../core/admin/input.ts";
import { keyView } from "../core/admin/key-view.ts";
import { type CliContext, withDeps } from "./context.ts";
import { registerKeyAuthorizationCommands } from "./oauth.ts";
import { formatTable } from "./table.ts";

interface KeyOptions {
  account?: string;
  plan?: string;
  name?: string;
  /** `plan` (update only): back to the plan's allowance. */
  credits?: number | "plan";
  /** `never` (update only): no expiry. */
  expires?: string;
  metadata?: Record<string, string>;
  /** `all` (update only): every tool again. */
  tools?: string[] | "all";
  access?: string;
  json?: boolean;
}

export function registerKeysCommands(program: Command, cli: CliContext): void {
  const keys = program
    .command("keys")
    .description("create, list, update, grant credits to, revoke, rotate and re-plan API keys");

  keys
    .command("create")
    .description("create a key and print it once")
    .option(
      "--plan <plan>",
      "the plan of the key's own one-key account (free, builder, or one from TOOLRUN_CONFIG); required without --account",
    )
    .option(
      "--account <id>",
      "make the key a credential of this account (acc_...): its plan, balance and window",
    )
    .option("--name <text>", "a name to recognise the key by", "")
    .option(
      "--credits <n>",
      "the own monthly allowance of the key's one-key account instead of its plan's",
      wholeNumber,
    )
    .option("--expires <time>", "when the key stops working (RFC 3339, e.g. 2027-01-31T00:00:00Z)")
    .option("--metadata <name=value>", "a label of your own; repeat for several", label, {})
    .option("--tools <slugs>", "the only tools the key may see and call, comma-separated", toolList)
    .option("--access <full|read>", "read: the free reads only, no tool call (default full)")
    .option(
      "--json",
      'print one JSON object {"id","account_id","key","plan","name","monthly_allowance",...} and nothing else',
    )
    .action((options: KeyOptions, command: Command) => {
      // A key needs a plan for an account of its own, or an account that has one.
      if (options.plan === undefined && options.account === undefined)
        command.error("error: required option '--plan <plan>' not specified");
      return withDeps(cli, async (deps) => {
        const input = parseKeyCreate(keyBody(options), deps.settings, knownTool(deps));
        const created = await createApiKey(deps, cli.actor(), input);
        if (options.json)
          cli.out(JSON.stringify(keyView(created.record, deps.settings, deps.now(), created.key)));
        else
          cli.out(
            `Created key ${created.record.id} (account ${created.record.accountId}, plan ${created.record.plan}). Shown only this once:\n\n  ${created.key}\n`,
          );
      });
    });

  keys
    .command("list")
    .description("list keys with their plan, allowance, status and dates (never their secrets)")
    .option("--json", "print a JSON array")
    .action((options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const now = deps.now();
        const all = (await deps.store.listKeys()).map((k) => keyView(k, deps.settings, now));
        if (options.json) cli.out(JSON.stringify(all));
        else if (all.length === 0) cli.out("No keys yet: toolrun keys create --plan free");
        else
          cli.out(
            formatTable(
              [
                "ID",
                "PREFIX",
                "PLAN",
                { header: "ALLOWANCE", right: true },
                "STATUS",
                "NAME",
                "CREATED",
                "EXPIRES",
                "OLD SECRET UNTIL",
              ],
              all.map((k) => [
                k.id,
                `${k.prefix}…`,
                k.plan,
                k.monthly_allowance,
                k.status,
                k.name,
                k.created_at,
                k.expires_at,
                k.previous_secret_expires_at,
              ]),
            ),
          );
      }),
    );

  keys
    .command("update")
    .description("change a key's plan, name, own allowance, expiry, metadata, tools or access")
    .argument("<id>", "the key's id (key_...)")
    .option("--plan <plan>", "move the key to another configured plan")
    .option("--name <text>", "rename the key")
    .option(
      "--credits <n|plan>",
      "the key's own monthly allowance, or `plan` for its plan's",
      allowanceOrPlan,
    )
    .option("--expires <time|never>", "when the key stops working (RFC 3339), or `never`")
    .option("--metadata <name=value>", "replace the key's labels with these; repeat for several", label)
    .option("--tools <slugs|all>", "the only tools the key may use, comma-separated, or `all`", toolsOrAll)
    .option("--access <full|read>", "read: the free reads only, no tool call; full: its tools too")
    .option("--json", "print the key as one JSON object")
    .action((id: string, options: KeyOptions) =>
      withDeps(cli, async (deps) => {
        const change = parseKeyUpdate(keyBody(options), deps.settings, knownTool(deps));
        const record = await updateApiKey(deps, cli.actor(), id, change);
        if (options.json) cli.out(JSON.stringify(keyView(record, deps.settings, deps.now())));
        else cli.out(`Updated key ${id}.`);
      }),
    );

  keys
    .command("grant")
    .description("give a key's account a promotional grant that lapses when this calendar month (UTC) ends")
    .argument("<id>", "the key's id (key_...)")
    .argument("<credits>", "how many credits", wholeNumber)
    .option("--reason <text>", "why, for the audit log")
    .option("--json", "print the grant as one JSON object")
    .action((id: string, credits: number, options: { reason?: string; json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const grant = await grantThisMonth(
          deps,
          cli.actor(),
          id,
          parseGrant({
            credits,
            ...(options.reason ? { reason: options.reason } : {}),
          }),
        );
        if (options.json) cli.out(JSON.stringify(grantView(grant)));
        else
          cli.out(
            `Granted ${credits} credits to ${grant.accountId} through ${id} (${grant.id}); they lapse at ${grant.expiresAt}.`,
          );
      }),
    );

  keys
    .command("revoke")
    .description("revoke a key at once (its next request answers 401)")
    .argument("<id>", "the key's id (key_...)")
    .action((id: string) =>
      withDeps(cli, async (deps) => {
        await revokeApiKey(deps, cli.actor(), id);
        cli.out(`Revoked ${id}.`);
      }),
    );

  keys
    .command("rotate")
    .description("give a key a new secret, printed once; the old one stops working at once, or after --grace")
    .argument("<id>", "the key's id (key_...)")
    .option(
      "--grace <duration>",
      "keep the old secret working this long beside the new one (30s, 15m, 24h; at most 7d)",
      graceSeconds,
    )
    .option("--json", "print one JSON object with the new key")
    .action((id: string, options: { grace?: number; json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const input = parseRotate(options.grace === undefined ? undefined : { grace_seconds: options.grace });
        const rotated = await rotateApiKey(deps, cli.actor(), id, input);
        const view = keyView(rotated.record, deps.settings, deps.now(), rotated.key);
        if (options.json) cli.out(JSON.stringify(view));
        else
          cli.out(
            `New secret for ${id}; ${
              view.previous_secret_expires_at === null
                ? "the old one no longer works"
                : `the old one (${view.previous_prefix}…) works until ${view.previous_secret_expires_at}`
            }. Shown only this once:\n\n  ${rotated.key}\n`,
          );
      }),
    );

  keys
    .command("set-plan")
    .description("move a key to another configured plan (keys update ID --plan PLAN)")
    .argument("<id>", "the key's id (key_...)")
    .argument("<plan>", "the plan's id")
    .action((id: string, plan: string) =>
      withDeps(cli, async (deps) => {
        await updateApiKey(deps, cli.actor(), id, parseKeyUpdate({ plan }, deps.settings, knownTool(deps)));
        cli.out(`Key ${id} is now on plan ${plan}.`);
      }),
    );

  registerKeyAuthorizationCommands(keys, cli);
}

/** The options as the admin API's body, so both are checked by the same schema. */
function keyBody(options: KeyOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.account !== undefined) body.account_id = options.account;
  if (options.plan !== undefined) body.plan = options.plan;
  if (options.name !== undefined) body.name = options.name;
  if (options.credits !== undefined)
    body.monthly_allowance = options.credits === "plan" ? null : options.credits;
  if (options.expires !== undefined) body.expires_at = options.expires === "never" ? null : options.expires;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  if (options.tools !== undefined) body.tools = options.tools === "all" ? null : options.tools;
  if (options.access !== undefined) body.access = options.access;
  return body;
}

/** `--tools a,b`: the slugs as written (the admin API's checks name what is wrong with them). */
function toolList(raw: string): string[] {
  return raw.split(",").map((slug) => slug.trim());
}

/** `--tools all` stays the word until keyBody, as `--credits plan` does. */
function toolsOrAll(raw: string): string[] | "all" {
  return raw === "all" ? "all" : toolList(raw);
}

export function wholeNumber(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_CREDITS)
    throw new InvalidArgumentError(`must be a whole number from 0 to ${MAX_CREDITS}`);
  return Number(raw);
}

const SECONDS_PER: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * `--grace`: a whole number and one unit (s, m, h, d), as seconds from 1 to 7 days. A regular
 * expression rather than a duration library: those also take fractions, bare milliseconds and
 * words, which the admin API's whole `grace_seconds` has no room for.
 */
function graceSeconds(raw: string): number {
  const match = /^(\d{1,9})([smhd])$/.exec(raw);
  const seconds = match ? Number(match[1]) * (SECONDS_PER[match[2] as string] as number) : 0;
  if (seconds < 1 || seconds > MAX_GRACE_SECONDS)
    throw new InvalidArgumentError(
      "must be a duration from 1s to 7d: a whole number and s, m, h or d (30s, 15m, 24h)",
    );
  return seconds;
}

// The words stay words until keyBody: commander stores a parser's null as an empty string.
export function allowanceOrPlan(raw: string): number | "plan" {
  return raw === "plan" ? "plan" : wholeNumber(raw);
}

export function label(raw: string, previous: Record<string, string> | undefined): Record<string, string> {
  const at = raw.indexOf("=");
  if (at < 1) throw new InvalidArgumentError("must be name=value");
  return { ...previous, [raw.slice(0, at)]: raw.slice(at + 1) };
}
