/**
 * KeyStore on PostgreSQL: API keys looked up by the SHA-256 hash of their secret (UNIQUE, so a
 * hash names at most one key). Boundary: the `api_keys` table only. With a KeyCache (key-cache.ts),
 * found keys are remembered while every change to the table is reported to this instance; changes
 * made here forget everything themselves, once the statement has returned.
 */
import type { Pool } from "pg";
import type { KeyStore, NewApiKey } from "../../ports/store.ts";
import { KEY_COLUMNS, type KeyRow, toKeyRecord } from "../sql-rows.ts";
import { run, statement, transaction, type Values } from "./db.ts";
import type { KeyCache } from "./key-cache.ts";

const INSERT = statement(
  "key_insert",
  `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7)`,
);
const INSERT_FIRST = statement(
  "key_insert_first",
  `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at)
   SELECT $1, $2, $3, $4, $5, $6, $7 WHERE NOT EXISTS (SELECT 1 FROM api_keys)
   RETURNING id`,
);
const BY_HASH = statement("key_by_hash", `SELECT ${KEY_COLUMNS} FROM api_keys WHERE secret_hash = $1`);
const BY_ID = statement("key_by_id", `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`);
const LIST = statement("key_list", `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
const COUNT = statement("key_count", "SELECT count(*)::integer AS n FROM api_keys");
const REVOKE = statement(
  "key_revoke",
  "UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id",
);
const ROTATE = statement(
  "key_rotate",
  `UPDATE api_keys SET secret_hash = $2, display_prefix = $3
   WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
);
const SET_PLAN = statement("key_set_plan", "UPDATE api_keys SET plan = $2 WHERE id = $1 RETURNING id");

/** The parameters of INSERT and INSERT_FIRST, in their column order. */
function insertValues(key: NewApiKey): Values {
  return [key.id, key.name, key.plan, key.secretHash, key.displayPrefix, key.monthlyAllowance, key.createdAt];
}

export function createKeyStore(pool: Pool, cache?: KeyCache): KeyStore {
  /** Runs a change to a key, then forgets every remembered key (also when the outcome is unknown). */
  async function change(work: () => Promise<unknown[]>): Promise<boolean> {
    try {
      return (await work()).length === 1;
    } finally {
      cache?.forget();
    }
  }

  return {
    async createKey(key: NewApiKey) {
      await run(pool, INSERT, insertValues(key));
    },
    async createFirstKey(key: NewApiKey) {
      // The lock conflicts with itself and with every write, not with reads: a second caller waits
      // for the first one's commit, then its statement's fresh snapshot sees the key.
      return transaction(pool, async (client) => {
        await client.query("LOCK TABLE api_keys IN SHARE ROW EXCLUSIVE MODE");
        const inserted = await run(client, INSERT_FIRST, insertValues(key));
        return inserted.length === 1;
      });
    },
    async findKeyByHash(secretHash) {
      const cached = cache?.lookup(secretHash);
      if (cached?.hit) return cached.hit;
      const [row] = await run<KeyRow>(pool, BY_HASH, [secretHash]);
      if (!row) return null;
      const record = toKeyRecord(row);
      if (cached) cache?.remember(cached.token, secretHash, record);
      return record;
    },
    async getKey(id) {
      const [row] = await run<KeyRow>(pool, BY_ID, [id]);
      return row ? toKeyRecord(row) : null;
    },
    async listKeys() {
      return (await run<KeyRow>(pool, LIST, [])).map(toKeyRecord);
    },
    async countKeys() {
      const [row] = await run<{ n: number }>(pool, COUNT, []);
      return row?.n ?? 0;
    },
    revokeKey: (id, at) => change(() => run(pool, REVOKE, [id, at])),
    rotateKey: (id, secretHash, displayPrefix) =>
      change(() => run(pool, ROTATE, [id, secretHash, displayPrefix])),
    setPlan: (id, plan) => change(() => run(pool, SET_PLAN, [id, plan])),
  };
}
