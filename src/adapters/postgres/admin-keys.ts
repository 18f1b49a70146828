/**
 * AdminKeyStore on PostgreSQL: the admin API's keys, looked up by the SHA-256 hash of their secret.
 * Boundary: the `admin_keys` table only. Not cached: admin requests are few.
 */
import type { Pool } from "pg";
import type { AdminKeyStore } from "../../ports/store.ts";
import { ADMIN_KEY_COLUMNS, type AdminKeyRow, toAdminKeyRecord } from "../sql-rows.ts";
import { audited } from "./audit.ts";
import { run, statement } from "./db.ts";

const INSERT = statement(
  "admin_key_insert",
  "INSERT INTO admin_keys (id, name, secret_hash, display_prefix, created_at) VALUES ($1, $2, $3, $4, $5)",
);
const BY_HASH = statement(
  "admin_key_by_hash",
  `SELECT ${ADMIN_KEY_COLUMNS} FROM admin_keys WHERE secret_hash = $1`,
);
const LIST = statement(
  "admin_key_list",
  `SELECT ${ADMIN_KEY_COLUMNS} FROM admin_keys ORDER BY created_at, id`,
);
const REVOKE = statement(
  "admin_key_revoke",
  "UPDATE admin_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id",
);

export function createAdminKeyStore(pool: Pool): AdminKeyStore {
  return {
    async createAdminKey(key, audit) {
      await audited(pool, audit, async (db) => {
        await run(db, INSERT, [key.id, key.name, key.secretHash, key.displayPrefix, key.createdAt]);
        return 1;
      });
    },
    async findAdminKeyByHash(secretHash) {
      const [row] = await run<AdminKeyRow>(pool, BY_HASH, [secretHash]);
      return row ? toAdminKeyRecord(row) : null;
    },
    async listAdminKeys() {
      return (await run<AdminKeyRow>(pool, LIST, [])).map(toAdminKeyRecord);
    },
    async revokeAdminKey(id, at, audit) {
      return (await audited(pool, audit, async (db) => (await run(db, REVOKE, [id, at])).length)) === 1;
    },
  };
}
