/**
 * Answers written before a request reaches a route, as problem documents with a code and an
 * `x-request-id` like every other answer: Node's HTTP parser errors (a malformed request line,
 * `Content-Length` with `Transfer-Encoding`, a header block over 16 KiB, headers or a body slower
 * than TOOLRUN_REQUEST_TIMEOUT_MS), what Node would otherwise answer or drop itself (an `Expect`
 * other than `100-continue`, a `CONNECT`), Fastify's router errors (a path that is not valid
 * percent-encoding, a path segment over 100 characters) and a request without `Host`. None of them
 * echoes what the client sent.
 */
import type { Server } from "node:http";
import { type ServerOptions, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, problemDocument } from "../core/kernel/errors.ts";
import { PROBLEM_CONTENT_TYPE, sendProblem } from "./problem.ts";
import { requestIdFrom } from "./request-id.ts";

/** The parser's error codes a client can cause, by what they mean. */
function parserProblem(code: string | undefined): ApiError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError("request_header_fields_too_large", "The request line and headers exceed 16 KiB.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "ERR_HTTP_HEADERS_TIMEOUT":
      return new ApiError("request_timeout", "The request did not arrive in time; the connection is closed.");
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return new ApiError(
        "malformed_request",
        "The request has both Content-Length and Transfer-Encoding; send one of them.",
      );
    default:
      return new ApiError("malformed_request", "The request line or headers are not valid HTTP/1.1.");
  }
}

/** Whether a response has begun on this connection (then nothing more can be written). */
function responseStarted(socket: Duplex): boolean {
  if (!("_httpMessage" in socket)) return false;
  const message = socket._httpMessage;
  return (
    typeof message === "object" &&
    message !== null &&
    "headersSent" in message &&
    message.headersSent === true
  );
}

/**
 * Connections whose request was answered before its body had all arrived (a 401 needs no body):
 * a timeout on such a request must not write a second answer after the first.
 */
export type AnsweredEarly = WeakSet<object>;

/** Fastify's `clientErrorHandler`: Node calls it for a request its parser rejected. */
export function clientErrorHandler(
  docsUrl: string,
  answeredEarly: AnsweredEarly,
): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    if (!socket.writable || responseStarted(socket) || answeredEarly.has(socket)) {
      socket.destroy();
      return;
    }
    answerAndClose(socket, parserProblem(error.code), docsUrl);
  };
}

/** Writes `problem` on a socket no response has begun on, as the whole answer, and closes it. */
function answerAndClose(socket: Duplex, problem: ApiError, docsUrl: string): void {
  const id = requestIdFrom(undefined);
  const body = JSON.stringify(problemDocument(problem, docsUrl, id));
  socket.end(
    [
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ""}`,
      `content-type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${id}`,
      "connection: close",
      "",
      body,
    ].join("\r\n"),
  );
}

/**
 * What Node answers itself, or not at all, answered as problem documents: an `Expect` it cannot
 * meet (Node's own 417 has no body, no content type, no `x-request-id`) and `CONNECT` (Node closes
 * the connection without a word when nothing listens for it). Both before any route, like the
 * parser's errors: this server is no proxy, and `100-continue` is the one expectation it meets.
 */
export function answerWhatNodeWould(server: Server, docsUrl: string): void {
  server.on("checkExpectation", (request, response) => {
    answerAndClose(
      response.socket ?? request.socket,
      new ApiError(
        "expectation_failed",
        "The request's Expect header asks for something other than 100-continue, the one expectation this server meets. Send the request without it.",
      ),
      docsUrl,
    );
  });
  server.on("connect", (_request, socket: Duplex) => {
    answerAndClose(
      socket,
      new ApiError("malformed_request", "CONNECT is a proxy's method, and this server is not a proxy."),
      docsUrl,
    );
  });
}

/** Fastify's `frameworkErrors`: the router could not read the path. */
export function frameworkErrors(
  docsUrl: string,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const problem =
      error.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? new ApiError("uri_too_long", "A segment of the path is longer than 100 characters.")
        : new ApiError("malformed_request", "The path is not valid percent-encoding.");
    reply.header("x-request-id", request.id);
    void sendProblem(reply, request, docsUrl, problem);
  };
}

/**
 * Node's own answer to an HTTP/1.1 request without `Host` is a bare 400, so the server lets such
 * requests through (`requireHostHeader: false`) and the first hook refuses them. The second notes
 * connections answered before their request's body arrived (see AnsweredEarly).
 */
export function registerRequestChecks(app: FastifyInstance, answeredEarly: AnsweredEarly): void {
  app.addHook("onRequest", async (request) => {
    answeredEarly.delete(request.raw.socket);
    if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
      throw new ApiError("malformed_request", "An HTTP/1.1 request needs a Host header.");
    }
  });
  app.addHook("onResponse", async (request) => {
    if (!request.raw.complete) answeredEarly.add(request.raw.socket);
  });
}

/**
 * The slow-client bounds: the headers, and the whole request, must arrive within `timeoutMs`. Node
 * checks them every `connectionsCheckingInterval`, so that is a fraction of the bound.
 */
export function slowClientOptions(timeoutMs: number): {
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: timeoutMs,
    http: {
      requireHostHeader: false,
      headersTimeout: timeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeoutMs / 4))),
    },
  };
}
