/**
 * `toolrun webhooks ...`: create, list, show, update and delete webhook endpoints, read their
 * deliveries, retry one, send a test event: through the same core functions as the admin API (so
 * every change is in the audit log, by `cli` and the operating-system user). The deliveries are
 * sent by the running servers, not by the command.
 */
import type { Command } from "commander";
import {
  createWebhook,
  deleteWebhook,
  existingWebhook,
  listDeliveries,
  listWebhooks,
  parseWebhookCreate,
  parseWebhookUpdate,
  retryDelivery,
  testWebhook,
  updateWebhook,
  webhookView,
} from "../core/admin/webhooks.ts";
import { WEBHOOK_EVENT_TYPES } from "../core/kernel/webhook-events.ts";
import { type CliContext, CliError, withDeps } from "./context.ts";
import { formatTable } from "./table.ts";

interface EndpointOptions {
  url?: string;
  events?: string[];
  description?: string;
  enabled?: boolean;
  json?: boolean;
}

const EVENTS_HELP = `event types, separated by commas or with the option repeated: ${WEBHOOK_EVENT_TYPES.join(", ")}`;

export function registerWebhooksCommands(program: Command, cli: CliContext): void {
  const webhooks = program
    .command("webhooks")
    .description("create, list, update and delete webhook endpoints; read, retry and test their deliveries");

  webhooks
    .command("create")
    .description("register an endpoint and print its signing secret (whsec_...) once")
    .requiredOption("--url <url>", "where deliveries are POSTed (http or https)")
    .requiredOption("--events <types>", EVENTS_HELP, eventList)
    .option("--description <text>", "what the endpoint is for")
    .option("--json", 'print one JSON object {"id","url","events","secret",...} and nothing else')
    .action((options: EndpointOptions) =>
      withDeps(cli, async (deps) => {
        const created = await createWebhook(deps, cli.actor(), parseWebhookCreate(endpointBody(options)));
        if (options.json) cli.out(JSON.stringify(created));
        else
          cli.out(
            `Created webhook endpoint ${created.id} for ${created.events.join(", ")}. Its signing secret, shown only this once:\n\n  ${created.secret}\n`,
          );
      }),
    );

  webhooks
    .command("list")
    .description("list endpoints with their URL, events and state (never their secrets)")
    .option("--json", "print a JSON array")
    .action((options: { json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const { webhooks: all } = await listWebhooks(deps);
        if (options.json) cli.out(JSON.stringify(all));
        else if (all.length === 0)
          cli.out("No webhook endpoints yet: toolrun webhooks create --url URL --events key.revoked");
        else
          cli.out(
            formatTable(
              ["ID", "URL", "EVENTS", "STATE", "DESCRIPTION", "CREATED"],
              all.map((w) => [
                w.id,
                w.url,
                w.events.join(","),
                w.enabled ? "enabled" : `disabled${w.disabled_reason ? ` (${w.disabled_reason})` : ""}`,
                w.description,
                w.created_at,
              ]),
            ),
          );
      }),
    );

  webhooks
    .command("show")
    .description("print one endpoint as JSON")
    .argument("<id>", "the endpoint's id (whe_...)")
    .action((id: string) =>
      withDeps(cli, async (deps) => {
        cli.out(JSON.stringify(webhookView(await existingWebhook(deps, id)), null, 2));
      }),
    );

  webhooks
    .command("update")
    .description("change an endpoint's URL, events or description, or turn it off or on")
    .argument("<id>", "the endpoint's id (whe_...)")
    .option("--url <url>", "a new URL")
    .option("--events <types>", `replace the events with these: ${EVENTS_HELP}`, eventList)
    .option("--description <text>", "a new description")
    .option("--enable", "send to it again (also after a 410 turned it off)")
    .option("--disable", "send nothing to it; its pending deliveries wait")
    .option("--json", "print the endpoint as one JSON object")
    .action((id: string, options: EndpointOptions & { enable?: boolean; disable?: boolean }) =>
      withDeps(cli, async (deps) => {
        if (options.enable && options.disable)
          throw new CliError("--enable and --disable exclude each other", 2);
        const body = endpointBody({
          ...options,
          ...(options.enable ? { enabled: true } : options.disable ? { enabled: false } : {}),
        });
        const updated = await updateWebhook(deps, cli.actor(), id, parseWebhookUpdate(body));
        if (options.json) cli.out(JSON.stringify(updated));
        else cli.out(`Updated webhook endpoint ${id}.`);
      }),
    );

  webhooks
    .command("delete")
    .description("remove an endpoint with its deliveries (what is pending is never sent)")
    .argument("<id>", "the endpoint's id (whe_...)")
    .action((id: string) =>
      withDeps(cli, async (deps) => {
        await deleteWebhook(deps, cli.actor(), id);
        cli.out(`Deleted webhook endpoint ${id}.`);
      }),
    );

  webhooks
    .command("deliveries")
    .description(
      "list an endpoint's deliveries, newest first, with their state and attempts (finished ones older than TOOLRUN_WEBHOOK_RETENTION_S are purged)",
    )
    .argument("<id>", "the endpoint's id (whe_...)")
    .option("--limit <n>", "how many (1 to 200)", "50")
    .option("--cursor <cursor>", "the next_cursor a previous page printed (with --json)")
    .option("--json", 'print one JSON object {"deliveries":[...],"next_cursor"}')
    .action((id: string, options: { limit: string; cursor?: string; json?: boolean }) =>
      withDeps(cli, async (deps) => {
        const limit = Number(options.limit);
        if (!/^\d{1,3}$/.test(options.limit) || limit < 1 || limit > 200)
          throw new CliError("--limit must be a whole number from 1 to 200", 2);
        const page = await listDeliveries(deps, id, { limit, cursor: options.cursor ?? null });
        if (options.json) cli.out(JSON.stringify(page));
        else if (page.deliveries.length === 0) cli.out(`No deliveries for ${id} yet.`);
        else
          cli.out(
            formatTable(
              [
                "ID",
                "EVENT",
                "TYPE",
                "STATE",
                { header: "ATTEMPTS", right: true },
                "LAST",
                "NEXT",
                "CREATED",
              ],
              page.deliveries.map((d) => {
                const last = d.attempt_log.at(-1);
                return [
                  d.id,
                  d.event_id,
                  d.event_type,
                  d.state,
                  d.attempts,
                  last ? (last.error ?? String(last.status_code)) : "",
                  d.next_attempt_at,
                  d.created_at,
                ];
              }),
            ),
          );
      }),
    );

  webhooks
    .command("retry")
    .description("send a delivery again now (one attempt more for one given up)")
    .argument("<id>", "the endpoint's id (whe_...)")
    .argument("<delivery-id>", "the delivery's id (dlv_...)")
    .action((id: string, deliveryId: string) =>
      withDeps(cli, async (deps) => {
        await retryDelivery(deps, cli.actor(), id, deliveryId);
        cli.out(`Delivery ${deliveryId} is due now; a running server sends it.`);
      }),
    );

  webhooks
    .command("test")
    .description("queue a webhook.test event for this endpoint alone")
    .argument("<id>", "the endpoint's id (whe_...)")
    .action((id: string) =>
      withDeps(cli, async (deps) => {
        const tested = await testWebhook(deps, cli.actor(), id);
        cli.out(
          tested.deliveries === 0
            ? `Endpoint ${id} is disabled: no test event was queued.`
            : `Queued test event ${tested.event_id} for ${id}; a running server sends it (toolrun webhooks deliveries ${id}).`,
        );
      }),
    );
}

/** The options as the admin API's body, so both are checked by the same schema. */
function endpointBody(options: EndpointOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.url !== undefined) body.url = options.url;
  if (options.events !== undefined) body.events = options.events;
  if (options.description !== undefined) body.description = options.description;
  if (options.enabled !== undefined) body.enabled = options.enabled;
  return body;
}

function eventList(raw: string, previous: string[] | undefined): string[] {
  const more = raw
    .split(",")
    .map((type) => type.trim())
    .filter((type) => type !== "");
  return [...new Set([...(previous ?? []), ...more])];
}
