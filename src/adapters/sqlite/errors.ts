/**
 * Classifies errors raised by `node:sqlite` so the core sees port errors instead of driver
 * internals. The file locked by another process past the busy timeout, a full or failing disk, a
 * file that cannot be opened or written: the database cannot serve anyone right now, so these
 * become BackendUnavailableError (503 `backend_unavailable`, retry shortly). A missing table
 * becomes SchemaNotReadyError (`toolrun migrate` has not run). Anything else (constraint
 * violations, bugs) passes through unchanged so it is not mistaken for an outage.
 */
import { BackendUnavailableError, SchemaNotReadyError } from "../../ports/errors.ts";

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
  if (error instanceof BackendUnavailableError) return true;
  if (typeof error !== "object" || error === null || !("errcode" in error)) return false;
  const { errcode } = error;
  // Extended codes (SQLITE_BUSY_SNAPSHOT = 517, ...) carry the primary code in their low byte.
  return typeof errcode === "number" && UNAVAILABLE_CODES.has(errcode & 0xff);
}

/** The primary result code of `error`, or of the driver error a port error wraps. */
function primaryCode(error: unknown): number | undefined {
  const inner = error instanceof BackendUnavailableError ? error.cause : error;
  if (typeof inner !== "object" || inner === null || !("errcode" in inner)) return undefined;
  return typeof inner.errcode === "number" ? inner.errcode & 0xff : undefined;
}

/** True when another connection holds the lock `error` failed on (SQLITE_BUSY, SQLITE_LOCKED). */
export function isLocked(error: unknown): boolean {
  const code = primaryCode(error);
  return code === 5 || code === 6;
}

/** True when `error` says the database cannot be written (SQLITE_READONLY). */
export function isReadOnly(error: unknown): boolean {
  return primaryCode(error) === 8;
}

/** The error the port promises for `error`, or `error` itself when it is not an outage or missing schema. */
export function toPortError(error: unknown): unknown {
  if (error instanceof BackendUnavailableError || error instanceof SchemaNotReadyError) return error;
  if (isDatabaseUnavailable(error)) return new BackendUnavailableError("database", error);
  if (error instanceof Error && /no such table/.test(error.message)) {
    return new SchemaNotReadyError("The SQLite schema is missing; run `toolrun migrate`.", { cause: error });
  }
  return error;
}
