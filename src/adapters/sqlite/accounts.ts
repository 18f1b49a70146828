/**
 * AccountStore on SQLite: the accounts that own the plan, the allowance, the grants and the
 * ledger, each read with its count of keys. Boundary: the `accounts` table, the making and reading
 * of `credit_grants` (the ledger spends them), and reading `api_keys` by account; the key cache forgets keys when any connection commits (key-changes.ts), so an
 * account's change reaches the keys it remembers like a key's.
 */
import type { AccountStore } from "../../ports/store.ts";
import {
  ACCOUNT_COLUMNS,
  type AccountRow,
  accountChangeValues,
  accountInsertValues,
  GRANT_COLUMNS,
  GRANT_SPEND_ORDER,
  type GrantRow,
  grantInsertValues,
  KEY_COLUMNS,
  KEYS_WITH_ACCOUNT,
  type KeyRow,
  newGrantRecord,
  toAccountRecord,
  toGrantRecord,
  toKeyRecord,
} from "../sql-rows.ts";
import type { Audited } from "./audit.ts";
import type { Db } from "./db.ts";

export function createAccountStore(db: Db, audited: Audited): AccountStore {
  const insert = db.statement(
    "INSERT INTO accounts (id, name, plan, monthly_allowance, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const byId = db.statement<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?`);
  const page = db.statement<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts a
     WHERE ?1 IS NULL OR a.created_at > ?1 OR (a.created_at = ?1 AND a.id > ?2)
     ORDER BY a.created_at, a.id LIMIT ?3`,
  );
  const keys = db.statement<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT}
     WHERE k.account_id = ?1 AND (?2 IS NULL OR k.created_at > ?2 OR (k.created_at = ?2 AND k.id > ?3))
     ORDER BY k.created_at, k.id LIMIT ?4`,
  );
  const update = db.statement(
    `UPDATE accounts SET
       name = CASE WHEN ? THEN ? ELSE name END,
       plan = CASE WHEN ? THEN ? ELSE plan END,
       monthly_allowance = CASE WHEN ? THEN ? ELSE monthly_allowance END,
       metadata = CASE WHEN ? THEN ? ELSE metadata END,
       alerts = CASE WHEN ? THEN ? ELSE alerts END
     WHERE id = ?`,
  );
  // Nothing when the account is missing, or already has a grant of the reference.
  const insertGrant = db.statement(
    `INSERT INTO credit_grants (id, account_id, credits, remaining, expires_at, category, reference, created_at)
     SELECT ?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7 WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ?2)
     ON CONFLICT (account_id, reference) WHERE reference IS NOT NULL DO NOTHING`,
  );
  const grantByReference = db.statement<GrantRow>(
    `SELECT ${GRANT_COLUMNS} FROM credit_grants g WHERE g.account_id = ? AND g.reference = ?`,
  );
  const liveGrants = db.statement<GrantRow>(
    `SELECT ${GRANT_COLUMNS} FROM credit_grants g
     WHERE g.account_id = ? AND g.remaining > 0 AND (g.expires_at IS NULL OR g.expires_at > ?)
     ORDER BY ${GRANT_SPEND_ORDER}`,
  );

  return {
    async createAccount(account, audit) {
      audited(() => insert.run(...accountInsertValues(account)), audit);
    },
    async getAccount(id) {
      const row = byId.get(id);
      return row ? toAccountRecord(row) : null;
    },
    async listAccounts(options) {
      const rows = page.all(options.after?.createdAt ?? null, options.after?.id ?? null, options.limit);
      return rows.map(toAccountRecord);
    },
    async listAccountKeys(accountId, options) {
      const rows = keys.all(
        accountId,
        options?.after?.createdAt ?? null,
        options?.after?.id ?? null,
        options?.limit ?? -1,
      );
      return rows.map(toKeyRecord);
    },
    updateAccount: async (id, change, audit) =>
      audited(
        () =>
          update.run(...accountChangeValues(change).map((v) => (typeof v === "boolean" ? Number(v) : v)), id),
        audit,
      ) === 1,
    async addGrant(accountId, grant, audit, events) {
      if (audited(() => insertGrant.run(...grantInsertValues(accountId, grant)), audit, events) === 1)
        return { grant: newGrantRecord(accountId, grant), created: true };
      const existing =
        grant.reference === null ? undefined : grantByReference.get(accountId, grant.reference);
      return existing ? { grant: toGrantRecord(existing), created: false } : null;
    },
    listGrants: async (accountId, at) => liveGrants.all(accountId, at).map(toGrantRecord),
  };
}
