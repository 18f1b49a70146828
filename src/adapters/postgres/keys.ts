/**
 * KeyStore on PostgreSQL: API keys looked up by the SHA-256 hash of their secret, or of the secret
 * a rotation with a grace replaced (both UNIQUE, so a hash names at most one key). Boundary: the
 * `api_keys` table only; remembering found keys is the key cache's (adapters/key-cache.ts, told of
 * changes by key-changes.ts).
 */
import type { Pool } from "pg";
import { type KeyStore, MAX_GRANTED_CREDITS, type NewApiKey, type NewAuditEntry } from "../../ports/store.ts";
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";
import {
  type FoundKeyRow,
  KEY_COLUMNS,
  type KeyRow,
  keyChangeValues,
  keyInsertValues,
  toFoundKey,
  toKeyRecord,
} from "../sql-rows.ts";
import { audited } from "./audit.ts";
import { run, type Statement, statement, transaction, type Values } from "./db.ts";

const INSERT = statement(
  "key_insert",
  `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at, expires_at, metadata, tools, access)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
);
const INSERT_FIRST = statement(
  "key_insert_first",
  `INSERT INTO api_keys (id, name, plan, secret_hash, display_prefix, monthly_allowance, created_at, expires_at, metadata, tools, access)
   SELECT $1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz, $9, $10, $11 WHERE NOT EXISTS (SELECT 1 FROM api_keys)
   RETURNING id`,
);
// An OR of two indexed columns: a BitmapOr of both indexes.
const BY_HASH = statement(
  "key_by_hash",
  `SELECT ${KEY_COLUMNS}, secret_hash = $1 AS matched_current FROM api_keys
   WHERE secret_hash = $1 OR previous_secret_hash = $1`,
);
const BY_ID = statement("key_by_id", `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`);
const LIST = statement("key_list", `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
const PAGE = statement(
  "key_page",
  `SELECT ${KEY_COLUMNS} FROM api_keys
   WHERE $1::timestamptz IS NULL OR (created_at, id) > ($1::timestamptz, $2::text)
   ORDER BY created_at, id LIMIT $3`,
);
const COUNT = statement("key_count", "SELECT count(*)::integer AS n FROM api_keys");
const REVOKE = statement(
  "key_revoke",
  `UPDATE api_keys SET revoked_at = $2::timestamptz,
     previous_secret_expires_at = CASE WHEN previous_secret_expires_at > $2::timestamptz
       THEN $2::timestamptz ELSE previous_secret_expires_at END
   WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
);
// The right-hand sides read the row as it was: the replaced secret is the one being replaced.
const ROTATE = statement(
  "key_rotate",
  `UPDATE api_keys SET
     previous_secret_hash = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret_hash END,
     previous_display_prefix = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE display_prefix END,
     previous_secret_expires_at = $4::timestamptz,
     secret_hash = $2, display_prefix = $3
   WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
);
const UPDATE = statement(
  "key_update",
  `UPDATE api_keys SET
     name = CASE WHEN $1 THEN $2::text ELSE name END,
     plan = CASE WHEN $3 THEN $4::text ELSE plan END,
     monthly_allowance = CASE WHEN $5 THEN $6::bigint ELSE monthly_allowance END,
     metadata = CASE WHEN $7 THEN $8::text ELSE metadata END,
     expires_at = CASE WHEN $9 THEN $10::timestamptz ELSE expires_at END,
     tools = CASE WHEN $11 THEN $12::text ELSE tools END,
     access = CASE WHEN $13 THEN $14::text ELSE access END
   WHERE id = $15 AND revoked_at IS NULL RETURNING id`,
);
const GRANT = statement(
  "key_grant",
  `UPDATE api_keys SET
     granted_credits = CASE WHEN granted_period = $1 THEN granted_credits + $2::bigint ELSE $2::bigint END,
     granted_period = $1
   WHERE id = $3 AND revoked_at IS NULL
     AND CASE WHEN granted_period = $1 THEN granted_credits + $2::bigint ELSE $2::bigint END <= $4
   RETURNING id`,
);

export function createKeyStore(pool: Pool): KeyStore {
  /** Runs a change to a key (one statement returning the key's id when it matched) with its audit entry. */
  async function change(
    stmt: Statement,
    values: Values,
    audit: NewAuditEntry | undefined,
    events?: readonly NewWebhookEvent[],
  ): Promise<boolean> {
    return (await audited(pool, audit, async (db) => (await run(db, stmt, values)).length, events)) === 1;
  }

  return {
    async createKey(key: NewApiKey, audit?: NewAuditEntry) {
      await audited(pool, audit, async (db) => {
        await run(db, INSERT, keyInsertValues(key));
        return 1;
      });
    },
    async createFirstKey(key: NewApiKey) {
      // The lock conflicts with itself and with every write, not with reads: a second caller waits
      // for the first one's commit, then its statement's fresh snapshot sees the key.
      return transaction(pool, async (client) => {
        await client.query("LOCK TABLE api_keys IN SHARE ROW EXCLUSIVE MODE");
        const inserted = await run(client, INSERT_FIRST, keyInsertValues(key));
        return inserted.length === 1;
      });
    },
    async findKeyByHash(secretHash) {
      const [row] = await run<FoundKeyRow>(pool, BY_HASH, [secretHash]);
      return row ? toFoundKey(row) : null;
    },
    async getKey(id) {
      const [row] = await run<KeyRow>(pool, BY_ID, [id]);
      return row ? toKeyRecord(row) : null;
    },
    async listKeys(page) {
      const rows = page
        ? await run<KeyRow>(pool, PAGE, [page.after?.createdAt ?? null, page.after?.id ?? null, page.limit])
        : await run<KeyRow>(pool, LIST, []);
      return rows.map(toKeyRecord);
    },
    async countKeys() {
      const [row] = await run<{ n: number }>(pool, COUNT, []);
      return row?.n ?? 0;
    },
    revokeKey: (id, at, audit, events) => change(REVOKE, [id, at], audit, events),
    rotateKey: (id, rotation, audit) =>
      change(
        ROTATE,
        [id, rotation.secretHash, rotation.displayPrefix, rotation.previousSecretExpiresAt],
        audit,
      ),
    updateKey: (id, fields, audit) => change(UPDATE, [...keyChangeValues(fields), id], audit),
    grantCredits: (id, period, credits, audit) =>
      change(GRANT, [period, credits, id, MAX_GRANTED_CREDITS], audit),
  };
}
