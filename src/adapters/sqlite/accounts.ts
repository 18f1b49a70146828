/**
 * AccountStore on SQLite: the accounts that own the plan, the allowance, the grant and the ledger,
 * each read with its count of keys. Boundary: the `accounts` table (and reading `api_keys` by
 * account); the key cache forgets keys when any connection commits (key-changes.ts), so an
 * account's change reaches the keys it remembers like a key's.
 */
import { type AccountStore, MAX_GRANTED_CREDITS } from "../../ports/store.ts";
import {
  ACCOUNT_COLUMNS,
  type AccountRow,
  accountChangeValues,
  accountInsertValues,
  KEY_COLUMNS,
  KEYS_WITH_ACCOUNT,
  type KeyRow,
  toAccountRecord,
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
  const grant = db.statement(
    `UPDATE accounts SET
       granted_credits = CASE WHEN granted_period = ?1 THEN granted_credits + ?2 ELSE ?2 END,
       granted_period = ?1
     WHERE id = ?3
       AND CASE WHEN granted_period = ?1 THEN granted_credits + ?2 ELSE ?2 END <= ?4`,
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
    grantAccountCredits: async (id, period, credits, audit) =>
      audited(() => grant.run(period, credits, id, MAX_GRANTED_CREDITS), audit) === 1,
  };
}
