/**
 * Rows of the `captures` and `captured_requests` tables both SQL stores share (same names, see
 * their migrations 0009), turned into the capture port's records, written once for SQLite and
 * PostgreSQL.
 */
import type { CapturedRequestRecord, CaptureRecord } from "../ports/capture-store.ts";
import { iso, type Timestamp } from "./sql-rows.ts";

/** A capture `c` with how many requests it holds. */
export const CAPTURE_COLUMNS = `c.id, c.account_id, c.created_at, c.expires_at,
  (SELECT count(*) FROM captured_requests r WHERE r.capture_id = c.id) AS request_count`;

export interface CaptureRow {
  id: string;
  account_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** PostgreSQL's count is a bigint, which pg gives as text. */
  request_count: number | string;
}

export function toCapture(row: CaptureRow): CaptureRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    requestCount: Number(row.request_count),
  };
}

export const CAPTURED_REQUEST_COLUMNS = "seq, id, received_at, method, head, body";

export interface CapturedRequestRow {
  seq: number | bigint | string;
  id: string;
  received_at: Timestamp;
  method: string;
  head: string;
  body: Uint8Array;
}

export function toCapturedRequest(row: CapturedRequestRow): CapturedRequestRecord {
  return {
    id: row.id,
    sequence: Number(row.seq),
    receivedAt: iso(row.received_at),
    method: row.method,
    head: row.head,
    body: Buffer.isBuffer(row.body) ? row.body : Buffer.from(row.body),
  };
}
