/**
 * Errors adapters raise so the core can answer without knowing which backend failed how.
 */

/** The backend could not be reached or answered with a connection-level failure. */
export class BackendUnavailableError extends Error {
  override readonly name = "BackendUnavailableError";
  readonly backend: "database" | "rate-limiter";
  constructor(backend: "database" | "rate-limiter", cause: unknown) {
    super(`${backend} unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.backend = backend;
  }
}

/** The database has no schema (or an older one) and `toolrun migrate` has not been run. */
export class SchemaNotReadyError extends Error {
  override readonly name = "SchemaNotReadyError";
}

/** A usage cursor the store did not issue (forged, or out of the range of its sequence numbers). */
export class InvalidCursorError extends Error {
  override readonly name = "InvalidCursorError";
}

/**
 * A call whose charge came after the abandon sweep had refunded its reservation: it took longer
 * than the store's abandon time (TOOLRUN_CALL_ABANDON_S), so it stays refunded and its result is
 * not given. Its backend answered; nothing is wrong with it.
 */
export class CallAbandonedError extends Error {
  override readonly name = "CallAbandonedError";
  constructor() {
    super("the call's reservation was refunded by the abandon sweep before its charge");
  }
}
