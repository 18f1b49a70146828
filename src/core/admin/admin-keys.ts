/**
 * Admin keys: `{TOOLRUN_ADMIN_KEY_PREFIX}_{secret}` (default `tr_admin_...`), made by
 * `toolrun admin-keys create`, shown once and stored as a SHA-256 hash in their own table, apart
 * from customer keys. They authenticate the admin API only; a customer key there is 401.
 */
import type { AdminKeyRecord, AdminKeyStore } from "../../ports/store.ts";
import { bearerCredential, bearerToken, invalidApiKey } from "../call/keys.ts";
import { ApiError } from "../kernel/errors.ts";
import { hashKey, issueKey, randomBase62 } from "../kernel/key-format.ts";
import { type ActedBy, auditEntry } from "./audit.ts";

export interface CreatedAdminKey {
  readonly record: AdminKeyRecord;
  /** The full admin key: shown once, never stored. */
  readonly key: string;
}

type AdminKeyDeps = {
  readonly store: AdminKeyStore;
  readonly settings: { readonly adminKeyPrefix: string };
  readonly now: () => Date;
};

export async function createAdminKey(
  deps: AdminKeyDeps,
  by: ActedBy,
  name: string,
): Promise<CreatedAdminKey> {
  const now = deps.now();
  const issued = issueKey(deps.settings.adminKeyPrefix);
  const record: AdminKeyRecord = {
    id: `adm_${randomBase62(16)}`,
    name,
    displayPrefix: issued.displayPrefix,
    createdAt: now.toISOString(),
    revokedAt: null,
  };
  await deps.store.createAdminKey(
    { ...record, secretHash: issued.secretHash },
    auditEntry(by, now, "admin_keys.create", record.id, { name }),
  );
  return { record, key: issued.key };
}

export async function revokeAdminKey(deps: AdminKeyDeps, by: ActedBy, id: string): Promise<void> {
  const now = deps.now();
  const entry = auditEntry(by, now, "admin_keys.revoke", id, {});
  if (!(await deps.store.revokeAdminKey(id, now.toISOString(), entry))) {
    throw new ApiError("key_not_found", "No active admin key has this id.");
  }
}

/**
 * The admin key an Authorization header names, or 401 `invalid_api_key`. A customer key is
 * refused by its form (another prefix) before any lookup, with a detail saying so.
 */
export async function authenticateAdmin(
  store: Pick<AdminKeyStore, "findAdminKeyByHash">,
  adminPattern: RegExp,
  customerPattern: RegExp,
  authorization: string | undefined,
): Promise<AdminKeyRecord> {
  const token = bearerCredential(authorization);
  if (token !== undefined && customerPattern.test(token)) {
    throw invalidApiKey(
      "This is a customer API key; the admin API needs an admin key (toolrun admin-keys create).",
      true,
    );
  }
  const key = bearerToken(authorization, adminPattern);
  const record = await store.findAdminKeyByHash(hashKey(key));
  if (record === null) throw invalidApiKey("The admin key is not valid.", true);
  if (record.revokedAt !== null) throw invalidApiKey("The admin key has been revoked.", true);
  return record;
}
