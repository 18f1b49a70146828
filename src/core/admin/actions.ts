/**
 * Operator actions on customer keys and tools, shared by the admin API and the CLI: each one
 * makes its change together with its audit entry (audit.ts), in one transaction of the store, so
 * both leave the same record.
 * Secrets are returned once, to the caller, and never stored. The first-start key is made here too
 * (by the server itself, so it is not an audited action).
 */
import type {
  AccountChange,
  AccountRecord,
  ApiKeyRecord,
  KeyChange,
  NewApiKey,
  Store,
  ToolSwitch,
} from "../../ports/store.ts";
import { ApiError } from "../kernel/errors.ts";
import { issueKey, newAccountId, newKeyId } from "../kernel/key-format.ts";
import { FREE_PLAN_ID, type ServiceSettings } from "../kernel/settings.ts";
import { webhookEvent } from "../kernel/webhook-events.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import { type ActedBy, auditEntry } from "./audit.ts";
import type { AccountInput, KeyInput, KeyUpdate, RotateInput } from "./input.ts";

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
  const created = await deps.store.createKey(
    stored,
    auditEntry(by, now, "keys.create", stored.id, {
      account_id: stored.accountId,
      ...(stored.newAccount && { plan: input.plan, monthly_allowance: input.monthlyAllowance }),
      name: input.name,
      expires_at: input.expiresAt,
      metadata: input.metadata,
      // A scope is recorded when one is set; a key without one may use every tool, fully.
      ...(input.tools !== null && { tools: input.tools }),
      ...(input.access !== "full" && { access: input.access }),
    }),
  );
  if (!created) throw accountNotFound();
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
      accountId: null,
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

/** A fresh key (with its one-key account when it joins none): what the store keeps, and the secret shown once. */
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
      secretHash: issued.secretHash,
      displayPrefix: issued.displayPrefix,
      createdAt: now.toISOString(),
      expiresAt: input.expiresAt,
      metadata: input.metadata,
      tools: input.tools,
      access: input.access,
      ...(input.accountId === null
        ? {
            accountId: newAccountId(),
            newAccount: { plan: input.plan, monthlyAllowance: input.monthlyAllowance },
          }
        : { accountId: input.accountId }),
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
 * A change to a key's name, metadata, expiry, tools or access, and to its account's plan or own
 * allowance (`change` already parsed): the key's members are audited on the key, the account's on
 * the account. 409 for a revoked key. A change of tools or access reaches every instance like any
 * key change: the key caches forget the key at once.
 */
export async function updateApiKey(
  deps: AdminDeps,
  by: ActedBy,
  id: string,
  change: KeyUpdate,
): Promise<ApiKeyRecord> {
  const { plan, monthlyAllowance, ...own } = change;
  const accountChange: AccountChange = {
    ...(plan !== undefined && { plan }),
    ...(monthlyAllowance !== undefined && { monthlyAllowance }),
  };
  if (Object.keys(accountChange).length > 0) {
    const key = await refuseInactive(deps.store, id);
    const entry = auditEntry(by, deps.now(), "accounts.update", key.accountId, {
      ...accountChangeDetails(accountChange),
      key_id: id,
    });
    if (!(await deps.store.updateAccount(key.accountId, accountChange, entry))) throw accountNotFound();
  }
  if (Object.keys(own).length > 0) {
    const entry = auditEntry(by, deps.now(), "keys.update", id, keyChangeDetails(own));
    if (!(await deps.store.updateKey(id, own, entry))) await refuseInactive(deps.store, id);
  }
  return existing(deps.store, id);
}

function keyChangeDetails(change: KeyChange): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (change.name !== undefined) details.name = change.name;
  if (change.metadata !== undefined) details.metadata = change.metadata;
  if (change.expiresAt !== undefined) details.expires_at = change.expiresAt;
  if (change.tools !== undefined) details.tools = change.tools;
  if (change.access !== undefined) details.access = change.access;
  return details;
}

function accountChangeDetails(change: AccountChange): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (change.name !== undefined) details.name = change.name;
  if (change.plan !== undefined) details.plan = change.plan;
  if (change.monthlyAllowance !== undefined) details.monthly_allowance = change.monthlyAllowance;
  if (change.metadata !== undefined) details.metadata = change.metadata;
  return details;
}

export function accountNotFound(): ApiError {
  return new ApiError("account_not_found", "No account has this id.");
}

/** The account, or 404 `account_not_found`. */
export async function existingAccount(store: Pick<Store, "getAccount">, id: string): Promise<AccountRecord> {
  const record = await store.getAccount(id);
  if (!record) throw accountNotFound();
  return record;
}

export async function createAccount(
  deps: AdminDeps,
  by: ActedBy,
  input: AccountInput,
): Promise<AccountRecord> {
  const now = deps.now();
  const id = newAccountId();
  await deps.store.createAccount(
    {
      id,
      name: input.name,
      plan: input.plan,
      monthlyAllowance: input.monthlyAllowance,
      metadata: input.metadata,
      createdAt: now.toISOString(),
    },
    auditEntry(by, now, "accounts.create", id, {
      name: input.name,
      plan: input.plan,
      monthly_allowance: input.monthlyAllowance,
      metadata: input.metadata,
    }),
  );
  return existingAccount(deps.store, id);
}

/** A change to an account's name, plan, own allowance or metadata (`change` already parsed). */
export async function updateAccount(
  deps: AdminDeps,
  by: ActedBy,
  id: string,
  change: AccountChange,
): Promise<AccountRecord> {
  const entry = auditEntry(by, deps.now(), "accounts.update", id, accountChangeDetails(change));
  if (!(await deps.store.updateAccount(id, change, entry))) throw accountNotFound();
  return existingAccount(deps.store, id);
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
    {
      key_id: id,
      account_id: before.accountId,
      name: before.name,
      plan: before.plan,
      metadata: before.metadata,
      revoked_at: at,
    },
    now,
  );
  if (!(await deps.store.revokeKey(id, at, entry, [event]))) await refuseInactive(deps.store, id);
  return existing(deps.store, id);
}

/** Throws 404 for a missing key and 409 `key_revoked` for a revoked one; returns an active key. */
export async function refuseInactive(store: Pick<Store, "getKey">, id: string): Promise<ApiKeyRecord> {
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
