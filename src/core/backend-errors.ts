/**
 * Turns failures of the backends into the codes a client can act on: an unreachable database or
 * rate-limit store is 503 `backend_unavailable`, a missing schema is 503 `api_unconfigured`.
 */
import { BackendUnavailableError, SchemaNotReadyError } from "../ports/errors.ts";
import { ApiError } from "./errors.ts";

export function translateBackendError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof SchemaNotReadyError) {
    return new ApiError(
      "api_unconfigured",
      "The database schema is not there yet: the operator must run `toolrun migrate`.",
      {
        cause: error,
      },
    );
  }
  if (error instanceof BackendUnavailableError) {
    const what = error.backend === "database" ? "its database" : "its rate-limit store";
    return new ApiError("backend_unavailable", `The service cannot reach ${what} right now. Retry shortly.`, {
      cause: error,
      headers: { "retry-after": "1" },
    });
  }
  return undefined;
}
