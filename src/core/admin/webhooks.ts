/**
 * Operator actions on webhook endpoints and their deliveries, shared by the admin API and the CLI:
 * what they accept (JSON Schema, published in the OpenAPI document, the CLI's options checked with
 * the same parsers), what they answer (schemas and views), and the actions, each audited in the
 * store's transaction of its change. An endpoint's secret (`whsec_...`) is answered once, by the
 * create; it is kept as it is, since every delivery is signed with it.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { NewAuditEntry } from "../../ports/store.ts";
import type {
  WebhookAttemptRecord,
  WebhookDeliveryRecord,
  WebhookEndpointChange,
  WebhookEndpointRecord,
  WebhookStore,
} from "../../ports/webhook-store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { decodeCursor, encodeCursor } from "../contract/cursor.ts";
import { nullable, SCHEMA_DIALECT } from "../contract/schemas.ts";
import { ApiError } from "../kernel/errors.ts";
import { lazyInputValidator } from "../kernel/validation.ts";
import { EMITTED_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, webhookEvent } from "../kernel/webhook-events.ts";
import { type ActedBy, auditEntry } from "./audit.ts";
import { refuseNulCharacters } from "./input.ts";
import { ADMIN_LIST_LIMIT_DEFAULT, ADMIN_LIST_LIMIT_MAX, pageSchema } from "./schemas.ts";

export interface WebhookDeps {
  readonly store: WebhookStore;
  readonly now: () => Date;
}

// ---- What the actions accept --------------------------------------------------------------------

const MAX_URL_LENGTH = 2000;

const endpointProperties: Record<string, JsonSchema> = {
  url: {
    type: "string",
    minLength: 1,
    maxLength: MAX_URL_LENGTH,
    description:
      "Where deliveries are POSTed: an absolute http or https URL. Any host the server can reach, loopback and private addresses included (the operator sets it).",
  },
  events: {
    type: "array",
    minItems: 1,
    uniqueItems: true,
    items: { type: "string", enum: [...WEBHOOK_EVENT_TYPES] },
    description: `The event types to receive: ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}. Sent today: ${EMITTED_WEBHOOK_EVENTS.map((t) => `\`${t}\``).join(", ")}; the others may be subscribed to already.`,
  },
  description: { type: "string", maxLength: 500, description: "What the endpoint is for." },
};

export const webhookCreateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["url", "events"],
  properties: endpointProperties,
};

export const webhookUpdateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...endpointProperties,
    enabled: {
      type: "boolean",
      description:
        "false: nothing is sent to it, and its pending deliveries wait; true: they go on (an endpoint turned off by a 410 is turned on again this way).",
    },
  },
};

export interface WebhookInput {
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string;
}

function parser(schema: JsonSchema, what: string): (body: unknown) => Record<string, unknown> {
  const validate = lazyInputValidator(schema);
  return (body) => {
    refuseNulCharacters(body, `The ${what} is invalid.`);
    const checked = validate(body);
    if (!checked.ok)
      throw new ApiError("validation_error", `The ${what} is invalid.`, {
        extras: { fields: checked.fields },
      });
    return checked.value;
  };
}

const checkCreate = parser(webhookCreateSchema, "new webhook endpoint");
const checkUpdate = parser(webhookUpdateSchema, "webhook endpoint change");

/** An http(s) URL as given; 400 naming `url` otherwise. */
function httpUrl(value: unknown): string {
  const text = value as string;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "")
    throw new ApiError("validation_error", "The URL is not an http or https URL.", {
      extras: { fields: { url: "must be an absolute http or https URL" } },
    });
  if (url.username !== "" || url.password !== "")
    throw new ApiError("validation_error", "The URL carries credentials.", {
      extras: { fields: { url: "must not carry a user name or password (they would be stored and shown)" } },
    });
  return text;
}

export function parseWebhookCreate(body: unknown): WebhookInput {
  const input = checkCreate(body);
  return {
    url: httpUrl(input.url),
    events: input.events as string[],
    description: (input.description as string | undefined) ?? "",
  };
}

export function parseWebhookUpdate(body: unknown): WebhookEndpointChange {
  const input = checkUpdate(body);
  const change: { -readonly [K in keyof WebhookEndpointChange]: WebhookEndpointChange[K] } = {};
  if (input.url !== undefined) change.url = httpUrl(input.url);
  if (input.events !== undefined) change.events = input.events as string[];
  if (input.description !== undefined) change.description = input.description as string;
  if (input.enabled !== undefined) change.enabled = input.enabled as boolean;
  return change;
}

// ---- What they answer ---------------------------------------------------------------------------

const timestamp: JsonSchema = { type: "string", format: "date-time" };

const endpointViewProperties: Record<string, JsonSchema> = {
  id: { type: "string", description: "`whe_...`: how the admin API and the CLI name the endpoint." },
  url: { type: "string" },
  events: { type: "array", items: { type: "string" } },
  description: { type: "string" },
  enabled: { type: "boolean", description: "false: nothing is sent to it; its pending deliveries wait." },
  disabled_reason: {
    ...nullable({ type: "string", enum: ["gone"] }),
    description: "`gone`: the service turned it off because it answered 410. null otherwise.",
  },
  secret: {
    type: "string",
    description:
      "`whsec_...`, the key every delivery is signed with (Standard Webhooks): only in the answer that created the endpoint.",
  },
  created_at: timestamp,
  updated_at: timestamp,
};
const endpointRequired = [
  "id",
  "url",
  "events",
  "description",
  "enabled",
  "disabled_reason",
  "created_at",
  "updated_at",
];
const endpointItem: JsonSchema = {
  type: "object",
  required: endpointRequired,
  properties: endpointViewProperties,
};

export const webhookSchema: JsonSchema = { $schema: SCHEMA_DIALECT, ...endpointItem };
export const webhookWithSecretSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: [...endpointRequired, "secret"],
  properties: endpointViewProperties,
};
export const webhookListSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["webhooks"],
  properties: { webhooks: { type: "array", items: endpointItem, description: "Oldest first." } },
};
export const webhookDeletedSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["id", "deleted"],
  properties: { id: { type: "string" }, deleted: { type: "boolean", const: true } },
};

const deliveryItem: JsonSchema = {
  type: "object",
  required: [
    "id",
    "event_id",
    "event_type",
    "state",
    "attempts",
    "next_attempt_at",
    "created_at",
    "delivered_at",
    "attempt_log",
  ],
  properties: {
    id: { type: "string", description: "`dlv_...`: this event's delivery to this endpoint." },
    event_id: {
      type: "string",
      description: "`evt_...`: the `webhook-id` header, the same on every attempt.",
    },
    event_type: { type: "string" },
    state: {
      type: "string",
      enum: ["pending", "delivered", "failed"],
      description: "`failed`: given up (the retry schedule is spent, or the endpoint answered 410).",
    },
    attempts: { type: "integer", minimum: 0 },
    next_attempt_at: {
      ...nullable(timestamp),
      description: "When it is tried next; null once delivered or given up.",
    },
    created_at: timestamp,
    delivered_at: nullable(timestamp),
    attempt_log: {
      type: "array",
      description: "Every attempt, oldest first.",
      items: {
        type: "object",
        required: ["attempt", "at", "status_code", "error", "duration_ms"],
        properties: {
          attempt: { type: "integer", minimum: 1 },
          at: timestamp,
          status_code: { ...nullable({ type: "integer" }), description: "null: no answer came." },
          error: { ...nullable({ type: "string" }), description: "What went wrong; null for a 2xx." },
          duration_ms: { type: "integer", minimum: 0 },
        },
      },
    },
  },
};

export const webhookDeliverySchema: JsonSchema = { $schema: SCHEMA_DIALECT, ...deliveryItem };
export const webhookDeliveryListSchema: JsonSchema = pageSchema("deliveries", deliveryItem, "Newest first.");
export const webhookTestSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["event_id", "type", "deliveries"],
  properties: {
    event_id: { type: "string", description: "The `webhook-id` the test delivery carries." },
    type: { type: "string", const: "webhook.test" },
    deliveries: { type: "integer", minimum: 0, description: "1: the test delivery is queued." },
  },
};

const NAME_PATTERN = "^[A-Za-z0-9_.-]+$";
const id = (what: string): JsonSchema => ({
  type: "string",
  minLength: 1,
  maxLength: 100,
  pattern: NAME_PATTERN,
  description: what,
});
const parameters = (properties: Record<string, JsonSchema>, required: readonly string[]): JsonSchema => ({
  $schema: SCHEMA_DIALECT,
  type: "object",
  additionalProperties: false,
  required,
  properties,
});

export const webhookIdParameters = parameters({ id: id("The endpoint's id (`whe_...`).") }, ["id"]);
export const webhookDeliveryParameters = parameters(
  { id: id("The endpoint's id (`whe_...`)."), delivery_id: id("The delivery's id (`dlv_...`).") },
  ["id", "delivery_id"],
);
export const webhookDeliveryListParameters = parameters(
  {
    id: id("The endpoint's id (`whe_...`)."),
    limit: {
      type: "integer",
      minimum: 1,
      maximum: ADMIN_LIST_LIMIT_MAX,
      default: ADMIN_LIST_LIMIT_DEFAULT,
      description: "Most deliveries to return.",
    },
    cursor: { type: "string", minLength: 1, description: "`next_cursor` of the previous page." },
  },
  ["id"],
);

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  secret?: string;
}

export function webhookView(record: WebhookEndpointRecord, withSecret = false): WebhookView {
  return {
    id: record.id,
    url: record.url,
    events: [...record.events],
    description: record.description,
    enabled: record.enabled,
    disabled_reason: record.disabledReason,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    ...(withSecret ? { secret: record.secret } : {}),
  };
}

function attemptView(a: WebhookAttemptRecord) {
  return {
    attempt: a.attempt,
    at: a.at,
    status_code: a.statusCode,
    error: a.error,
    duration_ms: a.durationMs,
  };
}

export function deliveryView(d: WebhookDeliveryRecord) {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    state: d.state,
    attempts: d.attempts,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
    delivered_at: d.deliveredAt,
    attempt_log: d.attemptLog.map(attemptView),
  };
}

// ---- The actions --------------------------------------------------------------------------------

/** A new signing secret: 24 random bytes, base64, in the Standard Webhooks form. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

function newEndpointId(): string {
  return `whe_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

const entry = (by: ActedBy, now: Date, action: string, target: string, details: Record<string, unknown>) =>
  auditEntry(by, now, action, target, details) satisfies NewAuditEntry;

/** The endpoint, or 404 `webhook_not_found`. */
export async function existingWebhook(deps: WebhookDeps, id: string): Promise<WebhookEndpointRecord> {
  const record = await deps.store.getWebhookEndpoint(id);
  if (!record) throw new ApiError("webhook_not_found", "No webhook endpoint has this id.");
  return record;
}

export async function createWebhook(
  deps: WebhookDeps,
  by: ActedBy,
  input: WebhookInput,
): Promise<WebhookView> {
  const now = deps.now();
  const endpoint = {
    id: newEndpointId(),
    url: input.url,
    events: input.events,
    description: input.description,
    secret: newSecret(),
    createdAt: now.toISOString(),
  };
  await deps.store.createWebhookEndpoint(
    endpoint,
    entry(by, now, "webhooks.create", endpoint.id, {
      url: input.url,
      events: input.events,
      description: input.description,
    }),
  );
  return webhookView(await existingWebhook(deps, endpoint.id), true);
}

export async function listWebhooks(deps: WebhookDeps): Promise<{ webhooks: WebhookView[] }> {
  return { webhooks: (await deps.store.listWebhookEndpoints()).map((e) => webhookView(e)) };
}

export async function updateWebhook(
  deps: WebhookDeps,
  by: ActedBy,
  id: string,
  change: WebhookEndpointChange,
): Promise<WebhookView> {
  const now = deps.now();
  const details: Record<string, unknown> = { ...change };
  if (
    !(await deps.store.updateWebhookEndpoint(
      id,
      change,
      now.toISOString(),
      entry(by, now, "webhooks.update", id, details),
    ))
  )
    await existingWebhook(deps, id);
  return webhookView(await existingWebhook(deps, id));
}

export async function deleteWebhook(
  deps: WebhookDeps,
  by: ActedBy,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const now = deps.now();
  if (!(await deps.store.deleteWebhookEndpoint(id, entry(by, now, "webhooks.delete", id, {}))))
    await existingWebhook(deps, id);
  return { id, deleted: true };
}

const DELIVERY_CURSOR = "d1";

export async function listDeliveries(
  deps: WebhookDeps,
  id: string,
  page: { limit: number; cursor: string | null },
) {
  await existingWebhook(deps, id);
  const found = await deps.store.listWebhookDeliveries({
    endpointId: id,
    limit: page.limit,
    cursor: page.cursor === null ? null : decodeCursor(DELIVERY_CURSOR, page.cursor),
  });
  return {
    deliveries: found.deliveries.map(deliveryView),
    next_cursor: found.nextCursor === null ? null : encodeCursor(DELIVERY_CURSOR, found.nextCursor),
  };
}

/** Makes the delivery due now: one attempt more for one given up, or sooner for one waiting. */
export async function retryDelivery(deps: WebhookDeps, by: ActedBy, id: string, deliveryId: string) {
  await existingWebhook(deps, id);
  const now = deps.now();
  const audit = entry(by, now, "webhooks.retry", id, { delivery_id: deliveryId });
  if (!(await deps.store.retryWebhookDelivery(id, deliveryId, now.toISOString(), audit)))
    throw new ApiError("webhook_delivery_not_found", "The endpoint has no delivery with this id.");
  const delivery = await deps.store.getWebhookDelivery(id, deliveryId);
  if (!delivery)
    throw new ApiError("webhook_delivery_not_found", "The endpoint has no delivery with this id.");
  return deliveryView(delivery);
}

/** Queues a `webhook.test` event for this endpoint alone, whatever it subscribed to. */
export async function testWebhook(deps: WebhookDeps, by: ActedBy, id: string) {
  const endpoint = await existingWebhook(deps, id);
  const now = deps.now();
  const event = webhookEvent(
    "webhook.test",
    { endpoint_id: endpoint.id, message: "A test delivery from toolrun." },
    now,
    endpoint.id,
  );
  const written = await deps.store.appendWebhookEvents(
    [event],
    entry(by, now, "webhooks.test", id, { event_id: event.id }),
  );
  return { event_id: event.id, type: "webhook.test", deliveries: written };
}
