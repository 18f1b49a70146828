/**
 * JSON Schemas (2020-12) of what the admin API answers and of its path and query parameters; its
 * request bodies are in input.ts, where the CLI checks its options with them too. The
 * OpenAPI document publishes these, and the in-process tests check every answer against them.
 */
import type { JsonSchema } from "../../tools/tool.ts";
import { USAGE_LIMIT_DEFAULT, USAGE_LIMIT_MAX } from "../contract/account.ts";
import {
  creditsOutputSchema,
  keyAccessSchema,
  keyToolsSchema,
  nullable,
  SCHEMA_DIALECT,
  usageOutputSchema,
} from "../contract/schemas.ts";
import { ALERTS_SCHEMA } from "../kernel/credit-alerts.ts";

const count: JsonSchema = { type: "integer", minimum: 0 };
export const timestamp: JsonSchema = { type: "string", format: "date-time" };

export const ADMIN_LIST_LIMIT_DEFAULT = 50;
export const ADMIN_LIST_LIMIT_MAX = 200;

const keyProperties: Record<string, JsonSchema> = {
  id: { type: "string", description: "`key_...`: how the admin API and the CLI name the key." },
  account_id: {
    type: "string",
    description:
      "`acc_...`: the account the key is a credential of. The plan, allowances and grants shown are the account's, shared by all its keys.",
  },
  key: { type: "string", description: "The full key: only in the answer that created or rotated it." },
  prefix: { type: "string", description: "The key's non-secret beginning, to recognise it by." },
  name: { type: "string" },
  plan: { type: "string" },
  status: { type: "string", enum: ["active", "expired", "revoked"] },
  own_monthly_allowance: {
    ...nullable(count),
    description: "The key's own monthly allowance; null when it uses its plan's.",
  },
  monthly_allowance: {
    ...count,
    description:
      "The account's allowance this calendar month (UTC), its own or its plan's; its grants come on top (`GET /admin/v1/accounts/{id}/grants`).",
  },
  metadata: { type: "object", additionalProperties: { type: "string" } },
  expires_at: nullable(timestamp),
  created_at: timestamp,
  revoked_at: nullable(timestamp),
  previous_prefix: {
    ...nullable({ type: "string" }),
    description:
      "The non-secret beginning of the secret the key's last rotation replaced, while that secret still works (a rotation with `grace_seconds`); null otherwise.",
  },
  previous_secret_expires_at: {
    ...nullable(timestamp),
    description:
      "Until when the secret the last rotation replaced still works; null when no old secret works (no grace, the grace ended, or the key was revoked or expired).",
  },
  tools: keyToolsSchema,
  access: keyAccessSchema,
};

const keyRequired = [
  "id",
  "account_id",
  "prefix",
  "name",
  "plan",
  "status",
  "own_monthly_allowance",
  "monthly_allowance",
  "metadata",
  "expires_at",
  "created_at",
  "revoked_at",
  "previous_prefix",
  "previous_secret_expires_at",
  "tools",
  "access",
];

const keyItem: JsonSchema = { type: "object", required: keyRequired, properties: keyProperties };

export const keySchema: JsonSchema = { $schema: SCHEMA_DIALECT, ...keyItem };

/** A key with its secret, shown once (create, rotate). */
export const keyWithSecretSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: [...keyRequired, "key"],
  properties: keyProperties,
};

/** A page of an admin list: `field` holds its items in `order`, `next_cursor` leads to the next. */
export function pageSchema(field: string, items: JsonSchema, order: string): JsonSchema {
  return {
    $schema: SCHEMA_DIALECT,
    type: "object",
    required: [field, "next_cursor"],
    properties: {
      [field]: { type: "array", items, description: order },
      next_cursor: { ...nullable({ type: "string" }), description: "Pass as `cursor` for the next page." },
    },
  };
}

export const keyListSchema: JsonSchema = pageSchema("keys", keyItem, "Oldest first.");

const { $schema: _credits, ...creditsItem } = creditsOutputSchema;
/** An account's credits as an operator reads them: no key asks, so no `key` member. */
const { key: _key, ...accountCreditsProperties } = creditsItem.properties as Record<string, JsonSchema>;
const accountCreditsItem: JsonSchema = {
  ...creditsItem,
  required: (creditsItem.required as string[]).filter((name) => name !== "key"),
  properties: accountCreditsProperties,
};
const { $schema: _usage, ...usageItem } = usageOutputSchema;

export const keyUsageSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["key_id", "credits", "usage"],
  properties: {
    key_id: { type: "string" },
    credits: { ...creditsItem, description: "What `GET /v1/me/credits` answers the key." },
    usage: { ...usageItem, description: "What `GET /v1/me/usage` answers the key." },
  },
};

const grantProperties: Record<string, JsonSchema> = {
  id: { type: "string", description: "`grt_...`" },
  account_id: { type: "string" },
  credits: { ...count, description: "Credits granted." },
  remaining: { ...count, description: "Credits not spent yet." },
  expires_at: {
    ...nullable(timestamp),
    description: "When what is left of it is gone; null: never.",
  },
  category: { type: "string", enum: ["paid", "promotional"] },
  reference: {
    ...nullable({ type: "string" }),
    description: "The payment or campaign it stands for; unique on the account.",
  },
  created_at: timestamp,
};

const grantItem: JsonSchema = {
  type: "object",
  required: Object.keys(grantProperties),
  properties: grantProperties,
};

export const grantOutputSchema: JsonSchema = { $schema: SCHEMA_DIALECT, ...grantItem };

export const grantListSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["grants"],
  properties: {
    grants: {
      type: "array",
      items: grantItem,
      description: "The account's live grants with credits left, in the order calls spend them.",
    },
  },
};

const accountProperties: Record<string, JsonSchema> = {
  id: { type: "string", description: "`acc_...`: how the admin API and the CLI name the account." },
  name: { type: "string" },
  plan: { type: "string" },
  own_monthly_allowance: {
    ...nullable(count),
    description: "The account's own monthly allowance; null when it uses its plan's.",
  },
  monthly_allowance: {
    ...count,
    description:
      "The account's allowance this calendar month (UTC), its own or its plan's, shared by its keys; its grants come on top.",
  },
  credits_used: {
    ...count,
    description: "Credits of `monthly_allowance` its keys hold this month (pending and charged calls).",
  },
  monthly_remaining: {
    ...nullable(count),
    description: "What is left of `monthly_allowance` this month; null when metering is off.",
  },
  credits_remaining: {
    ...nullable(count),
    description:
      "What its keys can spend now: `monthly_remaining` plus what its live grants have left; null when metering is off.",
  },
  grants: {
    type: "array",
    items: grantItem,
    description: "Its live grants with credits left, in the order calls spend them.",
  },
  metadata: { type: "object", additionalProperties: { type: "string" } },
  alerts: {
    ...ALERTS_SCHEMA,
    type: ["object", "null"],
    description:
      "The account's own thresholds of the `credits.threshold` webhook event; a member left out, or null for both, is the configuration's.",
  },
  key_count: { ...count, description: "How many keys the account has, revoked ones included." },
  created_at: timestamp,
};

const accountItem: JsonSchema = {
  type: "object",
  required: Object.keys(accountProperties),
  properties: accountProperties,
};

export const accountSchema: JsonSchema = { $schema: SCHEMA_DIALECT, ...accountItem };

export const accountListSchema: JsonSchema = pageSchema("accounts", accountItem, "Oldest first.");

export const accountUsageSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["account_id", "credits", "usage"],
  properties: {
    account_id: { type: "string" },
    credits: {
      ...accountCreditsItem,
      description: "What `GET /v1/me/credits` answers each of its keys, but for the `key` member.",
    },
    usage: { ...usageItem, description: "What `GET /v1/me/usage` answers each of its keys." },
  },
};

const switchItem: JsonSchema = {
  type: "object",
  required: ["slug", "tool_version", "weight", "max_body_bytes", "enabled", "api"],
  properties: {
    slug: { type: "string" },
    tool_version: { type: "string" },
    weight: count,
    max_body_bytes: count,
    enabled: { type: "boolean", description: "false: calls answer 503 `tool_disabled`." },
    api: { type: "boolean", description: "false: calls answer 403 `tool_not_allowed`." },
  },
};

export const toolSwitchSchema: JsonSchema = { $schema: SCHEMA_DIALECT, ...switchItem };

export const toolSwitchListSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["tools"],
  properties: { tools: { type: "array", items: switchItem } },
};

export const auditSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["entries", "next_cursor"],
  properties: {
    entries: {
      type: "array",
      description: "Newest first.",
      items: {
        type: "object",
        required: ["at", "actor", "action", "target", "request_id", "details"],
        properties: {
          at: timestamp,
          actor: {
            type: "object",
            required: ["type", "id"],
            description:
              "An admin key (its id), the CLI (`cli`, with the operating-system user as `id`), or a member signed in to the console (`member`, its id).",
            properties: {
              type: { type: "string", enum: ["admin_key", "cli", "member"] },
              id: { type: "string" },
            },
          },
          action: {
            type: "string",
            description:
              "`accounts.create`, `accounts.update`, `keys.create`, `keys.update`, `keys.rotate`, `keys.revoke`, `credits.grant`, `tools.set`, `admin_keys.create`, `admin_keys.revoke`, `members.create`, `members.invite`, `members.disable`, `members.enable`, `webhooks.create`, `webhooks.update`, `webhooks.delete`, `webhooks.retry`, `webhooks.test`.",
          },
          target: {
            type: "string",
            description:
              "The account id, key id, admin key id, member id, tool slug or webhook endpoint id acted on (a plan, allowance or grant changed through a key targets its account).",
          },
          request_id: {
            ...nullable({ type: "string" }),
            description: "The admin request's id; null from the CLI.",
          },
          details: { type: "object", description: "What changed; never a secret." },
        },
      },
    },
    next_cursor: nullable({ type: "string" }),
  },
};

const limit = (what: string, max: number, fallback: number): JsonSchema => ({
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
export const page = (what: string): Record<string, JsonSchema> => ({
  limit: limit(what, ADMIN_LIST_LIMIT_MAX, ADMIN_LIST_LIMIT_DEFAULT),
  cursor,
});

export function parameters(
  properties: Record<string, JsonSchema>,
  required: readonly string[] = [],
): JsonSchema {
  return { $schema: SCHEMA_DIALECT, type: "object", additionalProperties: false, required, properties };
}

/** Ids and slugs are letters, digits, `_`, `-` (and `.`); anything else names nothing. */
const NAME_PATTERN = "^[A-Za-z0-9_.-]+$";

const keyId = {
  id: {
    type: "string",
    minLength: 1,
    maxLength: 100,
    pattern: NAME_PATTERN,
    description: "The key's id (`key_...`).",
  },
};

export const keyIdParameters = parameters(keyId, ["id"]);

const accountId = {
  id: {
    type: "string",
    minLength: 1,
    maxLength: 110,
    pattern: NAME_PATTERN,
    description: "The account's id (`acc_...`).",
  },
};

export const accountIdParameters = parameters(accountId, ["id"]);
export const accountListParameters = parameters(page("accounts"));
export const accountKeysParameters = parameters({ ...accountId, ...page("keys") }, ["id"]);
export const accountUsageParameters = parameters(
  { ...accountId, limit: limit("recent calls", USAGE_LIMIT_MAX, USAGE_LIMIT_DEFAULT), cursor },
  ["id"],
);
export const keyListParameters = parameters(page("keys"));
export const keyUsageParameters = parameters(
  { ...keyId, limit: limit("recent calls", USAGE_LIMIT_MAX, USAGE_LIMIT_DEFAULT), cursor },
  ["id"],
);
export const toolParameters = parameters(
  { slug: { type: "string", minLength: 1, description: "The tool's slug." } },
  ["slug"],
);
export const auditParameters = parameters({
  ...page("entries"),
  target: {
    type: "string",
    minLength: 1,
    maxLength: 200,
    pattern: NAME_PATTERN,
    description: "Only entries about this key id, admin key id or tool slug.",
  },
});
