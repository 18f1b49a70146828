/**
 * Classifies errors raised by `node:sqlite` so the core sees port errors instead of driver
 * internals. The file locked by another process past the busy timeout, a full or failing disk, a
 * file that cannot be opened or written: the database cannot serve anyone right now, so these
 * become BackendUnavailableError (503 `backend_unavailable`, retry shortly). Anything else
 * (constraint violations, bugs) passes through unchanged so it is not mistaken for an outage.
 */
import { BackendUnavailableError } from "../../ports/errors.ts";

/** Primary result codes (https://sqlite.org/rescode.html) that are about the database, not a statement. */
const UNAVAILABLE_CODES = new Set([
  5, // SQLITE_BUSY
  6, // SQLITE_LOCKED
  7, // SQLITE_NOMEM
  8, // SQLITE_READONLY
  10, // SQLITE_IOERR
  13, // SQLITE_FULL
  14, // SQLITE_CANTOPEN
]);

/** True when `error` says the database file cannot be used now, whatever the statement. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("errcode" in error)) return false;
  const { errcode } = error;
  // Extended codes (SQLITE_BUSY_SNAPSHOT = 517, ...) carry the primary code in their low byte.
  return typeof errcode === "number" && UNAVAILABLE_CODES.has(errcode & 0xff);
}

export function translateSqliteError(error: unknown): unknown {
  return isDatabaseUnavailable(error) ? new BackendUnavailableError("database", error) : error;
}
