/**
 * Rows of the tables both SQL stores share (same names, see their migrations) turned into the
 * port's records, and the usage report's paging, written once for SQLite and PostgreSQL.
 * Timestamps arrive as ISO text from SQLite and as Date from PostgreSQL.
 */
import { InvalidCursorError } from "../ports/errors.ts";
import type {
  AccountAlerts,
  AccountChange,
  AccountRecord,
  AdminKeyRecord,
  ApiKeyRecord,
  AuditEntry,
  AuditPage,
  CallStatus,
  FoundKey,
  GrantRecord,
  KeyChange,
  NewAccount,
  NewApiKey,
  NewAuditEntry,
  NewGrant,
  StoredAnswer,
  UsageCall,
  UsageReport,
} from "../ports/store.ts";

export type Timestamp = string | Date;

export function iso(at: Timestamp): string {
  return typeof at === "string" ? at : at.toISOString();
}

/** Joins the account `ac` of the key `k`. */
export const JOIN_ACCOUNT = "JOIN accounts ac ON ac.id = k.account_id";

/**
 * A key's columns with its account's plan and allowance, read in the same statement (one
 * join, no second round trip on the call path): select them `FROM ${KEYS_WITH_ACCOUNT}`.
 */
export const KEY_COLUMNS =
  "k.id, k.account_id, ac.name AS account_name, k.name, ac.plan, k.display_prefix, ac.monthly_allowance, k.created_at, k.revoked_at, k.expires_at, k.metadata, k.previous_display_prefix, k.previous_secret_expires_at, k.tools, k.access";

export const KEYS_WITH_ACCOUNT = `api_keys k ${JOIN_ACCOUNT}`;

export interface KeyRow {
  id: string;
  account_id: string;
  account_name: string;
  name: string;
  plan: string;
  display_prefix: string;
  monthly_allowance: number | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  expires_at: Timestamp | null;
  metadata: string;
  previous_display_prefix: string | null;
  previous_secret_expires_at: Timestamp | null;
  /** JSON array of slugs; NULL for every tool. */
  tools: string | null;
  access: string;
}

export function toKeyRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    name: row.name,
    plan: row.plan,
    displayPrefix: row.display_prefix,
    monthlyAllowance: row.monthly_allowance,
    createdAt: iso(row.created_at),
    revokedAt: row.revoked_at === null ? null : iso(row.revoked_at),
    expiresAt: row.expires_at === null ? null : iso(row.expires_at),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    previousDisplayPrefix: row.previous_display_prefix,
    previousSecretExpiresAt:
      row.previous_secret_expires_at === null ? null : iso(row.previous_secret_expires_at),
    tools: row.tools === null ? null : (JSON.parse(row.tools) as string[]),
    access: row.access === "read" ? "read" : "full",
  };
}

/**
 * A key's row found by a hash, with `matched_current`: whether the hash is the key's secret (else
 * it is the one its last rotation replaced).
 */
export type FoundKeyRow = KeyRow & { matched_current: number | boolean };

export function toFoundKey(row: FoundKeyRow): FoundKey {
  return { ...toKeyRecord(row), matched: row.matched_current ? "current" : "previous" };
}

/** The answer an `idempotency_keys` row holds; null while its call runs (either column NULL). */
export function storedAnswer(
  status: number | null | undefined,
  body: string | null | undefined,
): StoredAnswer | null {
  return status == null || body == null ? null : { status, body };
}

/** The parameters of a key's INSERT on either store, in the column order both statements name. */
export function keyInsertValues(key: NewApiKey): (string | number | null)[] {
  return [
    key.id,
    key.accountId,
    key.name,
    key.secretHash,
    key.displayPrefix,
    key.createdAt,
    key.expiresAt,
    JSON.stringify(key.metadata),
    key.tools === null ? null : JSON.stringify(key.tools),
    key.access,
  ];
}

/** The one-key account a new key makes (its name is the key's), as a new account. */
export function oneKeyAccount(key: NewApiKey): NewAccount | null {
  if (!key.newAccount) return null;
  return {
    id: key.accountId,
    name: key.name,
    plan: key.newAccount.plan,
    monthlyAllowance: key.newAccount.monthlyAllowance,
    metadata: {},
    createdAt: key.createdAt,
  };
}

/** The parameters of an account's INSERT on either store, in the column order both statements name. */
export function accountInsertValues(account: NewAccount): (string | number | null)[] {
  return [
    account.id,
    account.name,
    account.plan,
    account.monthlyAllowance,
    JSON.stringify(account.metadata),
    account.createdAt,
  ];
}

/** An account's columns with its count of keys: select them `FROM accounts a`. */
export const ACCOUNT_COLUMNS =
  "a.id, a.name, a.plan, a.monthly_allowance, a.metadata, a.created_at, a.alerts, (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id) AS key_count";

export interface AccountRow {
  id: string;
  name: string;
  plan: string;
  monthly_allowance: number | null;
  metadata: string;
  created_at: Timestamp;
  alerts: string | null;
  key_count: number | string;
}

export function toAccountRecord(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    monthlyAllowance: row.monthly_allowance,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    createdAt: iso(row.created_at),
    keyCount: Number(row.key_count),
    alerts: row.alerts === null ? null : (JSON.parse(row.alerts) as AccountAlerts),
  };
}

/** As keyChangeValues, for an account's update statement. */
export function accountChangeValues(change: AccountChange): (string | number | boolean | null)[] {
  const member = (present: boolean, value: string | number | null) => [present, present ? value : null];
  return [
    ...member(change.name !== undefined, change.name ?? null),
    ...member(change.plan !== undefined, change.plan ?? null),
    ...member(change.monthlyAllowance !== undefined, change.monthlyAllowance ?? null),
    ...member(change.metadata !== undefined, change.metadata ? JSON.stringify(change.metadata) : null),
    ...member(change.alerts !== undefined, change.alerts ? JSON.stringify(change.alerts) : null),
  ];
}

/**
 * The parameters of the update statement both stores share in shape: for each member a flag
 * saying whether it changes, then its new value (`SET name = CASE WHEN flag THEN value ELSE name
 * END`), so one prepared statement serves every combination of members.
 */
export function keyChangeValues(change: KeyChange): (string | number | boolean | null)[] {
  const member = (present: boolean, value: string | number | null) => [present, present ? value : null];
  return [
    ...member(change.name !== undefined, change.name ?? null),
    ...member(change.metadata !== undefined, change.metadata ? JSON.stringify(change.metadata) : null),
    ...member(change.expiresAt !== undefined, change.expiresAt ?? null),
    ...member(change.tools !== undefined, change.tools ? JSON.stringify(change.tools) : null),
    ...member(change.access !== undefined, change.access ?? null),
  ];
}

export const ADMIN_KEY_COLUMNS = "id, name, display_prefix, created_at, revoked_at";

export interface AdminKeyRow {
  id: string;
  name: string;
  display_prefix: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export function toAdminKeyRecord(row: AdminKeyRow): AdminKeyRecord {
  return {
    id: row.id,
    name: row.name,
    displayPrefix: row.display_prefix,
    createdAt: iso(row.created_at),
    revokedAt: row.revoked_at === null ? null : iso(row.revoked_at),
  };
}

/** The parameters of both stores' audit insert, in column order (`at` ... `details`). */
export function auditValues(entry: NewAuditEntry): (string | null)[] {
  return [
    entry.at,
    entry.actor.type,
    entry.actor.id,
    entry.action,
    entry.target,
    entry.requestId,
    JSON.stringify(entry.details),
  ];
}

export const AUDIT_COLUMNS = "seq, at, actor_type, actor_id, action, target, request_id, details";

export interface AuditRow {
  seq: string | number;
  at: Timestamp;
  actor_type: "admin_key" | "cli" | "member";
  actor_id: string;
  action: string;
  target: string;
  request_id: string | null;
  details: string;
}

/** A page of the audit log from rows fetched newest first, one more than `limit` when another page follows. */
export function toAuditPage(rows: readonly AuditRow[], limit: number): AuditPage {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map(
      (row): AuditEntry => ({
        seq: String(row.seq),
        at: iso(row.at),
        actor: { type: row.actor_type, id: row.actor_id },
        action: row.action,
        target: row.target,
        requestId: row.request_id,
        details: JSON.parse(row.details) as Record<string, unknown>,
      }),
    ),
    nextCursor: rows.length > limit && last ? String(last.seq) : null,
  };
}

/** A row of `usage_calls` as the recent-calls page selects it (refunded calls already at 0 credits). */
export interface CallRow {
  seq: string | number;
  call_id: string;
  request_id: string;
  key_id: string;
  tool: string;
  status: CallStatus;
  http_status: number | null;
  credits: number;
  at: Timestamp;
}

const CURSOR = /^\d{1,19}$/;
/** The largest `seq` either store can hold (a signed 64-bit integer). */
const MAX_SEQ = 9_223_372_036_854_775_807n;

/** The `seq` a cursor stands for; throws InvalidCursorError for anything a store did not issue. */
export function parseCursor(cursor: string | null): string | null {
  if (cursor !== null && (!CURSOR.test(cursor) || BigInt(cursor) > MAX_SEQ))
    throw new InvalidCursorError("invalid cursor");
  return cursor;
}

export interface UsageRows {
  readonly byTool: readonly { tool: string; calls: number; credits: number }[];
  readonly used: number;
  /** Newest first, one more than `limit` when another page follows. */
  readonly calls: readonly CallRow[];
}

/** The report of one snapshot's rows; `limit` is the page size the calls were fetched for (+1). */
export function toUsageReport(rows: UsageRows, limit: number): UsageReport {
  const page = rows.calls.slice(0, limit);
  const last = page.at(-1);
  return {
    creditsUsed: rows.used,
    calls: rows.byTool.reduce((sum, t) => sum + t.calls, 0),
    byTool: rows.byTool.map((t) => ({ tool: t.tool, calls: t.calls, credits: t.credits })),
    recent: page.map(
      (row): UsageCall => ({
        callId: row.call_id,
        requestId: row.request_id,
        keyId: row.key_id,
        tool: row.tool,
        status: row.status,
        httpStatus: row.http_status,
        credits: row.credits,
        at: iso(row.at),
      }),
    ),
    nextCursor: rows.calls.length > limit && last ? String(last.seq) : null,
  };
}

/** The page size a query asks for, as a whole number of at least 0. */
export function pageSize(limit: number): number {
  return Math.max(0, Math.floor(limit));
}

/** A grant's columns: select them `FROM credit_grants g`. */
export const GRANT_COLUMNS =
  "g.id, g.account_id, g.credits, g.remaining, g.expires_at, g.category, g.reference, g.created_at";

/** The order calls spend grants in: earliest expiry, never-expiring last, then oldest. */
export const GRANT_SPEND_ORDER = "g.expires_at IS NULL, g.expires_at, g.created_at, g.id";

export interface GrantRow {
  id: string;
  account_id: string;
  credits: number;
  remaining: number;
  expires_at: Timestamp | null;
  category: string;
  reference: string | null;
  created_at: Timestamp;
}

export function toGrantRecord(row: GrantRow): GrantRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    credits: row.credits,
    remaining: row.remaining,
    expiresAt: row.expires_at === null ? null : iso(row.expires_at),
    category: row.category === "paid" ? "paid" : "promotional",
    reference: row.reference,
    createdAt: iso(row.created_at),
  };
}

/** A grant just made, as the store would read it back. */
export function newGrantRecord(accountId: string, grant: NewGrant): GrantRecord {
  return { ...grant, accountId, remaining: grant.credits };
}

/** The parameters of a grant's INSERT on either store, in the column order both statements name. */
export function grantInsertValues(accountId: string, grant: NewGrant): (string | number | null)[] {
  return [
    grant.id,
    accountId,
    grant.credits,
    grant.expiresAt,
    grant.category,
    grant.reference,
    grant.createdAt,
  ];
}
