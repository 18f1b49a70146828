/**
 * KeyStore on SQLite: API keys looked up by the SHA-256 hash of their secret (UNIQUE, so a hash
 * names at most one key). Boundary: the `api_keys` table only. Found keys are remembered while no
 * other connection has written the file (key-cache.ts); changes made here forget them too.
 */
import type { KeyStore, NewApiKey } from "../../ports/store.ts";
import { KEY_COLUMNS, type KeyRow, toKeyRecord } from "../sql-rows.ts";
import type { Db } from "./db.ts";
import { createKeyCache } from "./key-cache.ts";

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
  const cache = createKeyCache(db.dataVersion);

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
  /** Runs a change to one key, forgetting every remembered key; true when it matched that key. */
  const change = (work: () => number): boolean => {
    cache.clear();
    return work() === 1;
  };

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
      const cached = cache.get(secretHash);
      if (cached) return cached;
      const row = byHash.get(secretHash);
      if (!row) return null;
      const record = toKeyRecord(row);
      cache.set(secretHash, record);
      return record;
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
    revokeKey: async (id, at) => change(() => revoke.run(at, id)),
    rotateKey: async (id, secretHash, displayPrefix) =>
      change(() => rotate.run(secretHash, displayPrefix, id)),
    setPlan: async (id, plan) => change(() => setPlan.run(plan, id)),
  };
}
