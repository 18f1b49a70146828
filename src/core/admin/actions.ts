/**
 * Operator actions on customer keys and tools, shared by the admin API and the CLI: each one
 * makes its change together with its audit entry (audit.ts), in one transaction of the store, so
 * both leave the same record.
 * Secrets are returned once, to the caller, and never stored. The first-start key is made here too
 * (by the server itself, so it is not an audited action).
 */
import {
  type ApiKeyRecord,
  type KeyChange,
  MAX_GRANTED_CREDITS,
  type NewApiKey,
  type Store,
  type ToolSwitch,
} from "../../ports/store.ts";
import { periodOf } from "../kernel/credits.ts";
import { ApiError } from "../kernel/errors.ts";
import { issueKey, newKeyId } from "../kernel/key-format.ts";
import { FREE_PLAN_ID, type ServiceSettings } from "../kernel/settings.ts";
import { webhookEvent } from "../kernel/webhook-events.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { type ActedBy, auditEntry } from "./audit.ts";
import type { GrantInput, KeyInput, RotateInput } from "./input.ts";

/** What the admin actions need of the core's deps. */
export interface AdminDeps {
  readonly store: Store;
  readonly settings: ServiceSettings;
  readonly registry: ToolRegistry;
  readonly now: () => Date;
}

export interface CreatedKey {
  readonly record: ApiKeyRecord;
  /** The full key: shown once, never stored. */
  readonly key: string;
}

export async function createApiKey(deps: AdminDeps, by: ActedBy, input: KeyInput): Promise<CreatedKey> {
  const now = deps.now();
  const { stored, secret } = newApiKey(deps.settings, input, now);
  await deps.store.createKey(
    stored,
    auditEntry(by, now, "keys.create", stored.id, {
      plan: input.plan,
      name: input.name,
      monthly_allowance: input.monthlyAllowance,
      expires_at: input.expiresAt,
      metadata: input.metadata,
      // A scope is recorded when one is set; a key without one may use every tool, fully.
      ...(input.tools !== null && { tools: input.tools }),
      ...(input.access !== "full" && { access: input.access }),
    }),
  );
  return { record: await existing(deps.store, stored.id), key: secret };
}

/**
 * The first-start key: created only when the store holds no key at all, so instances starting
 * together on an empty database create one between them. Null when a key existed.
 */
export async function createBootstrapKey(
  store: Store,
  settings: ServiceSettings,
  now = new Date(),
): Promise<CreatedKey | null> {
  const { stored, secret } = newApiKey(
    settings,
    {
      plan: FREE_PLAN_ID,
      name: "bootstrap",
      monthlyAllowance: null,
      expiresAt: null,
      metadata: {},
      tools: null,
      access: "full",
    },
    now,
  );
  if (!(await store.createFirstKey(stored))) return null;
  return { record: await existing(store, stored.id), key: secret };
}

/** A fresh key: what the store keeps, and the secret shown once. */
function newApiKey(
  settings: ServiceSettings,
  input: KeyInput,
  now: Date,
): { stored: NewApiKey; secret: string } {
  const issued = issueKey(settings.keyPrefix);
  return {
    stored: {
      id: newKeyId(),
      name: input.name,
      plan: input.plan,
      secretHash: issued.secretHash,
      displayPrefix: issued.displayPrefix,
      monthlyAllowance: input.monthlyAllowance,
      createdAt: now.toISOString(),
      expiresAt: input.expiresAt,
      metadata: input.metadata,
      tools: input.tools,
      access: input.access,
    },
    secret: issued.key,
  };
}

/** The key, or 404 `key_not_found`. */
export async function existing(store: Pick<Store, "getKey">, id: string): Promise<ApiKeyRecord> {
  const record = await store.getKey(id);
  if (!record) throw new ApiError("key_not_found", "No key has this id.");
  return record;
}

/**
 * A change to a key's plan, name, own allowance, metadata, expiry, tools or access (`change` already
 * parsed); 409 for a revoked key. A change of tools or access reaches every instance like any key
 * change: the key caches forget the key at once.
 */
export async function updateApiKey(
  deps: AdminDeps,
  by: ActedBy,
  id: string,
  change: KeyChange,
): Promise<ApiKeyRecord> {
  const entry = auditEntry(by, deps.now(), "keys.update", id, changeDetails(change));
  if (!(await deps.store.updateKey(id, change, entry))) await refuseInactive(deps.store, id);
  return existing(deps.store, id);
}

function changeDetails(change: KeyChange): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (change.plan !== undefined) details.plan = change.plan;
  if (change.name !== undefined) details.name = change.name;
  if (change.monthlyAllowance !== undefined) details.monthly_allowance = change.monthlyAllowance;
  if (change.metadata !== undefined) details.metadata = change.metadata;
  if (change.expiresAt !== undefined) details.expires_at = change.expiresAt;
  if (change.tools !== undefined) details.tools = change.tools;
  if (change.access !== undefined) details.access = change.access;
  return details;
}

/**
 * A new secret for the key. With a grace, the secret it replaces keeps working until then beside
 * the new one, and a secret an earlier rotation left working stops at once (one old secret at
 * most); without, the old secret stops at once. Either way the key's OAuth authorizations end now:
 * they are bound to the secret that approved them.
 */
export async function rotateApiKey(
  deps: AdminDeps,
  by: ActedBy,
  id: string,
  input: RotateInput = { graceSeconds: null },
): Promise<CreatedKey> {
  const now = deps.now();
  const issued = issueKey(deps.settings.keyPrefix);
  const previousSecretExpiresAt =
    input.graceSeconds === null ? null : new Date(now.getTime() + input.graceSeconds * 1000).toISOString();
  const entry = auditEntry(by, now, "keys.rotate", id, {
    prefix: issued.displayPrefix,
    ...(input.graceSeconds === null
      ? {}
      : { grace_seconds: input.graceSeconds, previous_secret_expires_at: previousSecretExpiresAt }),
  });
  const rotation = {
    secretHash: issued.secretHash,
    displayPrefix: issued.displayPrefix,
    previousSecretExpiresAt,
  };
  if (!(await deps.store.rotateKey(id, rotation, entry))) await refuseInactive(deps.store, id);
  return { record: await existing(deps.store, id), key: issued.key };
}

/**
 * Revokes the key, and writes its `key.revoked` webhook event in the same transaction (the store
 * writes it only for the endpoints subscribed to it, and only when the key is revoked).
 */
export async function revokeApiKey(deps: AdminDeps, by: ActedBy, id: string): Promise<ApiKeyRecord> {
  const now = deps.now();
  const at = now.toISOString();
  const entry = auditEntry(by, now, "keys.revoke", id, {});
  const before = await existing(deps.store, id);
  const event = webhookEvent(
    "key.revoked",
    { key_id: id, name: before.name, plan: before.plan, metadata: before.metadata, revoked_at: at },
    now,
  );
  if (!(await deps.store.revokeKey(id, at, entry, [event]))) await refuseInactive(deps.store, id);
  return existing(deps.store, id);
}

/**
 * Adds credits to the key's allowance for the current calendar month (they lapse when it ends):
 * /v1/me/credits shows them in `monthly_allowance`, and a call is admitted against the raised
 * allowance. One statement in the store, so concurrent grants and calls lose nothing.
 */
export async function grantCredits(
  deps: AdminDeps,
  by: ActedBy,
  id: string,
  grant: GrantInput,
): Promise<ApiKeyRecord> {
  const now = deps.now();
  const period = periodOf(now);
  const entry = auditEntry(by, now, "credits.grant", id, {
    credits: grant.credits,
    period: period.id,
    ...(grant.reason === null ? {} : { reason: grant.reason }),
  });
  if (!(await deps.store.grantCredits(id, period.id, grant.credits, entry))) {
    const record = await refuseInactive(deps.store, id);
    throw new ApiError(
      "validation_error",
      `Key ${record.id} already holds ${record.grantedPeriod === period.id ? record.grantedCredits : 0} granted credits this month; the most is ${MAX_GRANTED_CREDITS}.`,
      { extras: { fields: { credits: `would take this month's grants past ${MAX_GRANTED_CREDITS}` } } },
    );
  }
  return existing(deps.store, id);
}

/** Throws 404 for a missing key and 409 `key_revoked` for a revoked one; returns an active key. */
async function refuseInactive(store: Pick<Store, "getKey">, id: string): Promise<ApiKeyRecord> {
  const record = await existing(store, id);
  if (record.revokedAt !== null)
    throw new ApiError("key_revoked", `Key ${id} was revoked at ${record.revokedAt}.`);
  return record;
}

/** Stores an operator switch for a tool; every instance sees it within seconds. */
export async function setToolSwitch(
  deps: AdminDeps,
  by: ActedBy,
  slug: string,
  change: ToolSwitch,
): Promise<void> {
  if (!deps.registry.get(slug)) {
    const known = deps.registry.all().map((t) => t.slug);
    throw new ApiError("tool_not_found", `No tool has this slug (known: ${known.join(", ")}).`);
  }
  await deps.store.setSwitch(slug, change, auditEntry(by, deps.now(), "tools.set", slug, { ...change }));
}
