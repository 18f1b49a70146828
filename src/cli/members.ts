/**
 * `toolrun members ...` and `toolrun accounts invite`: the people who sign in to the console, through
 * the same core functions as the admin API (every change audited as `cli` and the operating-system
 * user).
 */
import { type Command, InvalidArgumentError } from "commander";
import { inviteMember, listMemberViews, parseInvite, setMemberStatus } from "../core/admin/members.ts";
import { ADMIN_LIST_LIMIT_MAX } from "../core/admin/schemas.ts";
import { type CliContext, withDeps } from "./context.ts";
import { formatTable } from "./table.ts";

export function registerMembersCommands(program: Command, cli: CliContext): void {
  const members = program
    .command("members")
    .description("list the people who sign in to the console, disable and enable them");

  members
    .command("list")
    .description("list members, oldest first")
    .option("--account <id>", "only this account's members")
    .option("--json", "print a JSON array")
    .action((options: { account?: string; json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const all = [];
        let cursor: string | null = null;
        do {
          const page = await listMemberViews(deps, {
            limit: ADMIN_LIST_LIMIT_MAX,
            cursor,
            accountId: options.account ?? null,
          });
          all.push(...page.members);
          cursor = page.next_cursor;
        } while (cursor !== null);
        if (options.json) cli.out(JSON.stringify(all));
        else if (all.length === 0) cli.out("No members yet: they appear when people sign in to the console.");
        else
          cli.out(
            formatTable(
              ["ID", "ACCOUNT", "EMAIL", "NAME", "STATUS", "CREATED", "LAST SEEN"],
              all.map((m) => [m.id, m.account_id, m.email, m.name, m.status, m.created_at, m.last_seen_at]),
            ),
          );
      }),
    );

  members
    .command("disable")
    .description("disable a member: its console sessions end at once and it cannot sign in")
    .argument("<id>", "the member's id (mem_...)")
    .action((id: string) =>
      withDeps(cli, async (deps) => {
        await setMemberStatus(deps, cli.actor(), id, "disabled");
        cli.out(`Disabled member ${id}; its sessions have ended.`);
      }),
    );

  members
    .command("enable")
    .description("let a disabled member sign in again")
    .argument("<id>", "the member's id (mem_...)")
    .action((id: string) =>
      withDeps(cli, async (deps) => {
        await setMemberStatus(deps, cli.actor(), id, "active");
        cli.out(`Enabled member ${id}.`);
      }),
    );
}

/** `toolrun accounts invite ID EMAIL`, on the `accounts` command (made here when it is not yet). */
export function registerAccountInviteCommand(program: Command, cli: CliContext): void {
  const accounts =
    program.commands.find((c) => c.name() === "accounts") ??
    program.command("accounts").description("the accounts that own the plan, the balance and the keys");
  accounts
    .command("invite")
    .description("let an email sign in to the console and join the account (the provider must verify it)")
    .argument("<id>", "the account's id (acc_...)")
    .argument("<email>", "the email, as the provider verifies it", (raw: string) => {
      if (!/^[^@\s]+@[^@\s]+$/.test(raw)) throw new InvalidArgumentError("not an email address.");
      return raw;
    })
    .action((id: string, email: string) =>
      withDeps(cli, async (deps) => {
        const invite = await inviteMember(deps, cli.actor(), id, parseInvite({ email }).email);
        cli.out(`Invited ${invite.email} to account ${invite.account_id}.`);
      }),
    );
}
