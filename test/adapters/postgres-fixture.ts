/**
 * Throwaway PostgreSQL schemas for adapter tests, and the ledger's private steps for its tests: each suite works in its own `t_...` schema and
 * drops it afterwards, so parallel runs on one database never see each other's rows.
 */
import { Client } from "pg";
import { refund, refundUnconfirmed, reserve, settle } from "../../src/adapters/postgres/ledger.ts";
import type { PostgresStore } from "../../src/adapters/postgres/store.ts";
import type { Reservation, StoredAnswer } from "../../src/ports/store.ts";
import { uniqueName } from "../helpers/services.ts";

/** Counts the key lookups by hash that `store` sends to the database from now on. */
export function countKeyLookups(store: PostgresStore): () => number {
  let lookups = 0;
  type Query = (...args: unknown[]) => Promise<unknown>;
  const query = store.pool.query.bind(store.pool) as Query;
  (store.pool as unknown as { query: Query }).query = async (...args) => {
    if ((args[0] as { name?: string }).name === "toolrun_key_by_hash") lookups++;
    return query(...args);
  };
  return () => lookups;
}

export function uniqueSchema(): string {
  return uniqueName("t").toLowerCase();
}

/** Runs one statement on a short-lived connection of its own (outside the pool under test). */
export async function adminQuery(url: string, text: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}

/**
 * The store with the ledger's private steps (reserve, settle, refund, the compensation of a call
 * answered 503) beside its port, for the tests of those steps: the port only offers whole calls.
 */
export function withLedgerSteps(store: PostgresStore) {
  return {
    ...store,
    reserve: (r: Reservation) => reserve(store.pool, r),
    settle: (callId: string, httpStatus: number, answer?: StoredAnswer) =>
      settle(store.pool, callId, httpStatus, answer),
    async refund(callId: string, httpStatus: number) {
      await refund(store.pool, callId, httpStatus);
    },
    refundUnconfirmed: (callId: string) => refundUnconfirmed(store.pool, callId),
  };
}
