/**
 * An account as the admin API and `toolrun accounts ... --json` show it: its terms, this month's
 * balance (the figures `GET /v1/me/credits` shows each of its keys) and how many keys it has.
 */
import type { AccountAlerts, AccountRecord, Store } from "../../ports/store.ts";
import { decodeCursor, encodeCursor, invalidCursor } from "../contract/cursor.ts";
import { creditsRemaining, grantsLeft, monthlyAllowance, periodOf, planOf } from "../kernel/credits.ts";
import type { ServiceSettings } from "../kernel/settings.ts";
import { type GrantView, grantView } from "./grants.ts";
import { storableTime } from "./input.ts";
import { type KeyListView, keyView } from "./key-view.ts";

export interface AccountView {
  id: string;
  name: string;
  plan: string;
  /** The account's own allowance, or null when it uses its plan's. */
  own_monthly_allowance: number | null;
  /** The month's allowance, its own or its plan's, shared by its keys (its grants come on top). */
  monthly_allowance: number;
  /** Credits of the allowance its keys hold this month (pending and charged calls). */
  credits_used: number;
  /** What is left of the allowance this month; null when metering is off. */
  monthly_remaining: number | null;
  /** What its keys can spend now, the allowance's rest and its grants; null when metering is off. */
  credits_remaining: number | null;
  /** Its live grants with credits left, in spend order. */
  grants: GrantView[];
  metadata: Record<string, string>;
  /** Its own thresholds of `credits.threshold`; null: the configuration's. */
  alerts: AccountAlerts | null;
  key_count: number;
  created_at: string;
}

interface ViewDeps {
  readonly store: Pick<Store, "creditsUsed" | "listGrants">;
  readonly settings: ServiceSettings;
  readonly now: () => Date;
}

export async function accountView(deps: ViewDeps, record: AccountRecord): Promise<AccountView> {
  const now = deps.now();
  const period = periodOf(now);
  const allowance = monthlyAllowance(record, planOf(record, deps.settings));
  const [used, grants] = await Promise.all([
    deps.store.creditsUsed(record.id, period.id),
    deps.store.listGrants(record.id, now.toISOString()),
  ]);
  const { metering } = deps.settings;
  return {
    id: record.id,
    name: record.name,
    plan: record.plan,
    own_monthly_allowance: record.monthlyAllowance,
    monthly_allowance: allowance,
    credits_used: used,
    monthly_remaining: metering ? creditsRemaining(allowance, used, 0) : null,
    credits_remaining: metering ? creditsRemaining(allowance, used, grantsLeft(grants)) : null,
    grants: grants.map(grantView),
    metadata: { ...record.metadata },
    alerts: record.alerts,
    key_count: record.keyCount,
    created_at: record.createdAt,
  };
}

export interface AccountListView {
  accounts: AccountView[];
  next_cursor: string | null;
}

const ACCOUNTS_CURSOR = "a1";
const KEYS_CURSOR = "ak1";
/** A creation time as the stores give it (a UTC ISO string), then an id. */
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\|[A-Za-z0-9_.-]{1,110}$/;

/** The page position a cursor holds; 400 for anything this service did not issue. */
function positionOf(kind: string, cursor: string | null): { createdAt: string; id: string } | null {
  if (cursor === null) return null;
  const position = decodeCursor(kind, cursor, POSITION);
  const bar = position.indexOf("|");
  const createdAt = position.slice(0, bar);
  if (storableTime(Date.parse(createdAt)) !== createdAt) throw invalidCursor();
  return { createdAt, id: position.slice(bar + 1) };
}

function nextCursor(
  kind: string,
  rows: number,
  limit: number,
  last: { createdAt: string; id: string } | undefined,
) {
  return rows > limit && last ? encodeCursor(kind, `${last.createdAt}|${last.id}`) : null;
}

/** One page of accounts, oldest first; the cursor holds the last account's creation time and id. */
export async function listAccountViews(
  deps: ViewDeps & { readonly store: Pick<Store, "listAccounts" | "creditsUsed"> },
  page: { limit: number; cursor: string | null },
): Promise<AccountListView> {
  const after = positionOf(ACCOUNTS_CURSOR, page.cursor);
  // One more than asked tells whether another page follows without counting.
  const rows = await deps.store.listAccounts({ limit: page.limit + 1, after });
  const accounts = rows.slice(0, page.limit);
  return {
    accounts: await Promise.all(accounts.map((a) => accountView(deps, a))),
    next_cursor: nextCursor(ACCOUNTS_CURSOR, rows.length, page.limit, accounts.at(-1)),
  };
}

/** One page of an account's keys, oldest first. */
export async function listAccountKeyViews(
  deps: ViewDeps & { readonly store: Pick<Store, "listAccountKeys"> },
  accountId: string,
  page: { limit: number; cursor: string | null },
): Promise<KeyListView> {
  const after = positionOf(KEYS_CURSOR, page.cursor);
  const rows = await deps.store.listAccountKeys(accountId, { limit: page.limit + 1, after });
  const keys = rows.slice(0, page.limit);
  const now = deps.now();
  return {
    keys: keys.map((k) => keyView(k, deps.settings, now)),
    next_cursor: nextCursor(KEYS_CURSOR, rows.length, page.limit, keys.at(-1)),
  };
}
