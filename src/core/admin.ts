/**
 * Operator actions on keys and tools, shared by the CLI and the first-start bootstrap.
 * Secrets are returned once, to the caller, and never stored.
 */
import type { ApiKeyRecord, NewApiKey, Store } from "../ports/store.ts";
import { findPlan } from "./credits.ts";
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

interface KeyInput {
  readonly plan: string;
  readonly name: string;
  readonly monthlyAllowance: number | null;
}

export async function createApiKey(
  store: Store,
  settings: ServiceSettings,
  input: KeyInput,
  now = new Date(),
): Promise<CreatedKey> {
  const { stored, secret } = newApiKey(settings, input, now);
  await store.createKey(stored);
  return { record: await storedRecord(store, stored.id), key: secret };
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
    { plan: "free", name: "bootstrap", monthlyAllowance: null },
    now,
  );
  if (!(await store.createFirstKey(stored))) return null;
  return { record: await storedRecord(store, stored.id), key: secret };
}

/** A fresh key: what the store keeps, and the secret shown once. */
function newApiKey(
  settings: ServiceSettings,
  input: KeyInput,
  now: Date,
): { stored: NewApiKey; secret: string } {
  assertPlan(settings, input.plan);
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
    },
    secret: issued.key,
  };
}

async function storedRecord(store: Store, id: string): Promise<ApiKeyRecord> {
  const record = await store.getKey(id);
  if (!record) throw new AdminError(`Key ${id} vanished right after it was created`);
  return record;
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
  if (!findPlan(settings, plan)) {
    throw new AdminError(`Unknown plan "${plan}" (known: ${Object.keys(settings.plans).join(", ")})`);
  }
}
