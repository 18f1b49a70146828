/**
 * `toolrun accounts ...`: create, list, show and update accounts (the customers whose keys share
 * one plan, balance and window), through the same core functions as the admin API, so every
 * change is in the audit log (by `cli` and the operating-system user).
 */
import { type Command, InvalidArgumentError } from "commander";
import { accountView, listAccountKeyViews, listAccountViews } from "../core/admin/account-view.ts";
import { createAccount, existingAccount, updateAccount } from "../core/admin/actions.ts";
import { addAccountGrant, grantView, listAccountGrants } from "../core/admin/grants.ts";
import { parseAccountCreate, parseAccountGrant, parseAccountUpdate } from "../core/admin/input.ts";
import { ADMIN_LIST_LIMIT_MAX } from "../core/admin/schemas.ts";
import { type CliContext, withDeps } from "./context.ts";
import { allowanceOrPlan, label, wholeNumber } from "./keys.ts";
import { formatTable } from "./table.ts";

interface AccountOptions {
  name?: string;
  plan?: string;
  credits?: number | "plan";
  metadata?: Record<string, string>;
  alertsUsed?: number[];
  alertsRemaining?: number[];
  alertsDefault?: boolean;
  json?: boolean;
}

export function registerAccountsCommands(program: Command, cli: CliContext): void {
  const accounts = program
    .command("accounts")
    .description(
      "create, list, show and update accounts: keys of one account share its plan, balance and window",
    );

  accounts
    .command("create")
    .description("create an account; then `toolrun keys create --account ID` gives it keys")
    .requiredOption("--name <text>", "a name to recognise the account by")
    .requiredOption("--plan <plan>", "the account's plan (free, builder, or one from TOOLRUN_CONFIG)")
    .option("--credits <n>", "the account's own monthly allowance instead of its plan's", wholeNumber)
    .option("--metadata <name=value>", "a label of your own; repeat for several", label, {})
    .option("--json", "print the account as one JSON object and nothing else")
    .action((options: AccountOptions) =>
      withDeps(cli, async (deps) => {
        const record = await createAccount(
          deps,
          cli.actor(),
          parseAccountCreate(accountBody(options), deps.settings),
        );
        const view = await accountView(deps, record);
        if (options.json) cli.out(JSON.stringify(view));
        else
          cli.out(
            `Created account ${view.id} (plan ${view.plan}). Add keys: toolrun keys create --account ${view.id}`,
          );
      }),
    );

  accounts
    .command("list")
    .description("list accounts with their plan, allowance, credits used this month and number of keys")
    .option("--json", "print a JSON array")
    .action((options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const all = [];
        let cursor: string | null = null;
        do {
          const page = await listAccountViews(deps, { limit: ADMIN_LIST_LIMIT_MAX, cursor });
          all.push(...page.accounts);
          cursor = page.next_cursor;
        } while (cursor !== null);
        if (options.json) cli.out(JSON.stringify(all));
        else if (all.length === 0)
          cli.out("No accounts yet: toolrun accounts create --name NAME --plan free");
        else
          cli.out(
            formatTable(
              [
                "ID",
                "PLAN",
                { header: "ALLOWANCE", right: true },
                { header: "USED", right: true },
                { header: "KEYS", right: true },
                "NAME",
                "CREATED",
              ],
              all.map((a) => [
                a.id,
                a.plan,
                a.monthly_allowance,
                a.credits_used,
                a.key_count,
                a.name,
                a.created_at,
              ]),
            ),
          );
      }),
    );

  accounts
    .command("show")
    .description("show an account, its balance this month and its keys")
    .argument("<id>", "the account's id (acc_...)")
    .option("--json", 'print one JSON object {"account", "keys"}')
    .action((id: string, options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const view = await accountView(deps, await existingAccount(deps.store, id));
        const keys = [];
        let cursor: string | null = null;
        do {
          const page = await listAccountKeyViews(deps, id, { limit: ADMIN_LIST_LIMIT_MAX, cursor });
          keys.push(...page.keys);
          cursor = page.next_cursor;
        } while (cursor !== null);
        if (options.json) {
          cli.out(JSON.stringify({ account: view, keys }));
          return;
        }
        cli.out(
          formatTable(
            [
              "ACCOUNT",
              "PLAN",
              { header: "ALLOWANCE", right: true },
              { header: "USED", right: true },
              { header: "LEFT", right: true },
              "NAME",
            ],
            [
              [
                view.id,
                view.plan,
                view.monthly_allowance,
                view.credits_used,
                view.credits_remaining,
                view.name,
              ],
            ],
          ),
        );
        cli.out(
          keys.length === 0
            ? `\nNo keys yet: toolrun keys create --account ${view.id}`
            : `\n${formatTable(
                ["KEY", "PREFIX", "STATUS", "NAME", "CREATED"],
                keys.map((k) => [k.id, `${k.prefix}…`, k.status, k.name, k.created_at]),
              )}`,
        );
      }),
    );

  accounts
    .command("update")
    .description("change an account's name, plan, own allowance or metadata (for all of its keys)")
    .argument("<id>", "the account's id (acc_...)")
    .option("--name <text>", "rename the account")
    .option("--plan <plan>", "move the account to another configured plan")
    .option(
      "--credits <n|plan>",
      "the account's own monthly allowance, or `plan` for its plan's",
      allowanceOrPlan,
    )
    .option("--metadata <name=value>", "replace the account's labels with these; repeat for several", label)
    .option(
      "--alerts-used <percents>",
      "its own credits.threshold percentages of the allowance used, e.g. 50,80,100 (`none` for none); replaces its own thresholds, a list left out is the configuration's",
      thresholds,
    )
    .option(
      "--alerts-remaining <credits>",
      "its own credits.threshold levels of spendable credits, e.g. 1000,100 (`none` for none); as --alerts-used",
      thresholds,
    )
    .option("--alerts-default", "back to the configuration's thresholds (alerts in TOOLRUN_CONFIG)")
    .option("--json", "print the account as one JSON object")
    .action((id: string, options: AccountOptions) =>
      withDeps(cli, async (deps) => {
        const record = await updateAccount(
          deps,
          cli.actor(),
          id,
          parseAccountUpdate(accountBody(options), deps.settings),
        );
        if (options.json) cli.out(JSON.stringify(await accountView(deps, record)));
        else cli.out(`Updated account ${id}.`);
      }),
    );

  accounts
    .command("grant")
    .description(
      "give an account a grant of credits, spent after its monthly allowance (earliest expiry first)",
    )
    .argument("<id>", "the account's id (acc_...)")
    .argument("<credits>", "how many credits", wholeNumber)
    .option("--expires <date-time>", "when what is left of it is gone (RFC 3339); never when absent")
    .option("--category <category>", "paid or promotional", "promotional")
    .option("--reference <text>", "the payment or campaign it stands for: the same one never grants twice")
    .option("--reason <text>", "why, for the audit log")
    .option("--json", "print the grant as one JSON object")
    .action((id: string, credits: number, options: GrantOptions) =>
      withDeps(cli, async (deps) => {
        const { reason, ...order } = parseAccountGrant(
          {
            credits,
            category: options.category,
            ...(options.expires === undefined ? {} : { expires_at: options.expires }),
            ...(options.reference === undefined ? {} : { reference: options.reference }),
            ...(options.reason === undefined ? {} : { reason: options.reason }),
          },
          deps.now(),
        );
        const { grant, created } = await addAccountGrant(
          deps,
          cli.actor(),
          id,
          order,
          reason === null ? {} : { reason },
        );
        if (options.json) cli.out(JSON.stringify(grantView(grant)));
        else if (created)
          cli.out(
            `Granted ${grant.credits} credits to ${id} (${grant.id}, ${grant.category}); ${grant.expiresAt === null ? "they never expire" : `they expire at ${grant.expiresAt}`}.`,
          );
        else
          cli.out(
            `Account ${id} already has grant ${grant.id} for reference ${grant.reference}; nothing granted.`,
          );
      }),
    );

  accounts
    .command("grants")
    .description("list an account's live grants, in the order calls spend them")
    .argument("<id>", "the account's id (acc_...)")
    .option("--json", "print a JSON array")
    .action((id: string, options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const grants = (await listAccountGrants(deps, id)).map(grantView);
        if (options.json) {
          cli.out(JSON.stringify(grants));
          return;
        }
        if (grants.length === 0) {
          cli.out(`Account ${id} has no live grants.`);
          return;
        }
        cli.out(
          formatTable(
            [
              "GRANT",
              "CATEGORY",
              { header: "CREDITS", right: true },
              { header: "LEFT", right: true },
              "EXPIRES",
              "REFERENCE",
            ],
            grants.map((g) => [
              g.id,
              g.category,
              g.credits,
              g.remaining,
              g.expires_at ?? "never",
              g.reference ?? "",
            ]),
          ),
        );
      }),
    );
}

interface GrantOptions {
  expires?: string;
  category: string;
  reference?: string;
  reason?: string;
  json?: boolean;
}

/** The options as the admin API's body, so both are checked by the same schema. */
function accountBody(options: AccountOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.plan !== undefined) body.plan = options.plan;
  if (options.credits !== undefined)
    body.monthly_allowance = options.credits === "plan" ? null : options.credits;
  if (options.metadata !== undefined) body.metadata = options.metadata;
  if (options.alertsDefault) body.alerts = null;
  else if (options.alertsUsed !== undefined || options.alertsRemaining !== undefined)
    body.alerts = {
      ...(options.alertsUsed && { usedPercent: options.alertsUsed }),
      ...(options.alertsRemaining && { remainingBelow: options.alertsRemaining }),
    };
  return body;
}

/** `50,80,100` or `none`; the admin API's schema checks the numbers' range. */
function thresholds(raw: string): number[] {
  if (raw === "none") return [];
  if (!/^\d+(,\d+)*$/.test(raw))
    throw new InvalidArgumentError("must be whole numbers separated by commas, or none");
  return raw.split(",").map(Number);
}
