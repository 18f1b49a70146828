/**
 * AccountStore on PostgreSQL: the accounts that own the plan, the allowance, the grant and the
 * ledger, each read with its count of keys. Boundary: the `accounts` table (and reading `api_keys`
 * by account); its trigger announces every change on the key cache's channel (key-changes.ts), so
 * an account's change reaches the keys every instance remembers like a key's.
 */
import type { Pool } from "pg";
import { type AccountStore, MAX_GRANTED_CREDITS, type NewAuditEntry } from "../../ports/store.ts";
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
import { audited } from "./audit.ts";
import { run, type Statement, statement, type Values } from "./db.ts";

const INSERT = statement(
  "account_insert",
  `INSERT INTO accounts (id, name, plan, monthly_allowance, metadata, created_at)
   VALUES ($1, $2, $3, $4::bigint, $5, $6::timestamptz) RETURNING id`,
);
const BY_ID = statement("account_by_id", `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1`);
const PAGE = statement(
  "account_page",
  `SELECT ${ACCOUNT_COLUMNS} FROM accounts a
   WHERE $1::timestamptz IS NULL OR (a.created_at, a.id) > ($1::timestamptz, $2::text)
   ORDER BY a.created_at, a.id LIMIT $3`,
);
const KEYS = statement(
  "account_keys",
  `SELECT ${KEY_COLUMNS} FROM ${KEYS_WITH_ACCOUNT}
   WHERE k.account_id = $1 AND ($2::timestamptz IS NULL OR (k.created_at, k.id) > ($2::timestamptz, $3::text))
   ORDER BY k.created_at, k.id LIMIT $4`,
);
const UPDATE = statement(
  "account_update",
  `UPDATE accounts SET
     name = CASE WHEN $1 THEN $2::text ELSE name END,
     plan = CASE WHEN $3 THEN $4::text ELSE plan END,
     monthly_allowance = CASE WHEN $5 THEN $6::bigint ELSE monthly_allowance END,
     metadata = CASE WHEN $7 THEN $8::text ELSE metadata END,
     alerts = CASE WHEN $9 THEN $10::text ELSE alerts END
   WHERE id = $11 RETURNING id`,
);
const GRANT = statement(
  "account_grant",
  `UPDATE accounts SET
     granted_credits = CASE WHEN granted_period = $1 THEN granted_credits + $2::bigint ELSE $2::bigint END,
     granted_period = $1
   WHERE id = $3
     AND CASE WHEN granted_period = $1 THEN granted_credits + $2::bigint ELSE $2::bigint END <= $4
   RETURNING id`,
);

export function createAccountStore(pool: Pool): AccountStore {
  /** Runs a change to an account (one statement returning its id when it matched) with its audit entry. */
  async function change(stmt: Statement, values: Values, audit: NewAuditEntry | undefined): Promise<boolean> {
    return (await audited(pool, audit, async (db) => (await run(db, stmt, values)).length)) === 1;
  }

  return {
    async createAccount(account, audit) {
      await change(INSERT, accountInsertValues(account), audit);
    },
    async getAccount(id) {
      const [row] = await run<AccountRow>(pool, BY_ID, [id]);
      return row ? toAccountRecord(row) : null;
    },
    async listAccounts(page) {
      const rows = await run<AccountRow>(pool, PAGE, [
        page.after?.createdAt ?? null,
        page.after?.id ?? null,
        page.limit,
      ]);
      return rows.map(toAccountRecord);
    },
    async listAccountKeys(accountId, page) {
      const rows = await run<KeyRow>(pool, KEYS, [
        accountId,
        page?.after?.createdAt ?? null,
        page?.after?.id ?? null,
        page?.limit ?? null,
      ]);
      return rows.map(toKeyRecord);
    },
    updateAccount: (id, fields, audit) => change(UPDATE, [...accountChangeValues(fields), id], audit),
    grantAccountCredits: (id, period, credits, audit) =>
      change(GRANT, [period, credits, id, MAX_GRANTED_CREDITS], audit),
  };
}
