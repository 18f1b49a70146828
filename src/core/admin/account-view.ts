/**
 * An account as the admin API and `toolrun accounts ... --json` show it: its terms, this month's
 * balance (the figures `GET /v1/me/credits` shows each of its keys) and how many keys it has.
 */
import type { AccountAlerts, AccountRecord, Store } from "../../ports/store.ts";
import { decodeCursor, encodeCursor, invalidCursor } from "../contract/cursor.ts";
import { baseAllowance, grantedIn, periodOf, planOf } from "../kernel/credits.ts";
import type { ServiceSettings } from "../kernel/settings.ts";
import { storableTime } from "./input.ts";
import { type KeyListView, keyView } from "./key-view.ts";

export interface AccountView {
  id: string;
  name: string;
  plan: string;
  /** The account's own allowance, or null when it uses its plan's. */
  own_monthly_allowance: number | null;
  /** What its keys may spend this month together: its own or its plan's allowance plus this month's grants. */
  monthly_allowance: number;
  /** Credits granted for this month (already in `monthly_allowance`). */
  granted_credits: number;
  /** Credits its keys hold this month (pending and charged calls). */
  credits_used: number;
  /** What is left this month; null when metering is off. */
  credits_remaining: number | null;
  metadata: Record<string, string>;
  /** Its own thresholds of `credits.threshold`; null: the configuration's. */
  alerts: AccountAlerts | null;
  key_count: number;
  created_at: string;
}

interface ViewDeps {
  readonly store: Pick<Store, "creditsUsed">;
  readonly settings: ServiceSettings;
  readonly now: () => Date;
}

export async function accountView(deps: ViewDeps, record: AccountRecord): Promise<AccountView> {
  const period = periodOf(deps.now());
  const base = baseAllowance(record, planOf(record, deps.settings));
  const granted = grantedIn(record, period);
  const used = await deps.store.creditsUsed(record.id, period.id);
  return {
    id: record.id,
    name: record.name,
    plan: record.plan,
    own_monthly_allowance: record.monthlyAllowance,
    monthly_allowance: base + granted,
    granted_credits: granted,
    credits_used: used,
    credits_remaining: deps.settings.metering ? Math.max(0, base + granted - used) : null,
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
