/**
 * The call rows' origin columns and the calls listing and usage export, written once for SQLite
 * and PostgreSQL (same columns, see their migrations 0013): a row turned into a CallRecord, the
 * origin's parameters in the column order both stores' inserts name, and the cursors.
 */
import type { CallOrigin, CallOutcomeName, CallRecord, CallsQuery } from "../ports/call-log.ts";
import { InvalidCursorError } from "../ports/errors.ts";
import { iso, type Timestamp } from "./sql-rows.ts";

/** `credential, oauth_client_id, transport, client_name, client_version`: nulls when unknown. */
export function originValues(origin: CallOrigin | undefined) {
  return [
    origin?.credential ?? null,
    origin?.oauthClientId ?? null,
    origin?.transport ?? null,
    origin?.clientName ?? null,
    origin?.clientVersion ?? null,
  ] as const;
}

/** The columns a CallRecord is read from. */
export const CALL_COLUMNS = `seq, call_id, request_id, account_id, key_id, tool, status, http_status,
  CASE WHEN status = 'refunded' THEN 0 ELSE credits END AS credits, at, settled_at,
  credential, oauth_client_id, transport, client_name, client_version`;

export interface CallRecordRow {
  seq: string | number;
  call_id: string;
  request_id: string;
  account_id: string;
  key_id: string;
  tool: string;
  status: CallOutcomeName;
  http_status: number | null;
  credits: number | string;
  at: Timestamp;
  settled_at: Timestamp | null;
  credential: string | null;
  oauth_client_id: string | null;
  transport: "http" | "mcp" | null;
  client_name: string | null;
  client_version: string | null;
}

export function toCallRecord(row: CallRecordRow): CallRecord {
  return {
    callId: row.call_id,
    requestId: row.request_id,
    accountId: row.account_id,
    keyId: row.key_id,
    tool: row.tool,
    outcome: row.status,
    httpStatus: row.http_status,
    credits: Number(row.credits),
    at: iso(row.at),
    settledAt: row.settled_at === null ? null : iso(row.settled_at),
    origin:
      row.credential === null || row.transport === null
        ? null
        : {
            credential: row.credential,
            oauthClientId: row.oauth_client_id,
            transport: row.transport,
            clientName: row.client_name,
            clientVersion: row.client_version,
          },
  };
}

const NUMBER = /^\d{1,19}$/;
/** The largest number either store can hold (a signed 64-bit integer). */
const MAX = 9_223_372_036_854_775_807n;

function isNumber(text: string): boolean {
  return NUMBER.test(text) && BigInt(text) <= MAX;
}

/**
 * The decimal numbers a cursor of `parts` numbers joined by `.` stands for; null for none. Throws
 * InvalidCursorError for anything a store did not issue.
 */
export function cursorParts(cursor: string | null, parts: number): string[] | null {
  if (cursor === null) return null;
  const numbers = cursor.split(".");
  if (numbers.length !== parts || !numbers.every(isNumber)) throw new InvalidCursorError("invalid cursor");
  return numbers;
}

/** A page of `limit` from rows fetched for `limit + 1`, and the cursor the next page starts from. */
export function pageOf<R>(rows: readonly R[], limit: number, cursorOf: (row: R) => string) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/** A WHERE clause of the filters a query sets, with `param(n)` writing the n-th placeholder (from 1). */
export interface Filters {
  readonly conditions: string[];
  readonly values: (string | number)[];
  /** Which filters are set: names a prepared statement per combination. */
  readonly shape: string;
}

export function callFilters(
  query: Omit<CallsQuery, "limit" | "cursor">,
  timeColumn: "at" | "settled_at",
  param: (n: number) => string,
): Filters {
  const conditions: string[] = [];
  const values: (string | number)[] = [];
  let shape = "";
  const add = (letter: string, column: string, op: string, value: string | undefined) => {
    if (value === undefined) return;
    values.push(value);
    conditions.push(`${column} ${op} ${param(values.length)}`);
    shape += letter;
  };
  add("a", "account_id", "=", query.accountId);
  add("k", "key_id", "=", query.keyId);
  add("t", "tool", "=", query.tool);
  add("o", "status", "=", query.outcome);
  add("s", timeColumn, ">=", query.since);
  add("u", timeColumn, "<", query.until);
  return { conditions, values, shape };
}
