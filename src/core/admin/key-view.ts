/**
 * A customer key as the admin API and `toolrun keys ... --json` show it: never its secret (except
 * `key`, once, when it is made or rotated), with its allowance as a call this month is priced.
 */
import type { ApiKeyRecord, KeyAccess, KeyStore } from "../../ports/store.ts";
import { hasExpired, previousSecretWorks } from "../call/keys.ts";
import { decodeCursor, encodeCursor, invalidCursor } from "../contract/cursor.ts";
import { monthlyAllowance, planOf } from "../kernel/credits.ts";
import type { ServiceSettings } from "../kernel/settings.ts";
import { storableTime } from "./input.ts";

export interface KeyView {
  id: string;
  /** The account the key spends for; its plan, allowance and grants are the account's. */
  account_id: string;
  /** The full key: only in the answer that made or rotated it. */
  key?: string;
  prefix: string;
  name: string;
  plan: string;
  status: "active" | "expired" | "revoked";
  /** The key's own allowance, or null when it uses its plan's. */
  own_monthly_allowance: number | null;
  /** The account's allowance this month, its own or its plan's (its grants come on top). */
  monthly_allowance: number;
  metadata: Record<string, string>;
  expires_at: string | null;
  created_at: string;
  revoked_at: string | null;
  /** The non-secret beginning of the secret a rotation replaced, while it still works; else null. */
  previous_prefix: string | null;
  /** Until when that replaced secret works (the rotation's grace); null when none works now. */
  previous_secret_expires_at: string | null;
  /** The only tools the key may use; null for every tool. */
  tools: string[] | null;
  access: KeyAccess;
}

export function keyView(record: ApiKeyRecord, settings: ServiceSettings, now: Date, key?: string): KeyView {
  const allowance = monthlyAllowance(record, planOf(record, settings));
  const previous = previousSecretWorks(record, now) && !hasExpired(record, now);
  return {
    id: record.id,
    account_id: record.accountId,
    ...(key === undefined ? {} : { key }),
    prefix: record.displayPrefix,
    name: record.name,
    plan: record.plan,
    status: record.revokedAt !== null ? "revoked" : hasExpired(record, now) ? "expired" : "active",
    own_monthly_allowance: record.monthlyAllowance,
    monthly_allowance: allowance,
    metadata: { ...record.metadata },
    expires_at: record.expiresAt,
    created_at: record.createdAt,
    revoked_at: record.revokedAt,
    previous_prefix: previous ? record.previousDisplayPrefix : null,
    previous_secret_expires_at: previous ? record.previousSecretExpiresAt : null,
    tools: record.tools === null ? null : [...record.tools],
    access: record.access,
  };
}

export interface KeyListView {
  keys: KeyView[];
  next_cursor: string | null;
}

const KEYS_CURSOR = "k1";
/** A creation time as the stores give it (a UTC ISO string), then a key id. */
const KEYS_POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\|[A-Za-z0-9_-]{1,100}$/;

/** One page of keys, oldest first; the cursor holds the last key's creation time and id. */
export async function listKeyViews(
  deps: {
    readonly store: Pick<KeyStore, "listKeys">;
    readonly settings: ServiceSettings;
    readonly now: () => Date;
  },
  page: { limit: number; cursor: string | null },
): Promise<KeyListView> {
  let after: { createdAt: string; id: string } | null = null;
  if (page.cursor !== null) {
    const position = decodeCursor(KEYS_CURSOR, page.cursor, KEYS_POSITION);
    const bar = position.indexOf("|");
    const createdAt = position.slice(0, bar);
    // A time the stores could have given: a real one, within what they hold, written as they write it.
    if (storableTime(Date.parse(createdAt)) !== createdAt) throw invalidCursor();
    after = { createdAt, id: position.slice(bar + 1) };
  }
  // One more than asked tells whether another page follows without counting.
  const rows = await deps.store.listKeys({ limit: page.limit + 1, after });
  const keys = rows.slice(0, page.limit);
  const last = keys.at(-1);
  const now = deps.now();
  return {
    keys: keys.map((k) => keyView(k, deps.settings, now)),
    next_cursor:
      rows.length > page.limit && last ? encodeCursor(KEYS_CURSOR, `${last.createdAt}|${last.id}`) : null,
  };
}
