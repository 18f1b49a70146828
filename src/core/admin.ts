/**
 * Operator actions on keys and tools, shared by the CLI and the first-start bootstrap.
 * Secrets are returned once, to the caller, and never stored.
 */
import type { ApiKeyRecord, NewApiKey, Store } from "../ports/store.ts";
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
  const created = await issueAndStore(store, settings, input, now, async (key) => {
    await store.createKey(key);
    return true;
  });
  if (!created) throw new AdminError("The key was not created");
  return created;
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
  return issueAndStore(
    store,
    settings,
    { plan: "free", name: "bootstrap", monthlyAllowance: null },
    now,
    (key) => store.createFirstKey(key),
  );
}

async function issueAndStore(
  store: Store,
  settings: ServiceSettings,
  input: { plan: string; name: string; monthlyAllowance: number | null },
  now: Date,
  save: (key: NewApiKey) => Promise<boolean>,
): Promise<CreatedKey | null> {
  assertPlan(settings, input.plan);
  const issued = issueKey(settings.keyPrefix);
  const id = newKeyId();
  const saved = await save({
    id,
    name: input.name,
    plan: input.plan,
    secretHash: issued.secretHash,
    displayPrefix: issued.displayPrefix,
    monthlyAllowance: input.monthlyAllowance,
    createdAt: now.toISOString(),
  });
  if (!saved) return null;
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
