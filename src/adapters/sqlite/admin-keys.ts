/**
 * AdminKeyStore on SQLite: the admin API's keys, looked up by the SHA-256 hash of their secret.
 * Boundary: the `admin_keys` table only. Not cached: admin requests are few.
 */
import type { AdminKeyStore } from "../../ports/store.ts";
import { ADMIN_KEY_COLUMNS, type AdminKeyRow, toAdminKeyRecord } from "../sql-rows.ts";
import type { Audited } from "./audit.ts";
import type { Db } from "./db.ts";

export function createAdminKeyStore(db: Db, audited: Audited): AdminKeyStore {
  const insert = db.statement(
    "INSERT INTO admin_keys (id, name, secret_hash, display_prefix, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const byHash = db.statement<AdminKeyRow>(
    `SELECT ${ADMIN_KEY_COLUMNS} FROM admin_keys WHERE secret_hash = ?`,
  );
  const list = db.statement<AdminKeyRow>(
    `SELECT ${ADMIN_KEY_COLUMNS} FROM admin_keys ORDER BY created_at, id`,
  );
  const revoke = db.statement("UPDATE admin_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
  return {
    async createAdminKey(key, audit) {
      audited(() => insert.run(key.id, key.name, key.secretHash, key.displayPrefix, key.createdAt), audit);
    },
    async findAdminKeyByHash(secretHash) {
      const row = byHash.get(secretHash);
      return row ? toAdminKeyRecord(row) : null;
    },
    async listAdminKeys() {
      return list.all().map(toAdminKeyRecord);
    },
    async revokeAdminKey(id, at, audit) {
      return audited(() => revoke.run(at, id), audit) === 1;
    },
  };
}
