/**
 * The one error mapper: anything thrown while serving a request, on HTTP or MCP, becomes the
 * ApiError a client should see, and then its problem document. Backend failures become the codes a
 * client can act on (an unreachable database or limiter is 503 `backend_unavailable`, a missing
 * schema 503 `api_unconfigured`, a cursor no store issued 400 naming `cursor`); a transport's own refusals of a request (a body parser's 4xx,
 * recognised by shape so core imports no framework) become `validation_error` or
 * `payload_too_large`; everything else is a 500 whose internals are logged, never sent.
 */
import { ComputeBusyError, ComputeDroppedError } from "../../ports/compute-offload.ts";
import {
  BackendUnavailableError,
  CallAbandonedError,
  InvalidCursorError,
  SchemaNotReadyError,
} from "../../ports/errors.ts";
import { isReplayedError } from "../call/idempotency.ts";
import type { Observer } from "../call/observer.ts";
import { ApiError, type ProblemDocument, problemDocument } from "../kernel/errors.ts";
import { invalidCursor } from "./cursor.ts";

/** Where failures are reported: the request's logger (pino's signature). */
export interface FailureLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

const INTERNAL_DETAIL = "Something failed inside the service. Any credits held were refunded.";

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof SchemaNotReadyError) {
    return new ApiError(
      "api_unconfigured",
      "The database schema is not there yet: the operator must run `toolrun migrate`.",
      { cause: error },
    );
  }
  if (error instanceof BackendUnavailableError) {
    const what = error.backend === "database" ? "its database" : "its rate-limit store";
    return new ApiError("backend_unavailable", `The service cannot reach ${what} right now. Retry shortly.`, {
      cause: error,
      headers: { "retry-after": "1" },
    });
  }
  if (error instanceof ComputeDroppedError) {
    return new ApiError(
      "client_closed_request",
      "The client closed the connection while the call waited for a worker: it did not run and nothing was charged.",
      { cause: error },
    );
  }
  if (error instanceof ComputeBusyError) return computeBusy(error);
  if (error instanceof CallAbandonedError) {
    // Still 503 backend_unavailable, as every unconfirmed charge is, but saying what happened:
    // the backend answered, and nothing is wrong with it.
    return new ApiError(
      "backend_unavailable",
      "The call took longer than the service allows before its charge, so its credits were given back: it was not charged, and its result is not given. Retry.",
      { cause: error, headers: { "retry-after": "1" } },
    );
  }
  // A cursor that decodes but that the store cannot have issued (every paged read: usage, keys, audit).
  if (error instanceof InvalidCursorError) return invalidCursor();
  const transport = transportRefusal(error);
  if (transport) return transport;
  return new ApiError("internal_error", INTERNAL_DETAIL, { cause: error });
}

/** A large call refused by the compute offload without waiting: 429 for its key's own calls, 503 for a full queue. */
function computeBusy(error: ComputeBusyError): ApiError {
  const seconds = error.retryAfterS;
  const headers = { "retry-after": String(seconds) };
  if (error.reason === "owner") {
    return new ApiError(
      "too_many_large_calls",
      `This key already has ${error.limit} large calls waiting or running; large calls are computed one at a time, keys taking turns. Retry in ${seconds} s.`,
      { cause: error, headers, extras: { retry_after: seconds } },
    );
  }
  return new ApiError(
    "server_busy",
    `As many large calls are waiting as the service queues. Retry in ${seconds} s.`,
    { cause: error, headers },
  );
}

/** A request the transport (Fastify's body reading) refused before any route ran. */
function transportRefusal(error: unknown): ApiError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, statusCode } = error as Error & { code?: unknown; statusCode?: unknown };
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    return new ApiError("payload_too_large", "The request body is larger than any tool accepts.");
  }
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    return new ApiError("validation_error", error.message);
  }
  return undefined;
}

export interface ProblemContext {
  readonly docsUrl: string;
  readonly requestId: string | undefined;
  readonly log: FailureLog;
  /** Where an unreachable backend is counted. */
  readonly observer?: Pick<Observer, "backendError">;
}

/**
 * The problem document for a failure, logged by one policy: every 5xx with its cause, an
 * unavailable backend as a warning (and counted); expected refusals are not worth a log line.
 */
export function problemFor(
  error: unknown,
  context: ProblemContext,
): { readonly error: ApiError; readonly problem: ProblemDocument } {
  if (error instanceof BackendUnavailableError) context.observer?.backendError(error.backend);
  const apiError = toApiError(error);
  // A replayed 500 is a stored answer: it was logged when it first happened.
  if (apiError.code === "backend_unavailable") {
    context.log.warn({ err: apiError.cause, code: apiError.code }, "backend unavailable");
  } else if (apiError.code === "server_busy") {
    context.log.warn({ err: apiError.cause, code: apiError.code }, "too busy for a large call");
  } else if (apiError.status === 500 && !isReplayedError(apiError)) {
    context.log.error({ err: apiError.cause ?? apiError, code: apiError.code }, "request failed");
  }
  return { error: apiError, problem: problemDocument(apiError, context.docsUrl, context.requestId) };
}
