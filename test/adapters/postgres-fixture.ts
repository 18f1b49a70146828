/**
 * Throwaway PostgreSQL schemas for adapter tests: each suite works in its own `t_...` schema and
 * drops it afterwards, so parallel runs on one database never see each other's rows.
 */
import { Client } from "pg";
import { uniqueName } from "../helpers/services.ts";

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
