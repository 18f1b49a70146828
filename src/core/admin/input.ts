/**
 * What the admin actions accept, as JSON Schema (the admin API validates its bodies with these and
 * publishes them in the OpenAPI document) and as the typed input the core functions take. The CLI
 * passes its options through the same parsers, so a bad value gets the same message either way.
 */
import {
  type AccountAlerts,
  type AccountChange,
  GRANT_CATEGORIES,
  type GrantCategory,
  KEY_ACCESS,
  type KeyAccess,
  type KeyChange,
} from "../../ports/store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { ALERTS_SCHEMA, readAlerts } from "../kernel/credit-alerts.ts";
import { ApiError } from "../kernel/errors.ts";
import type { ServiceSettings } from "../kernel/settings.ts";
import { lazyInputValidator } from "../kernel/validation.ts";
import type { ToolRegistry } from "../tools/registry.ts";

/** The most tools one key may be limited to (more than any service offers in practice). */
export const MAX_KEY_TOOLS = 500;

/** The largest own allowance, or single grant, an operator may set (within the stores' MAX_ALLOWANCE). */
export const MAX_CREDITS = 1_000_000_000;

/** The times both stores hold alike: from 1970 to the end of 9999, UTC. */
const EARLIEST_TIME_MS = 0;
const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** `ms` as the stores keep a time (a UTC ISO string), or null when it is outside what they hold. */
export function storableTime(ms: number): string | null {
  return Number.isFinite(ms) && ms >= EARLIEST_TIME_MS && ms <= LATEST_TIME_MS
    ? new Date(ms).toISOString()
    : null;
}

const NUL = "\u0000";
const NUL_MESSAGE = "must not contain the NUL character (U+0000)";

/**
 * 400 naming every field whose text holds a NUL character, names included (`metadata.team`), for
 * any admin input: bodies, path and query parameters. PostgreSQL cannot store one in text, so
 * refusing it here, before any store, keeps both stores' answers alike.
 */
export function refuseNulCharacters(input: unknown, detail: string): void {
  const fields: Record<string, string> = {};
  const walk = (value: unknown, path: string) => {
    if (typeof value === "string") {
      if (value.includes(NUL)) fields[path || "body"] = NUL_MESSAGE;
    } else if (typeof value === "object" && value !== null) {
      for (const [name, member] of Object.entries(value)) {
        const at = path === "" ? name : `${path}.${name}`;
        // A name with a NUL is named without it: the field's name would carry the character back.
        if (name.includes(NUL)) fields[path === "" ? "body" : path] = NUL_MESSAGE;
        else walk(member, at);
      }
    }
  };
  walk(input, "");
  if (Object.keys(fields).length > 0) throw invalid(detail, fields);
}

const TIMESTAMP_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$";

const keyProperties: Record<string, JsonSchema> = {
  plan: {
    type: "string",
    minLength: 1,
    maxLength: 64,
    description: "A configured plan: free, builder, or one from TOOLRUN_CONFIG.",
  },
  name: { type: "string", maxLength: 200, description: "A name to recognise the key by." },
  monthly_allowance: {
    type: ["integer", "null"],
    minimum: 0,
    maximum: MAX_CREDITS,
    description: "The key's own monthly allowance instead of its plan's; null for the plan's.",
  },
  metadata: {
    type: "object",
    maxProperties: 20,
    propertyNames: { pattern: "^[A-Za-z0-9_.-]{1,40}$" },
    additionalProperties: { type: "string", maxLength: 500 },
    description:
      "The operator's own labels, replaced as a whole: at most 20 names of 1 to 40 letters, digits, `_`, `.` or `-`, each with a string of at most 500 characters. Never put secrets here.",
  },
  expires_at: {
    type: ["string", "null"],
    pattern: TIMESTAMP_PATTERN,
    description:
      "RFC 3339 date-time from which the key answers 401 `invalid_api_key` (expired); null for never. A time in the past expires the key at once. From 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z.",
  },
  tools: {
    type: ["array", "null"],
    minItems: 1,
    maxItems: MAX_KEY_TOOLS,
    uniqueItems: true,
    items: { type: "string", minLength: 1, maxLength: 100 },
    description:
      "The slugs of the only tools the key may see and call (every other answers 404 `tool_not_found` to it, as an unknown slug); null or absent for every tool. Each must be a tool this service has.",
  },
  access: {
    type: "string",
    enum: [...KEY_ACCESS],
    description:
      "`full` (the default): the key may call its tools. `read`: only the free reads (catalog, search, schemas, its credits and usage); a tool call answers 403 `key_read_only`.",
  },
};

const ACCOUNT_ID_PATTERN = "^acc_[A-Za-z0-9_.-]{1,100}$";

export const keyCreateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    account_id: {
      type: "string",
      pattern: ACCOUNT_ID_PATTERN,
      description:
        "The account the key is a credential of: it spends that account's balance and shares its window. Absent: the key gets a one-key account of its own, from `plan` (then required) and `monthly_allowance`. With it, `plan` and `monthly_allowance` are the account's and must be absent.",
    },
    ...keyProperties,
  },
};

const accountProperties: Record<string, JsonSchema> = {
  name: { type: "string", maxLength: 200, description: "A name to recognise the account by." },
  plan: keyProperties.plan as JsonSchema,
  monthly_allowance: {
    type: ["integer", "null"],
    minimum: 0,
    maximum: MAX_CREDITS,
    description: "The account's own monthly allowance instead of its plan's; null for the plan's.",
  },
  metadata: keyProperties.metadata as JsonSchema,
};

export const accountCreateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "plan"],
  properties: accountProperties,
};

export const accountUpdateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...accountProperties,
    alerts: {
      ...ALERTS_SCHEMA,
      type: ["object", "null"],
      description:
        "The account's own thresholds of the `credits.threshold` webhook event; a member left out, or null for both, is the configuration's (`alerts` in TOOLRUN_CONFIG).",
    },
  },
};

export const keyUpdateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: keyProperties,
};

export const grantSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["credits"],
  properties: {
    credits: {
      type: "integer",
      minimum: 1,
      maximum: MAX_CREDITS,
      description:
        "Credits of a promotional grant to the key's account that lapses when this calendar month (UTC) ends.",
    },
    reason: { type: "string", maxLength: 500, description: "Why, for the audit log." },
  },
};

export const accountGrantSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  required: ["credits"],
  properties: {
    credits: { type: "integer", minimum: 1, maximum: MAX_CREDITS, description: "Credits granted." },
    expires_at: {
      type: ["string", "null"],
      pattern: TIMESTAMP_PATTERN,
      description:
        "RFC 3339 date-time, in the future, at which what is left of the grant is gone; absent or null: it never expires.",
    },
    category: {
      type: "string",
      enum: [...GRANT_CATEGORIES],
      description: "`paid` (bought) or `promotional` (given); `promotional` when absent.",
    },
    reference: {
      type: ["string", "null"],
      minLength: 1,
      maxLength: 200,
      description:
        "The payment or campaign the grant stands for. The same reference on the same account grants once: asked again, it answers 200 with the first grant.",
    },
    reason: { type: "string", maxLength: 500, description: "Why, for the audit log." },
  },
};

/** The longest a rotated-away secret may keep working: 7 days. */
export const MAX_GRACE_SECONDS = 7 * 24 * 60 * 60;

export const rotateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    grace_seconds: {
      type: "integer",
      minimum: 1,
      maximum: MAX_GRACE_SECONDS,
      description: `How long the old secret keeps working beside the new one, in seconds (at most ${MAX_GRACE_SECONDS}, 7 days); absent, it stops working at once. Only one old secret works at a time: rotating again ends the grace of the one before.`,
    },
  },
};

export const switchSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    enabled: { type: "boolean", description: "false: calls answer 503 `tool_disabled`." },
    api: {
      type: "boolean",
      description: "false: calls answer 403 `tool_not_allowed`, and MCP does not list it.",
    },
  },
};

export const adminKeyCreateSchema: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: { name: { type: "string", maxLength: 200 } },
};

export interface KeyInput {
  /** The account the key joins; null: a one-key account of its own from `plan` and `monthlyAllowance`. */
  readonly accountId: string | null;
  readonly plan: string;
  readonly name: string;
  readonly monthlyAllowance: number | null;
  readonly expiresAt: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  /** null: every tool. */
  readonly tools: readonly string[] | null;
  readonly access: KeyAccess;
}

/** Whether a slug names a tool this service has (the registry's answer). */
export type KnownTool = (slug: string) => boolean;

export function knownTool(deps: { readonly registry: ToolRegistry }): KnownTool {
  return (slug) => deps.registry.get(slug) !== undefined;
}

/** A key's change: its own members, and its account's plan and allowance (which act on the account). */
export interface KeyUpdate extends KeyChange {
  readonly plan?: string;
  readonly monthlyAllowance?: number | null;
}

export interface AccountInput {
  readonly name: string;
  readonly plan: string;
  readonly monthlyAllowance: number | null;
  readonly metadata: Readonly<Record<string, string>>;
}

export interface RotateInput {
  /** How long the replaced secret keeps working; null: it stops at once. */
  readonly graceSeconds: number | null;
}

export interface GrantInput {
  readonly credits: number;
  readonly reason: string | null;
}

/** A grant to make (grants.ts). */
export interface GrantOrder {
  readonly credits: number;
  /** null: never expires. */
  readonly expiresAt: string | null;
  readonly category: GrantCategory;
  /** The payment or campaign it stands for: the same one never grants twice on an account. */
  readonly reference: string | null;
}

export interface AccountGrantInput extends GrantOrder {
  readonly reason: string | null;
}

type Body = Record<string, unknown>;

export function parser(schema: JsonSchema, what: string): (body: unknown) => Body {
  const validate = lazyInputValidator(schema);
  return (body) => {
    refuseNulCharacters(body, `The ${what} is invalid.`);
    const checked = validate(body);
    if (!checked.ok) throw invalid(`The ${what} is invalid.`, checked.fields);
    return checked.value;
  };
}

function invalid(detail: string, fields: Record<string, string> | string): ApiError {
  return new ApiError("validation_error", detail, { extras: { fields } });
}

const checkCreate = parser(keyCreateSchema, "new key");
const checkAccountCreate = parser(accountCreateSchema, "new account");
const checkAccountUpdate = parser(accountUpdateSchema, "account change");
const checkUpdate = parser(keyUpdateSchema, "key change");
const checkGrant = parser(grantSchema, "grant");
const checkAccountGrant = parser(accountGrantSchema, "grant");
const checkRotate = parser(rotateSchema, "rotation");
const checkSwitch = parser(switchSchema, "switch change");
const checkAdminKey = parser(adminKeyCreateSchema, "new admin key");

export function parseKeyCreate(body: unknown, settings: ServiceSettings, known: KnownTool): KeyInput {
  const input = checkCreate(body);
  const accountId = (input.account_id as string | undefined) ?? null;
  if (accountId !== null) {
    const fields: Record<string, string> = {};
    if (input.plan !== undefined) fields.plan = "must be absent with account_id: the plan is the account's";
    if (input.monthly_allowance !== undefined)
      fields.monthly_allowance = "must be absent with account_id: the allowance is the account's";
    if (Object.keys(fields).length > 0) throw invalid("The new key is invalid.", fields);
    return {
      accountId,
      plan: "",
      name: (input.name as string | undefined) ?? "",
      monthlyAllowance: null,
      expiresAt: timestamp(input.expires_at),
      metadata: (input.metadata as Record<string, string> | undefined) ?? {},
      tools: knownTools(input.tools, known),
      access: (input.access as KeyAccess | undefined) ?? "full",
    };
  }
  if (input.plan === undefined) throw invalid("The new key is invalid.", { plan: "is required" });
  return {
    accountId: null,
    plan: knownPlan(input.plan as string, settings),
    name: (input.name as string | undefined) ?? "",
    monthlyAllowance: (input.monthly_allowance as number | null | undefined) ?? null,
    expiresAt: timestamp(input.expires_at),
    metadata: (input.metadata as Record<string, string> | undefined) ?? {},
    tools: knownTools(input.tools, known),
    access: (input.access as KeyAccess | undefined) ?? "full",
  };
}

export function parseAccountCreate(body: unknown, settings: ServiceSettings): AccountInput {
  const input = checkAccountCreate(body);
  return {
    name: input.name as string,
    plan: knownPlan(input.plan as string, settings),
    monthlyAllowance: (input.monthly_allowance as number | null | undefined) ?? null,
    metadata: (input.metadata as Record<string, string> | undefined) ?? {},
  };
}

export function parseAccountUpdate(body: unknown, settings: ServiceSettings): AccountChange {
  const input = checkAccountUpdate(body);
  const change: { -readonly [K in keyof AccountChange]: AccountChange[K] } = {};
  if (input.name !== undefined) change.name = input.name as string;
  if (input.plan !== undefined) change.plan = knownPlan(input.plan as string, settings);
  if (input.monthly_allowance !== undefined)
    change.monthlyAllowance = input.monthly_allowance as number | null;
  if (input.metadata !== undefined) change.metadata = input.metadata as Record<string, string>;
  if (input.alerts !== undefined) change.alerts = input.alerts === null ? null : ownAlerts(input.alerts);
  return change;
}

/** Thresholds the schema has checked, each list sorted and without repeats. */
function ownAlerts(raw: unknown): AccountAlerts {
  const read = readAlerts(raw, "alerts");
  if ("problems" in read) throw new Error(read.problems.join("; "));
  return read.alerts;
}

export function parseKeyUpdate(body: unknown, settings: ServiceSettings, known: KnownTool): KeyUpdate {
  const input = checkUpdate(body);
  const change: { -readonly [K in keyof KeyUpdate]: KeyUpdate[K] } = {};
  if (input.plan !== undefined) change.plan = knownPlan(input.plan as string, settings);
  if (input.name !== undefined) change.name = input.name as string;
  if (input.monthly_allowance !== undefined)
    change.monthlyAllowance = input.monthly_allowance as number | null;
  if (input.metadata !== undefined) change.metadata = input.metadata as Record<string, string>;
  if (input.expires_at !== undefined) change.expiresAt = timestamp(input.expires_at);
  if (input.tools !== undefined) change.tools = knownTools(input.tools, known);
  if (input.access !== undefined) change.access = input.access as KeyAccess;
  return change;
}

/** A key's tools (the schema checked their form): 400 naming `tools` for a slug no tool has. */
function knownTools(value: unknown, known: KnownTool): readonly string[] | null {
  if (value === undefined || value === null) return null;
  const slugs = value as string[];
  const unknown = slugs.filter((slug) => !known(slug));
  if (unknown.length > 0) {
    throw invalid(`No tool has the slug ${unknown.map((slug) => `"${slug}"`).join(", ")}.`, {
      tools: `must name tools this service has; unknown: ${unknown.join(", ")}`,
    });
  }
  return [...slugs];
}

export function parseGrant(body: unknown): GrantInput {
  const input = checkGrant(body);
  return { credits: input.credits as number, reason: (input.reason as string | undefined) ?? null };
}

/** A grant to an account; its expiry must be after `now`, or the grant would be gone at once. */
export function parseAccountGrant(body: unknown, now: Date): AccountGrantInput {
  const input = checkAccountGrant(body);
  const expiresAt = timestamp(input.expires_at);
  if (expiresAt !== null && Date.parse(expiresAt) <= now.getTime())
    throw invalid("The grant would be expired already.", { expires_at: "must be in the future" });
  return {
    credits: input.credits as number,
    expiresAt,
    category: (input.category as GrantCategory | undefined) ?? "promotional",
    reference: (input.reference as string | null | undefined) ?? null,
    reason: (input.reason as string | undefined) ?? null,
  };
}

/** A rotation's options; no body at all (undefined) is a rotation without a grace. */
export function parseRotate(body: unknown): RotateInput {
  const input = checkRotate(body === undefined ? {} : body);
  return { graceSeconds: (input.grace_seconds as number | undefined) ?? null };
}

export function parseSwitch(body: unknown): { enabled?: boolean; api?: boolean } {
  return checkSwitch(body) as { enabled?: boolean; api?: boolean };
}

export function parseAdminKeyCreate(body: unknown): { name: string } {
  return { name: (checkAdminKey(body ?? {}).name as string | undefined) ?? "" };
}

function knownPlan(plan: string, settings: ServiceSettings): string {
  if (!Object.hasOwn(settings.plans, plan)) {
    throw invalid("Unknown plan.", {
      plan: `must be one of: ${Object.keys(settings.plans).join(", ")}`,
    });
  }
  return plan;
}

/** Whether the date part names a real day: Date.parse rolls 2027-02-30 over to 2 March. */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split("-").map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An RFC 3339 date-time (the schema checked its form) as a UTC ISO string; null stays null. */
function timestamp(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = value as string;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms) || !isCalendarDate(text)) {
    throw invalid("The expiry is not a real date and time.", { expires_at: "must be a valid date-time" });
  }
  const stored = storableTime(ms);
  if (stored === null) {
    throw invalid("The expiry is out of range.", {
      expires_at: "must be a date-time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z",
    });
  }
  return stored;
}
