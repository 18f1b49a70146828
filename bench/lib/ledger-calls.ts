/** The keys and calls the ledger-floor scripts record: a builder key without allowance, a calculator call whose tool already ran. */
import { randomUUIDv7 } from "node:crypto";
import type { NewApiKey, Reservation } from "../../src/ports/store.ts";

/** The one-key account of a floor key. */
export function floorAccount(keyId: string): string {
  return `acc_${keyId}`;
}

export function floorKey(id: string): NewApiKey {
  return {
    id,
    name: id,
    secretHash: `hash-${id}`,
    displayPrefix: "tr_live_floo",
    accountId: floorAccount(id),
    newAccount: { plan: "builder", monthlyAllowance: null },
    createdAt: new Date().toISOString(),
    expiresAt: null,
    metadata: {},
    tools: null,
    access: "full",
  };
}

export function floorCall(keyId: string): Reservation {
  return {
    callId: randomUUIDv7(), // as the server makes them (src/deps.ts): time-ordered, so its index grows at one end
    requestId: "req_floor",
    accountId: floorAccount(keyId),
    keyId,
    tool: "retaining-wall-pressure-calculator",
    period: "2026-11",
    credits: 1,
    allowance: 2_000_000_000,
    monthlyCallCap: null,
    at: new Date().toISOString(),
  };
}

/** A tool's work, done. */
export const DONE = { ok: true as const, value: { result: 1 } };
