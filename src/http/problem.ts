/**
 * Every failure leaves HTTP as an RFC 9457 problem document with its stable code, through the
 * core's one error mapper (the same one MCP uses).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import Negotiator from "negotiator";
import type { Observer } from "../core/call/observer.ts";
import { problemFor } from "../core/contract/error-mapper.ts";
import { ApiError, problemDocument } from "../core/kernel/errors.ts";
import { noteCall } from "./request-log.ts";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";
/** Where the OpenAPI document defines the problem document's schema. */
export const PROBLEM_REF = { $ref: "#/components/schemas/Problem" };

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

/**
 * The page a browser gets instead of a `not_found` problem, sent on the reply given (its status
 * already 404); the console renders it and buildApp hands it in.
 */
export type NotFoundPage = (reply: FastifyReply) => FastifyReply;

/** The API's addresses: whatever the Accept header, a miss there is always the problem document. */
const API_PATH = /^\/(?:v1|admin|mcp|oauth|\.well-known|openapi\.json)(?:[/?]|$)/;

/**
 * A browser opening an address asks for HTML first (`text/html,...,*\/*;q=0.8`); a program asking
 * for JSON, for anything (curl's `*\/*`) or nothing in particular gets the problem document.
 */
function prefersPage(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (API_PATH.test(request.url)) return false;
  const best = new Negotiator(request).mediaType([
    "application/problem+json",
    "application/json",
    "text/html",
  ]);
  return best === "text/html";
}

export function registerProblemHandlers(
  app: FastifyInstance,
  docsUrl: string,
  observer: Pick<Observer, "backendError"> | undefined,
  notFoundPage?: NotFoundPage,
): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, error: ApiError) => {
    if (notFoundPage && error.code === "not_found" && prefersPage(request)) {
      noteCall(request, { code: error.code });
      return notFoundPage(reply.code(404));
    }
    return sendProblem(reply, request, docsUrl, error);
  };
  app.setErrorHandler((thrown, request, reply) => {
    const context = { docsUrl, requestId: request.id, log: request.log };
    const { error } = problemFor(thrown, observer ? { ...context, observer } : context);
    return answer(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    answer(request, reply, new ApiError("not_found", `Nothing lives at this path for ${request.method}.`)),
  );
}
