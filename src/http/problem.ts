/**
 * Every failure leaves HTTP as an RFC 9457 problem document with its stable code, through the
 * core's one error mapper (the same one MCP uses).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Observer } from "../core/call/observer.ts";
import { problemFor } from "../core/contract/error-mapper.ts";
import { ApiError, problemDocument } from "../core/contract/errors.ts";
import { noteCall } from "./request-log.ts";

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

export function registerProblemHandlers(
  app: FastifyInstance,
  docsUrl: string,
  observer: Pick<Observer, "backendError"> | undefined,
): void {
  app.setErrorHandler((thrown, request, reply) => {
    const context = { docsUrl, requestId: request.id, log: request.log };
    const { error } = problemFor(thrown, observer ? { ...context, observer } : context);
    return sendProblem(reply, request, docsUrl, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      request,
      docsUrl,
      new ApiError("not_found", `Nothing lives at this path for ${request.method}.`),
    ),
  );
}
