/**
 * `toolrun usage export` and `toolrun calls list`: the usage export (every page, NDJSON CloudEvents,
 * to standard output or a file) and the calls listing with who made each call, through the same
 * core functions and the same parameter checks as `GET /admin/v1/usage/events` and
 * `GET /admin/v1/calls`.
 */
import { open } from "node:fs/promises";
import type { Command } from "commander";
import {
  CALLS_LIMIT_MAX,
  checkCallsArgs,
  checkUsageEventsArgs,
  EVENTS_LIMIT_MAX,
  listCallViews,
  readUsageEvents,
} from "../core/admin/calls.ts";
import { type CliContext, withDeps } from "./context.ts";
import { formatTable } from "./table.ts";

interface ExportOptions {
  since?: string;
  until?: string;
  account?: string;
  cursor?: string;
  out?: string;
}

interface ListOptions {
  account?: string;
  key?: string;
  tool?: string;
  outcome?: string;
  since?: string;
  until?: string;
  limit: string;
  cursor?: string;
  json?: boolean;
}

/** The options that were given, as the API's parameters. */
function given(options: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

export function registerUsageCommands(program: Command, cli: CliContext): void {
  program
    .command("usage")
    .description("the usage export: settled calls as CloudEvents for a billing system")
    .command("export")
    .description(
      "write every settled call (after --cursor) as NDJSON CloudEvents 1.0, oldest settlement first, then print the cursor to resume from on standard error",
    )
    .option("--since <time>", "only calls settled at or after this RFC 3339 date-time")
    .option("--until <time>", "only calls settled before this RFC 3339 date-time")
    .option("--account <id>", "only this account's calls (acc_...)")
    .option("--cursor <cursor>", "start after this cursor (printed by an earlier export)")
    .option("--out <file>", "write to this file (replaced) instead of standard output")
    .action((options: ExportOptions) =>
      withDeps(cli, async (deps) => {
        const { out, ...filters } = options;
        const base = checkUsageEventsArgs({ ...given(filters), limit: EVENTS_LIMIT_MAX });
        const file = out === undefined ? undefined : await open(out, "w");
        let cursor = (base.cursor as string | undefined) ?? null;
        let count = 0;
        try {
          for (;;) {
            const page = await readUsageEvents(deps, { ...base, ...(cursor === null ? {} : { cursor }) });
            if (page.count > 0) {
              if (file) await file.write(page.ndjson);
              else cli.out(page.ndjson.slice(0, -1));
            }
            count += page.count;
            cursor = page.nextCursor;
            if (!page.more) break;
          }
        } finally {
          await file?.close();
        }
        process.stderr.write(
          `${count} event${count === 1 ? "" : "s"} exported.${cursor === null ? "" : ` Resume with --cursor ${cursor}`}\n`,
        );
      }),
    );

  program
    .command("calls")
    .description("the recorded calls with who made them")
    .command("list")
    .description(
      "list calls, newest first: key, credential, transport and client of each (no request body is stored)",
    )
    .option("--account <id>", "only this account's calls (acc_...)")
    .option("--key <id>", "only the calls made with this key (key_...)")
    .option("--tool <slug>", "only this tool's calls")
    .option("--outcome <outcome>", "only calls that ended so: pending, charged or refunded")
    .option("--since <time>", "only calls made at or after this RFC 3339 date-time")
    .option("--until <time>", "only calls made before this RFC 3339 date-time")
    .option("--limit <n>", `how many (1 to ${CALLS_LIMIT_MAX})`, "50")
    .option("--cursor <cursor>", "the next_cursor a previous page printed (with --json)")
    .option("--json", 'print one JSON object {"calls":[...],"next_cursor"}')
    .action((options: ListOptions) =>
      withDeps(cli, async (deps) => {
        const { json, limit, ...filters } = options;
        // A whole number is the API's integer; anything else is checked, and refused, as it is.
        const args = { ...given(filters), limit: /^\d{1,6}$/.test(limit) ? Number(limit) : limit };
        const page = await listCallViews(deps.store, checkCallsArgs(args));
        if (json) cli.out(JSON.stringify(page));
        else if (page.calls.length === 0) cli.out("No calls.");
        else
          cli.out(
            formatTable(
              [
                "AT",
                "ID",
                "ACCOUNT",
                "KEY",
                "TOOL",
                "OUTCOME",
                "CREDITS",
                "CREDENTIAL",
                "TRANSPORT",
                "CLIENT",
              ],
              page.calls.map((c) => [
                c.at,
                c.id,
                c.account_id,
                c.key_id,
                c.tool,
                c.outcome,
                c.credits,
                c.credential,
                c.transport,
                c.client === null
                  ? null
                  : [c.client.name, c.client.version].filter((part) => part !== null).join(" ") ||
                    c.client.id,
              ]),
            ),
          );
      }),
    );
}
