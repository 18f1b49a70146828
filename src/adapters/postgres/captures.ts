/**
 * CaptureStore on PostgreSQL, for several instances on one database. Boundary: the `captures` and
 * `captured_requests` tables. A creation takes a transaction-scoped advisory lock on its account
 * before counting, and a caught request locks its capture's row before inserting and dropping the
 * oldest, so the limits hold whatever arrives at once on any instance.
 */
import type { Pool } from "pg";
import type { CaptureStore } from "../../ports/capture-store.ts";
import {
  CAPTURE_COLUMNS,
  CAPTURED_REQUEST_COLUMNS,
  type CapturedRequestRow,
  type CaptureRow,
  toCapture,
  toCapturedRequest,
} from "../capture-rows.ts";
import { run, statement, transaction } from "./db.ts";

const LOCK_ACCOUNT = statement(
  "capture_lock_account",
  "SELECT pg_advisory_xact_lock(hashtextextended('toolrun_captures:' || $1, 0))",
);
const LIVE_COUNT = statement(
  "capture_live_count",
  "SELECT count(*)::int AS n FROM captures WHERE account_id = $1 AND expires_at > $2",
);
const INSERT = statement(
  "capture_insert",
  "INSERT INTO captures (id, account_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
);
const LIST = statement(
  "capture_list",
  `SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.account_id = $1 AND c.expires_at > $2
   ORDER BY c.created_at DESC, c.id DESC`,
);
const FIND = statement(
  "capture_find",
  `SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.account_id = $1 AND c.id = $2 AND c.expires_at > $3`,
);
const BY_TOKEN = statement(
  "capture_by_token",
  `SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.token_hash = $1 AND c.expires_at > $2`,
);
const DELETE = statement(
  "capture_delete",
  "DELETE FROM captures WHERE account_id = $1 AND id = $2 RETURNING id",
);
const LOCK_CAPTURE = statement("capture_lock", "SELECT id FROM captures WHERE id = $1 FOR UPDATE");
const INSERT_REQUEST = statement(
  "captured_request_insert",
  `INSERT INTO captured_requests (id, capture_id, received_at, method, head, body)
   VALUES ($1, $2, $3, $4, $5, $6)`,
);
const DROP_OLDEST = statement(
  "captured_request_drop_oldest",
  `DELETE FROM captured_requests WHERE capture_id = $1 AND seq NOT IN (
     SELECT seq FROM captured_requests WHERE capture_id = $1 ORDER BY seq DESC LIMIT $2)`,
);
const PAGE = statement(
  "captured_request_page",
  `SELECT ${CAPTURED_REQUEST_COLUMNS} FROM captured_requests
   WHERE capture_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
);
const PURGE = statement("capture_purge", "DELETE FROM captures WHERE expires_at <= $1 RETURNING 1");

export function createCaptureStore(pool: Pool): CaptureStore {
  return {
    async createCapture(capture, maxLive, now) {
      return transaction(pool, async (client) => {
        await run(client, LOCK_ACCOUNT, [capture.accountId]);
        const live = (await run<{ n: number }>(client, LIVE_COUNT, [capture.accountId, now]))[0]?.n ?? 0;
        if (live >= maxLive) return false;
        await run(client, INSERT, [
          capture.id,
          capture.accountId,
          capture.tokenHash,
          capture.createdAt,
          capture.expiresAt,
        ]);
        return true;
      });
    },
    async listCaptures(accountId, now) {
      return (await run<CaptureRow>(pool, LIST, [accountId, now])).map(toCapture);
    },
    async findCapture(accountId, id, now) {
      const row = (await run<CaptureRow>(pool, FIND, [accountId, id, now]))[0];
      return row === undefined ? null : toCapture(row);
    },
    async findCaptureByToken(tokenHash, now) {
      const row = (await run<CaptureRow>(pool, BY_TOKEN, [tokenHash, now]))[0];
      return row === undefined ? null : toCapture(row);
    },
    async deleteCapture(accountId, id) {
      // Its requests go with it (ON DELETE CASCADE).
      return (await run(pool, DELETE, [accountId, id])).length === 1;
    },
    async addCapturedRequest(captureId, request, keep) {
      return transaction(pool, async (client) => {
        if ((await run(client, LOCK_CAPTURE, [captureId])).length === 0) return false;
        await run(client, INSERT_REQUEST, [
          request.id,
          captureId,
          request.receivedAt,
          request.method,
          request.head,
          request.body,
        ]);
        await run(client, DROP_OLDEST, [captureId, keep]);
        return true;
      });
    },
    async listCapturedRequests(captureId, limit, before) {
      const rows = await run<CapturedRequestRow>(pool, PAGE, [captureId, before, limit]);
      return rows.map(toCapturedRequest);
    },
    async purgeCaptures(now) {
      return (await run(pool, PURGE, [now])).length;
    },
  };
}
