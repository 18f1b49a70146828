/**
 * KeyStore on PostgreSQL: API keys looked up by the SHA-256 hash of their secret, or of the secret
 * a rotation with a grace replaced (both UNIQUE, so a hash names at most one key), each read with
 * its account's plan, allowance and grant in the same statement. Boundary: the `api_keys` table
 * (and the one-key account a new key makes); remembering found keys is the key cache's (adapters/key-cache.ts, told of
 * changes by key-changes.ts).
 */
import type { Pool } from "pg";
import type { KeyStore, NewApiKey, NewAuditEntry } from "../../ports/store.ts";
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";
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
import { audited } from "./audit.ts";
import { run, type Statement, statement, transaction, type Values } from "./db.ts";

// Only into an account that exists (the foreign key would refuse it with an error).
const INSERT = statement(
  "key_insert",
  `INSERT INTO api_keys (id, account_id, name, secret_hash, display_prefix, created_at, expires_at, metadata, tools, access)
   SELECT $1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $2)
   RETURNING id`,
);
// A key with its one-key account, in one statement (the foreign key is checked at its end).
const INSERT_WITH_ACCOUNT = statement(
  "key_insert_with_account",
  `WITH account AS (
     INSERT INTO accounts (id, name, plan, monthly_allowance, metadata, created_at)
     VALUES ($11, $12, $13, $14::bigint, $15, $16::timestamptz)
   )
   INSERT INTO api_keys (id, account_id, name, secret_hash, display_prefix, created_at, expires_at, metadata, tools, access)
   VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10)
   RETURNING id`,
);
const INSERT_FIRST = statement(
  "key_insert_first",
  `WITH account AS (
     INSERT INTO accounts (id, name, plan, monthly_allowance, metadata, created_at)
     SELECT $11, $12, $13, $14::bigint, $15, $16::timestamptz WHERE NOT EXISTS (SELECT 1 FROM api_keys)
   )
   INSERT INTO api_keys (id, account_id, name, secret_hash, display_prefix, created_at, expires_at, metadata, tools, access)
   SELECT $1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10 WHERE NOT EXISTS (SELECT 1 FROM api_keys)
   RETURNING id`,
);
// An OR of two indexed columns: a BitmapOr of both indexes.
const BY_HASH = statement(
  "key_by_hash",
  `SELECT ${KEY_COLUMNS}, k.secret_hash = $1 AS matched_current FROM ${KEYS_WITH_ACCOUNT}
   WHERE k.secret_hash = $1 OR k.previous_secret_hash = $1`,
);
const BY_ID = statement("key_by_id", `SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT} WHERE k.id = $1`);
const LIST = statement(
  "key_list",
  `SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT} ORDER BY k.created_at, k.id`,
);
const PAGE = statement(
  "key_page",
  `SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT}
   WHERE $1::timestamptz IS NULL OR (k.created_at, k.id) > ($1::timestamptz, $2::text)
   ORDER BY k.created_at, k.id LIMIT $3`,
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
     metadata = CASE WHEN $3 THEN $4::text ELSE metadata END,
     expires_at = CASE WHEN $5 THEN $6::timestamptz ELSE expires_at END,
     tools = CASE WHEN $7 THEN $8::text ELSE tools END,
     access = CASE WHEN $9 THEN $10::text ELSE access END
   WHERE id = $11 AND revoked_at IS NULL RETURNING id`,
);
/** A new key's parameters: the key's, then its one-key account's (INSERT_WITH_ACCOUNT, INSERT_FIRST). */
function keyValues(key: NewApiKey): (string | number | null)[] {
  const account = oneKeyAccount(key);
  return account ? [...keyInsertValues(key), ...accountInsertValues(account)] : keyInsertValues(key);
}

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
      const inserted = await audited(
        pool,
        audit,
        async (db) => (await run(db, key.newAccount ? INSERT_WITH_ACCOUNT : INSERT, keyValues(key))).length,
      );
      return inserted === 1;
    },
    async createFirstKey(key: NewApiKey) {
      // The lock conflicts with itself and with every write, not with reads: a second caller waits
      // for the first one's commit, then its statement's fresh snapshot sees the key.
      return transaction(pool, async (client) => {
        await client.query("LOCK TABLE api_keys IN SHARE ROW EXCLUSIVE MODE");
        if (!key.newAccount) throw new Error("the first key makes its own account");
        const inserted = await run(client, INSERT_FIRST, keyValues(key));
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
  };
}
