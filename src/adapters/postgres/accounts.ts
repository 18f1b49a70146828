/**
 * AccountStore on PostgreSQL: the accounts that own the plan, the allowance, the grants and the
 * ledger, each read with its count of keys. Boundary: the `accounts` table, the making and reading
 * of `credit_grants` (the ledger's functions spend them), and reading `api_keys` by account; its trigger announces every change on the key cache's channel (key-changes.ts), so
 * an account's change reaches the keys every instance remembers like a key's.
 */
import type { Pool } from "pg";
import type { AccountStore, NewAuditEntry } from "../../ports/store.ts";
import {
  ACCOUNT_COLUMNS,
  type AccountRow,
  accountChangeValues,
  accountInsertValues,
  GRANT_COLUMNS,
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
// Nothing when the account is missing, or already has a grant of the reference: a second instance
// inserting the same reference at once waits for the first's commit, then inserts nothing.
const INSERT_GRANT = statement(
  "grant_insert",
  `INSERT INTO credit_grants (id, account_id, credits, remaining, expires_at, category, reference, created_at)
   SELECT $1, $2, $3::bigint, $3::bigint, $4::timestamptz, $5, $6, $7::timestamptz
   WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $2)
   ON CONFLICT (account_id, reference) WHERE reference IS NOT NULL DO NOTHING
   RETURNING id`,
);
const GRANT_BY_REFERENCE = statement(
  "grant_by_reference",
  `SELECT ${GRANT_COLUMNS} FROM credit_grants g WHERE g.account_id = $1 AND g.reference = $2`,
);
const LIVE_GRANTS = statement(
  "grants_live",
  `SELECT ${GRANT_COLUMNS} FROM credit_grants g
   WHERE g.account_id = $1 AND g.remaining > 0 AND (g.expires_at IS NULL OR g.expires_at > $2::timestamptz)
   ORDER BY g.expires_at NULLS LAST, g.created_at, g.id`,
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
    async addGrant(accountId, grant, audit, events) {
      const inserted = await audited(
        pool,
        audit,
        async (db) => (await run(db, INSERT_GRANT, grantInsertValues(accountId, grant))).length,
        events,
      );
      if (inserted === 1) return { grant: newGrantRecord(accountId, grant), created: true };
      if (grant.reference === null) return null;
      const [row] = await run<GrantRow>(pool, GRANT_BY_REFERENCE, [accountId, grant.reference]);
      return row ? { grant: toGrantRecord(row), created: false } : null;
    },
    async listGrants(accountId, at) {
      return (await run<GrantRow>(pool, LIVE_GRANTS, [accountId, at])).map(toGrantRecord);
    },
  };
}
