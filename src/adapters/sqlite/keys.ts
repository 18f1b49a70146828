/**
 * KeyStore on SQLite: API keys looked up by the SHA-256 hash of their secret (UNIQUE, so a hash
 * names at most one key), every lookup in the file, so a key revoked or rotated by the CLI stops
 * working at the next request. Boundary: the `api_keys` table only.
 */
import type { KeyStore, NewApiKey } from "../../ports/store.ts";
import { KEY_COLUMNS, type KeyRow, toKeyRecord } from "../sql-rows.ts";
import type { Db } from "./db.ts";

export function createKeyStore(db: Db): KeyStore {
  const insert = db.statement(
    `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const byHash = db.statement<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE secret_hash = ?`);
  const byId = db.statement<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`);
  const list = db.statement<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
  const count = db.statement<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys");
  const revoke = db.statement("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
  const rotate = db.statement(
    "UPDATE api_keys SET secret_hash = ?, display_prefix = ? WHERE id = ? AND revoked_at IS NULL",
  );
  const setPlan = db.statement("UPDATE api_keys SET plan = ? WHERE id = ?");

  const insertKey = (key: NewApiKey): void => {
    insert.run(
      key.id,
      key.name,
      key.plan,
      key.secretHash,
      key.displayPrefix,
      key.monthlyAllowance,
      key.createdAt,
    );
  };
  const countKeys = (): number => count.get()?.n ?? 0;

  return {
    async createKey(key) {
      insertKey(key);
    },
    async createFirstKey(key) {
      // IMMEDIATE: the count and the insert hold the write lock, so no other process slips between.
      return db.transaction(() => {
        if (countKeys() > 0) return false;
        insertKey(key);
        return true;
      });
    },
    async findKeyByHash(secretHash) {
      const row = byHash.get(secretHash);
      return row ? toKeyRecord(row) : null;
    },
    async getKey(id) {
      const row = byId.get(id);
      return row ? toKeyRecord(row) : null;
    },
    async listKeys() {
      return list.all().map(toKeyRecord);
    },
    async countKeys() {
      return countKeys();
    },
    revokeKey: async (id, at) => revoke.run(at, id) === 1,
    rotateKey: async (id, secretHash, displayPrefix) => rotate.run(secretHash, displayPrefix, id) === 1,
    setPlan: async (id, plan) => setPlan.run(plan, id) === 1,
  };
}
