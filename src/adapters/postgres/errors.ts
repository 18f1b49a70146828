/**
 * Classifies errors raised by `pg` so the core sees port errors instead of driver internals.
 * Boundary: pure functions, no I/O. Connection-level failures become BackendUnavailableError
 * (the caller answers 503 and the pool heals by itself); a missing relation or ledger function becomes
 * SchemaNotReadyError (`toolrun migrate` has not run); anything else (constraint violations,
 * bugs) passes through unchanged so it is not mistaken for an outage.
 */
import { BackendUnavailableError, SchemaNotReadyError } from "../../ports/errors.ts";

/** Node socket codes that mean the server cannot be reached or dropped us. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs that mean the server is there but cannot serve us now: class 08 (connection
 * exception), shutdowns, start-up/recovery, too many connections.
 */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith("08") ||
    code === "57P01" || // admin_shutdown (also pg_terminate_backend)
    code === "57P02" || // crash_shutdown
    code === "57P03" || // cannot_connect_now (starting up, in recovery)
    code === "57014" || // query_canceled: statement_timeout (TOOLRUN_DB_TIMEOUT_MS) ran out
    code === "53300" // too_many_connections
  );
}

/** Messages pg and pg-pool use for failures that carry no code. */
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Query read timeout", // query_timeout: no answer within TOOLRUN_DB_TIMEOUT_MS
  "is not queryable",
  "Cannot use a pool after calling end on the pool",
];

function codeOf(err: unknown): string | undefined {
  if (typeof err === "object" && err !== null && "code" in err && typeof err.code === "string") {
    return err.code;
  }
  return undefined;
}

/** True when `err` means the database cannot be reached, rather than that a statement failed. */
export function isConnectionError(err: unknown): boolean {
  const code = codeOf(err);
  if (code !== undefined && (SOCKET_CODES.has(code) || isUnavailableSqlState(code))) return true;
  // Node's happy-eyeballs connect reports every address it tried in one AggregateError.
  if (err instanceof AggregateError && err.errors.some((inner) => isConnectionError(inner))) return true;
  if (err instanceof Error) {
    if (UNAVAILABLE_MESSAGES.some((m) => err.message.includes(m))) return true;
    if (err.cause !== undefined && err.cause !== err) return isConnectionError(err.cause);
  }
  return false;
}

/**
 * True when the statement failed because a table or function of ours does not exist yet. Only our
 * own `toolrun_*` functions count: undefined_function is also raised for a mistyped operator or
 * call, which is a bug, not a missing migration.
 */
export function isMissingSchema(err: unknown): boolean {
  const code = codeOf(err);
  if (code === "42P01") return true; // undefined_table
  return code === "42883" && err instanceof Error && /^function toolrun_\w+\(/.test(err.message);
}

/** The error the port promises for `err`, or `err` itself when it is not an outage or missing schema. */
export function toPortError(backend: "database" | "rate-limiter", err: unknown): unknown {
  if (err instanceof BackendUnavailableError || err instanceof SchemaNotReadyError) return err;
  if (isConnectionError(err)) return new BackendUnavailableError(backend, err);
  if (isMissingSchema(err)) {
    return new SchemaNotReadyError("the database schema is missing: run `toolrun migrate`", { cause: err });
  }
  return err;
}
