/**
 * KeyStore on SQLite: API keys looked up by the SHA-256 hash of their secret, or of the secret a
 * rotation with a grace replaced (both UNIQUE, so a hash names at most one key), each read with
 * its account's plan, allowance and grant in the same statement. Boundary: the `api_keys` table
 * (and the one-key account a new key makes); remembering found keys is the key cache's (adapters/key-cache.ts, told of
 * changes by key-changes.ts).
 */
import type { KeyStore, NewApiKey } from "../../ports/store.ts";
import {
  accountInsertValues,
  type FoundKeyRow,
  KEY_COLUMNS,
  KEYS_WITH_ACCOUNT,
  type KeyRow,
  keyChangeValues,
  keyInsertValues,
  oneKeyAccount,
  toFoundKey,
  toKeyRecord,
} from "../sql-rows.ts";
import type { Audited } from "./audit.ts";
import type { Db } from "./db.ts";

export function createKeyStore(db: Db, audited: Audited): KeyStore {
  // Only into an account that exists: no foreign keys are enforced on SQLite.
  const insert = db.statement(
    `INSERT INTO api_keys (id, account_id, name, secret_hash, display_prefix, created_at, expires_at, metadata, tools, access)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ?2)`,
  );
  const insertAccount = db.statement(
    `INSERT INTO accounts (id, name, plan, monthly_allowance, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  // An OR of two indexed columns: SQLite searches each index and unites the rows.
  const byHash = db.statement<FoundKeyRow>(
    `SELECT ${KEY_COLUMNS}, k.secret_hash = ?1 AS matched_current FROM ${KEYS_WITH_ACCOUNT}
     WHERE k.secret_hash = ?1 OR k.previous_secret_hash = ?1`,
  );
  const byId = db.statement<KeyRow>(`SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT} WHERE k.id = ?`);
  const list = db.statement<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT} ORDER BY k.created_at, k.id`,
  );
  const page = db.statement<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT}
     WHERE ?1 IS NULL OR k.created_at > ?1 OR (k.created_at = ?1 AND k.id > ?2)
     ORDER BY k.created_at, k.id LIMIT ?3`,
  );
  const count = db.statement<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys");
  // ISO 8601 UTC text of one form (toISOString), so comparing them as text compares the times.
  const revoke = db.statement(
    `UPDATE api_keys SET revoked_at = ?1,
       previous_secret_expires_at = CASE WHEN previous_secret_expires_at > ?1 THEN ?1 ELSE previous_secret_expires_at END
     WHERE id = ?2 AND revoked_at IS NULL`,
  );
  // The right-hand sides read the row as it was: the replaced secret is the one being replaced.
  const rotate = db.statement(
    `UPDATE api_keys SET
       previous_secret_hash = CASE WHEN ?3 IS NULL THEN NULL ELSE secret_hash END,
       previous_display_prefix = CASE WHEN ?3 IS NULL THEN NULL ELSE display_prefix END,
       previous_secret_expires_at = ?3,
       secret_hash = ?1, display_prefix = ?2
     WHERE id = ?4 AND revoked_at IS NULL`,
  );
  const update = db.statement(
    `UPDATE api_keys SET
       name = CASE WHEN ? THEN ? ELSE name END,
       metadata = CASE WHEN ? THEN ? ELSE metadata END,
       expires_at = CASE WHEN ? THEN ? ELSE expires_at END,
       tools = CASE WHEN ? THEN ? ELSE tools END,
       access = CASE WHEN ? THEN ? ELSE access END
     WHERE id = ? AND revoked_at IS NULL`,
  );
  /** The key, after its one-key account when it makes one (inside the caller's transaction). */
  const insertKey = (key: NewApiKey): number => {
    const account = oneKeyAccount(key);
    if (account) insertAccount.run(...accountInsertValues(account));
    return insert.run(...keyInsertValues(key));
  };
  const countKeys = (): number => count.get()?.n ?? 0;
  /** Runs a change to one key; true when it matched that key. */
  const change = (work: () => number): boolean => work() === 1;

  return {
    async createKey(key, audit) {
      // The account and the key in one transaction: audited() opens one only with an entry.
      return audit ? audited(() => insertKey(key), audit) === 1 : db.transaction(() => insertKey(key)) === 1;
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
      return row ? toFoundKey(row) : null;
    },
    async getKey(id) {
      const row = byId.get(id);
      return row ? toKeyRecord(row) : null;
    },
    async listKeys(options) {
      const rows = options
        ? page.all(options.after?.createdAt ?? null, options.after?.id ?? null, options.limit)
        : list.all();
      return rows.map(toKeyRecord);
    },
    async countKeys() {
      return countKeys();
    },
    revokeKey: async (id, at, audit, events) =>
      change(() => audited(() => revoke.run(at, id), audit, events)),
    rotateKey: async (id, rotation, audit) =>
      change(() =>
        audited(
          () => rotate.run(rotation.secretHash, rotation.displayPrefix, rotation.previousSecretExpiresAt, id),
          audit,
        ),
      ),
    updateKey: async (id, fields, audit) =>
      change(() =>
        audited(
          () =>
            update.run(...keyChangeValues(fields).map((v) => (typeof v === "boolean" ? Number(v) : v)), id),
          audit,
        ),
      ),
  };
}
