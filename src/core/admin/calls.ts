/**
 * Who called, and the usage export, for the operator: the calls listing (`GET /admin/v1/calls`,
 * `toolrun calls list`) and the settled calls as CloudEvents 1.0, one JSON object a line
 * (`GET /admin/v1/usage/events`, `toolrun usage export`), ready for OpenMeter as they are and
 * mappable to other billing systems (docs/operations.md). Cursors are opaque (contract/cursor.ts).
 */
import {
  CALL_OUTCOMES,
  type CallLog,
  type CallOutcomeName,
  type CallRecord,
  type CallsQuery,
  type UsageEventsQuery,
} from "../../ports/call-log.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { decodeCursor, encodeCursor } from "../contract/cursor.ts";
import { nullable, SCHEMA_DIALECT } from "../contract/schemas.ts";
import { ApiError } from "../kernel/errors.ts";
import type { ServiceSettings } from "../kernel/settings.ts";
import { lazyInputValidator } from "../kernel/validation.ts";
import { pageSchema, parameters } from "./schemas.ts";

export const CALLS_LIMIT_DEFAULT = 50;
export const CALLS_LIMIT_MAX = 200;
export const EVENTS_LIMIT_DEFAULT = 500;
export const EVENTS_LIMIT_MAX = 1000;

/** `application/x-ndjson`: one JSON value a line, each line ended by `\n`. */
export const NDJSON_TYPE = "application/x-ndjson";

/** The header that carries the export's next cursor (its body is the events alone). */
export const NEXT_CURSOR_HEADER = "toolrun-next-cursor";
/** `true` when more settled calls were ready after this page. */
export const MORE_HEADER = "toolrun-more";

const CALLS_CURSOR = "c1";
const EVENTS_CURSOR = "e1";
/** A store's export position: one number (SQLite) or two joined by `.` (PostgreSQL). */
const EVENTS_POSITION = /^[0-9]{1,19}(\.[0-9]{1,19})?$/;

const NAME_PATTERN = "^[A-Za-z0-9_.-]+$";
const name = (description: string): JsonSchema => ({
  type: "string",
  minLength: 1,
  maxLength: 100,
  pattern: NAME_PATTERN,
  description,
});
const time = (description: string): JsonSchema => ({ type: "string", format: "date-time", description });
const limit = (max: number, fallback: number, what: string): JsonSchema => ({
  type: "integer",
  minimum: 1,
  maximum: max,
  default: fallback,
  description: `Most ${what} to return.`,
});
const cursor: JsonSchema = {
  type: "string",
  minLength: 1,
  description: "`next_cursor` of the previous page.",
};

export const callsParameters = parameters({
  account: name("Only the calls of this account (`acc_...`)."),
  key: name("Only the calls made with this key (`key_...`)."),
  tool: name("Only the calls of this tool (its slug)."),
  outcome: { type: "string", enum: [...CALL_OUTCOMES], description: "Only the calls that ended so." },
  since: time("Only the calls made at or after this RFC 3339 date-time."),
  until: time("Only the calls made before this RFC 3339 date-time."),
  limit: limit(CALLS_LIMIT_MAX, CALLS_LIMIT_DEFAULT, "calls"),
  cursor,
});

export const usageEventsParameters = parameters({
  account: name("Only the calls of this account (`acc_...`)."),
  since: time("Only the calls settled at or after this RFC 3339 date-time."),
  until: time("Only the calls settled before this RFC 3339 date-time."),
  limit: limit(EVENTS_LIMIT_MAX, EVENTS_LIMIT_DEFAULT, "events"),
  cursor: {
    ...cursor,
    description: `The \`${NEXT_CURSOR_HEADER}\` header of the previous answer: the events after it.`,
  },
});

const text = (description: string): JsonSchema => ({ ...nullable({ type: "string" }), description });

const clientSchema: JsonSchema = {
  ...nullable({
    type: "object",
    required: ["id", "name", "version"],
    properties: {
      id: text("The OAuth client the authorization was granted to; null for a key."),
      name: text("The MCP client's clientInfo `name`, when it sent one."),
      version: text("The MCP client's clientInfo `version`, when it sent one."),
    },
  }),
  description: "The client that called, when anything is known of it; null otherwise.",
};

const whoCalled: Record<string, JsonSchema> = {
  key_id: {
    type: "string",
    description: "The key that made the call (or that the OAuth authorization acts for).",
  },
  credential: {
    ...nullable({ type: "string" }),
    description:
      "`key` when the key itself was sent, or the `authz_...` id of the OAuth authorization whose access token was; null for calls recorded before toolrun kept it.",
  },
  transport: { ...nullable({ type: "string", enum: ["http", "mcp"] }), description: "How the call came." },
  client: clientSchema,
};

const callItem: JsonSchema = {
  type: "object",
  required: [
    "id",
    "request_id",
    "account_id",
    "key_id",
    "tool",
    "outcome",
    "http_status",
    "credits",
    "at",
    "settled_at",
    "credential",
    "transport",
    "client",
  ],
  properties: {
    id: { type: "string", description: "The call's id (the export's event `id`)." },
    request_id: { type: "string" },
    account_id: { type: "string" },
    tool: { type: "string" },
    outcome: { type: "string", enum: [...CALL_OUTCOMES], description: "`pending` while a reservation runs." },
    http_status: { ...nullable({ type: "integer" }), description: "The status the call ended with." },
    credits: { type: "integer", minimum: 0, description: "Credits charged; 0 when refunded." },
    at: { type: "string", format: "date-time", description: "When the call was made." },
    settled_at: {
      ...nullable({ type: "string", format: "date-time" }),
      description: "When it was charged or refunded; null while pending.",
    },
    ...whoCalled,
  },
};

export const callListSchema: JsonSchema = pageSchema(
  "calls",
  callItem,
  "Newest first. No request body is ever stored.",
);

/** One line of the export (the schema of each line, not of the whole body). */
export const usageEventSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  description: "One line of the answer: a CloudEvents 1.0 event (JSON format) for one settled call.",
  required: ["specversion", "id", "type", "source", "subject", "time", "datacontenttype", "data"],
  properties: {
    specversion: { const: "1.0" },
    id: { type: "string", description: "The call's id: the same on every read." },
    type: { const: "toolrun.call" },
    source: { type: "string", description: "`TOOLRUN_PUBLIC_URL`." },
    subject: { type: "string", description: "The account's id (`acc_...`): the customer to bill." },
    time: { type: "string", format: "date-time", description: "When the call was charged or refunded." },
    datacontenttype: { const: "application/json" },
    data: {
      type: "object",
      required: ["tool", "outcome", "credits", "key_id", "credential", "transport", "client", "request_id"],
      properties: {
        tool: { type: "string" },
        outcome: { type: "string", enum: ["charged", "refunded"] },
        credits: { type: "integer", minimum: 0, description: "Credits charged; 0 when refunded." },
        request_id: { type: "string" },
        ...whoCalled,
      },
    },
  },
};

type Args = Record<string, unknown>;

const utc = (value: unknown) => (typeof value === "string" ? new Date(value).toISOString() : undefined);

function filters(args: Args) {
  const set = <T>(field: string, value: T | undefined) => (value === undefined ? {} : { [field]: value });
  return {
    ...set("accountId", args.account as string | undefined),
    ...set("keyId", args.key as string | undefined),
    ...set("tool", args.tool as string | undefined),
    ...set("outcome", args.outcome as CallOutcomeName | undefined),
    ...set("since", utc(args.since)),
    ...set("until", utc(args.until)),
  };
}

function clientOf(call: CallRecord) {
  const origin = call.origin;
  if (origin === null) return null;
  if (origin.oauthClientId === null && origin.clientName === null && origin.clientVersion === null)
    return null;
  return { id: origin.oauthClientId, name: origin.clientName, version: origin.clientVersion };
}

function whoCalledView(call: CallRecord) {
  return {
    key_id: call.keyId,
    credential: call.origin?.credential ?? null,
    transport: call.origin?.transport ?? null,
    client: clientOf(call),
  };
}

export function callView(call: CallRecord) {
  return {
    id: call.callId,
    request_id: call.requestId,
    account_id: call.accountId,
    tool: call.tool,
    outcome: call.outcome,
    http_status: call.httpStatus,
    credits: call.credits,
    at: call.at,
    settled_at: call.settledAt,
    ...whoCalledView(call),
  };
}

/** A settled call as a CloudEvents 1.0 event. */
export function usageEvent(call: CallRecord, settings: Pick<ServiceSettings, "publicUrl">) {
  const { key_id, credential, transport, client } = whoCalledView(call);
  return {
    specversion: "1.0",
    id: call.callId,
    type: "toolrun.call",
    source: settings.publicUrl,
    subject: call.accountId,
    time: call.settledAt ?? call.at,
    datacontenttype: "application/json",
    data: {
      tool: call.tool,
      outcome: call.outcome,
      credits: call.credits,
      key_id,
      credential,
      transport,
      client,
      request_id: call.requestId,
    },
  };
}

export async function listCallViews(store: Pick<CallLog, "listCalls">, args: Args) {
  const query: CallsQuery = {
    limit: (args.limit as number | undefined) ?? CALLS_LIMIT_DEFAULT,
    cursor: typeof args.cursor === "string" ? decodeCursor(CALLS_CURSOR, args.cursor) : null,
    ...filters(args),
  };
  const page = await store.listCalls(query);
  return {
    calls: page.calls.map(callView),
    next_cursor: page.nextCursor === null ? null : encodeCursor(CALLS_CURSOR, page.nextCursor),
  };
}

export interface UsageEventsAnswer {
  /** The events, one JSON object a line, each ended by `\n`; empty when none. */
  readonly ndjson: string;
  readonly count: number;
  /** Where the next read starts; null only when nothing was read and no cursor given. */
  readonly nextCursor: string | null;
  readonly more: boolean;
}

export async function readUsageEvents(
  deps: {
    readonly store: Pick<CallLog, "usageEvents">;
    readonly settings: Pick<ServiceSettings, "publicUrl">;
  },
  args: Args,
): Promise<UsageEventsAnswer> {
  const { keyId: _k, tool: _t, outcome: _o, ...wanted } = filters(args);
  const query: UsageEventsQuery = {
    limit: (args.limit as number | undefined) ?? EVENTS_LIMIT_DEFAULT,
    cursor:
      typeof args.cursor === "string" ? decodeCursor(EVENTS_CURSOR, args.cursor, EVENTS_POSITION) : null,
    ...wanted,
  };
  const page = await deps.store.usageEvents(query);
  return {
    ndjson: page.calls.map((call) => `${JSON.stringify(usageEvent(call, deps.settings))}\n`).join(""),
    count: page.calls.length,
    nextCursor: page.nextCursor === null ? null : encodeCursor(EVENTS_CURSOR, page.nextCursor),
    more: page.more,
  };
}

const checkCalls = lazyInputValidator(callsParameters);
const checkEvents = lazyInputValidator(usageEventsParameters);

function checked(check: typeof checkCalls, args: Args): Args {
  const result = check(args);
  if (!result.ok)
    throw new ApiError("validation_error", "The parameters are invalid.", {
      extras: { fields: result.fields },
    });
  return result.value;
}

/** The calls listing's parameters from outside the HTTP API (the CLI's options), checked alike. */
export const checkCallsArgs = (args: Args): Args => checked(checkCalls, args);
/** The export's parameters from outside the HTTP API (the CLI's options), checked alike. */
export const checkUsageEventsArgs = (args: Args): Args => checked(checkEvents, args);
