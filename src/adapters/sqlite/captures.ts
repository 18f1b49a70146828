/**
 * CaptureStore on SQLite. Boundary: the `captures` and `captured_requests` tables. A creation
 * counts and inserts, and a caught request is inserted with the oldest past the limit dropped, in
 * one IMMEDIATE transaction each, so processes sharing the file never exceed the limits.
 */
import type { CaptureStore } from "../../ports/capture-store.ts";
import {
  CAPTURE_COLUMNS,
  CAPTURED_REQUEST_COLUMNS,
  type CapturedRequestRow,
  type CaptureRow,
  toCapture,
  toCapturedRequest,
} from "../capture-rows.ts";
import type { Db } from "./db.ts";

export function createCaptureStore(db: Db): CaptureStore {
  const liveCount = db.statement<{ n: number }>(
    "SELECT count(*) AS n FROM captures WHERE account_id = ? AND expires_at > ?",
  );
  const insert = db.statement(
    "INSERT INTO captures (id, account_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
  );
  const list = db.statement<CaptureRow>(
    `SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.account_id = ? AND c.expires_at > ?
     ORDER BY c.created_at DESC, c.id DESC`,
  );
  const find = db.statement<CaptureRow>(
    `SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.account_id = ? AND c.id = ? AND c.expires_at > ?`,
  );
  const byToken = db.statement<CaptureRow>(
    `SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.token_hash = ? AND c.expires_at > ?`,
  );
  const remove = db.statement("DELETE FROM captures WHERE account_id = ? AND id = ?");
  const exists = db.statement<{ id: string }>("SELECT id FROM captures WHERE id = ?");
  const insertRequest = db.statement(
    `INSERT INTO captured_requests (id, capture_id, received_at, method, head, body)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const dropOldest = db.statement(
    `DELETE FROM captured_requests WHERE capture_id = ?1 AND seq NOT IN (
       SELECT seq FROM captured_requests WHERE capture_id = ?1 ORDER BY seq DESC LIMIT ?2)`,
  );
  const page = db.statement<CapturedRequestRow>(
    `SELECT ${CAPTURED_REQUEST_COLUMNS} FROM captured_requests
     WHERE capture_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
  );
  const purge = db.statement("DELETE FROM captures WHERE expires_at <= ?");

  return {
    async createCapture(capture, maxLive, now) {
      return db.transaction(() => {
        if ((liveCount.get(capture.accountId, now)?.n ?? 0) >= maxLive) return false;
        insert.run(capture.id, capture.accountId, capture.tokenHash, capture.createdAt, capture.expiresAt);
        return true;
      });
    },
    async listCaptures(accountId, now) {
      return list.all(accountId, now).map(toCapture);
    },
    async findCapture(accountId, id, now) {
      const row = find.get(accountId, id, now);
      return row === undefined ? null : toCapture(row);
    },
    async findCaptureByToken(tokenHash, now) {
      const row = byToken.get(tokenHash, now);
      return row === undefined ? null : toCapture(row);
    },
    async deleteCapture(accountId, id) {
      // Its requests go with it (ON DELETE CASCADE).
      return remove.run(accountId, id) === 1;
    },
    async addCapturedRequest(captureId, request, keep) {
      return db.transaction(() => {
        if (exists.get(captureId) === undefined) return false;
        insertRequest.run(
          request.id,
          captureId,
          request.receivedAt,
          request.method,
          request.head,
          request.body,
        );
        dropOldest.run(captureId, keep);
        return true;
      });
    },
    async listCapturedRequests(captureId, limit, before) {
      // seq never reaches 2^63 - 1: "before nothing" is every row.
      return page.all(captureId, before ?? Number.MAX_SAFE_INTEGER, limit).map(toCapturedRequest);
    },
    async purgeCaptures(now) {
      return purge.run(now);
    },
  };
}
