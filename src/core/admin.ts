/**
 * Operator actions on keys and tools, shared by the CLI and the first-start bootstrap.
 * Secrets are returned once, to the caller, and never stored.
 */
import type { ApiKeyRecord, Store } from "../ports/store.ts";
import { issueKey, newKeyId } from "./keys.ts";
import type { ServiceSettings } from "./settings.ts";

export class AdminError extends Error {
  override readonly name = "AdminError";
}

export interface CreatedKey {
  readonly record: ApiKeyRecord;
  /** The full key: shown once, never stored. */
  readonly key: string;
}

export async function createApiKey(
  store: Store,
  settings: ServiceSettings,
  input: { plan: string; name: string; monthlyAllowance: number | null },
  now = new Date(),
): Promise<CreatedKey> {
  assertPlan(settings, input.plan);
  const issued = issueKey(settings.keyPrefix);
  const id = newKeyId();
  await store.createKey({
    id,
    name: input.name,
    plan: input.plan,
    secretHash: issued.secretHash,
    displayPrefix: issued.displayPrefix,
    monthlyAllowance: input.monthlyAllowance,
    createdAt: now.toISOString(),
  });
  const record = await store.getKey(id);
  if (!record) throw new AdminError(`Key ${id} vanished right after it was created`);
  return { record, key: issued.key };
}

export async function rotateApiKey(store: Store, settings: ServiceSettings, id: string): Promise<CreatedKey> {
  const issued = issueKey(settings.keyPrefix);
  if (!(await store.rotateKey(id, issued.secretHash, issued.displayPrefix))) {
    throw new AdminError(`No active key has the id ${id}`);
  }
  const record = await store.getKey(id);
  if (!record) throw new AdminError(`No key has the id ${id}`);
  return { record, key: issued.key };
}

export async function revokeApiKey(store: Store, id: string, now = new Date()): Promise<void> {
  if (!(await store.revokeKey(id, now.toISOString()))) throw new AdminError(`No active key has the id ${id}`);
}

export async function setKeyPlan(
  store: Store,
  settings: ServiceSettings,
  id: string,
  plan: string,
): Promise<void> {
  assertPlan(settings, plan);
  if (!(await store.setPlan(id, plan))) throw new AdminError(`No key has the id ${id}`);
}

function assertPlan(settings: ServiceSettings, plan: string): void {
  if (!settings.plans[plan]) {
    throw new AdminError(`Unknown plan "${plan}" (known: ${Object.keys(settings.plans).join(", ")})`);
  }
}

/** The allowance a key gets: its own, or its plan's. */
export function allowanceOf(record: ApiKeyRecord, settings: ServiceSettings): number | null {
  return record.monthlyAllowance ?? settings.plans[record.plan]?.monthlyCredits ?? null;
}
