/**
 * Every failure leaves HTTP as an RFC 9457 problem document with its stable code, through the
 * core's one error mapper (the same one MCP uses).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { problemFor } from "../core/error-mapper.ts";
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

export function registerProblemHandlers(app: FastifyInstance, docsUrl: string): void {
  app.setErrorHandler((thrown, request, reply) => {
    const { error } = problemFor(thrown, { docsUrl, requestId: request.id, log: request.log });
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
