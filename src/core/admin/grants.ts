/**
 * Grants: credits an operator (or a payment) gives an account apart from its monthly allowance,
 * each with its own expiry, category and reference. Made here for the admin API, the CLI and the
 * payment webhooks alike: the grant, its audit entry and its `credits.granted` webhook event go to
 * the store in one transaction, and a reference already granted answers that grant, writing
 * nothing (so a payment delivered twice grants once).
 */
import type { GrantCategory, GrantRecord } from "../../ports/store.ts";
import { periodOf } from "../kernel/credits.ts";
import { newGrantId } from "../kernel/key-format.ts";
import { webhookEvent } from "../kernel/webhook-events.ts";
import { type AdminDeps, accountNotFound, existingAccount, refuseInactive } from "./actions.ts";
import { type ActedBy, auditEntry } from "./audit.ts";
import type { GrantOrder } from "./input.ts";

/** The grant made, or (created false) the account's earlier grant of the same reference. */
export async function addAccountGrant(
  deps: AdminDeps,
  by: ActedBy,
  accountId: string,
  input: GrantOrder,
  /** Audit details beside the grant's own (the key it was made through, the operator's reason). */
  details: Readonly<Record<string, unknown>> = {},
): Promise<{ grant: GrantRecord; created: boolean }> {
  const now = deps.now();
  const grant = { id: newGrantId(), ...input, createdAt: now.toISOString() };
  const entry = auditEntry(by, now, "credits.grant", accountId, {
    grant_id: grant.id,
    credits: grant.credits,
    category: grant.category,
    expires_at: grant.expiresAt,
    reference: grant.reference,
    ...details,
  });
  const event = webhookEvent(
    "credits.granted",
    {
      account_id: accountId,
      grant_id: grant.id,
      credits: grant.credits,
      category: grant.category,
      expires_at: grant.expiresAt,
      reference: grant.reference,
    },
    now,
  );
  const made = await deps.store.addGrant(accountId, grant, entry, [event]);
  if (!made) throw accountNotFound();
  return made;
}

/**
 * The key route's grant: promotional credits for the key's account that lapse when the current
 * calendar month (UTC) ends. 409 for a revoked key.
 */
export async function grantThisMonth(
  deps: AdminDeps,
  by: ActedBy,
  keyId: string,
  input: { readonly credits: number; readonly reason: string | null },
): Promise<GrantRecord> {
  const key = await refuseInactive(deps.store, keyId);
  const { grant } = await addAccountGrant(
    deps,
    by,
    key.accountId,
    {
      credits: input.credits,
      expiresAt: periodOf(deps.now()).end.toISOString(),
      category: "promotional",
      reference: null,
    },
    { key_id: keyId, ...(input.reason === null ? {} : { reason: input.reason }) },
  );
  return grant;
}

/** The account's grants live now, in the order calls spend them; 404 for an unknown account. */
export async function listAccountGrants(deps: AdminDeps, accountId: string): Promise<GrantRecord[]> {
  await existingAccount(deps.store, accountId);
  return deps.store.listGrants(accountId, deps.now().toISOString());
}

export interface GrantView {
  id: string;
  account_id: string;
  credits: number;
  remaining: number;
  expires_at: string | null;
  category: GrantCategory;
  reference: string | null;
  created_at: string;
}

export function grantView(grant: GrantRecord): GrantView {
  return {
    id: grant.id,
    account_id: grant.accountId,
    credits: grant.credits,
    remaining: grant.remaining,
    expires_at: grant.expiresAt,
    category: grant.category,
    reference: grant.reference,
    created_at: grant.createdAt,
  };
}
