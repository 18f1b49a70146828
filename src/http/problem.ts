/**
 * The one error handler: every failure leaves as an RFC 9457 problem document with its stable code.
 * Internals of unexpected failures are logged, never sent.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { translateBackendError } from "../core/backend-errors.ts";
import { ApiError, problemDocument } from "../core/errors.ts";
import { noteCall } from "../request-log.ts";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  docsUrl: string,
  error: ApiError,
): FastifyReply {
  noteCall(request, { code: error.code });
  return reply
    .code(error.status)
    .headers(error.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problemDocument(error, docsUrl, request.id));
}

/** Maps anything thrown during a request to the ApiError a client should see. */
export function toApiError(error: unknown): ApiError {
  const known = translateBackendError(error);
  if (known) return known;
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError("payload_too_large", "The request body is larger than any tool accepts.");
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("validation_error", fastifyError.message);
  }
  if (
    typeof fastifyError.statusCode === "number" &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return new ApiError("validation_error", fastifyError.message);
  }
  return new ApiError(
    "internal_error",
    "Something failed inside the service. Any credits held were refunded.",
    {
      cause: error,
    },
  );
}

export function registerProblemHandlers(app: FastifyInstance, docsUrl: string): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    // Expected refusals (503 tool_disabled, api_unconfigured) are not failures worth a log line.
    if (apiError.status === 500) {
      request.log.error({ err: apiError.cause ?? apiError, code: apiError.code }, "request failed");
    } else if (apiError.code === "backend_unavailable") {
      request.log.warn({ err: apiError.cause, code: apiError.code }, "backend unavailable");
    }
    return sendProblem(reply, request, docsUrl, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      request,
      docsUrl,
      new ApiError("not_found", `Nothing lives at ${request.method} ${request.url.split("?")[0]}.`),
    ),
  );
}

/** Answers 405 with `Allow` for every method a path does not accept. */
export function registerMethodNotAllowed(
  app: FastifyInstance,
  url: string,
  allowed: readonly string[],
  docsUrl: string,
): void {
  const all = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  const allow = allowed.includes("GET") && !allowed.includes("HEAD") ? [...allowed, "HEAD"] : allowed;
  const others = all.filter((m) => !allow.includes(m));
  if (others.length === 0) return;
  app.route({
    method: others,
    url,
    handler: (request, reply) =>
      sendProblem(
        reply,
        request,
        docsUrl,
        new ApiError(
          "method_not_allowed",
          `${request.method} is not allowed here; use ${allow.join(", ")}.`,
          {
            headers: { allow: allow.join(", ") },
          },
        ),
      ),
  });
}
