/**
 * The request log: one JSON line per request, written when it ends, with what an operator asks of
 * it ("which key spent what"): the request id, the key's id (never the key), the tool, the credits
 * charged, the status and the problem code. HTTP routes and the MCP endpoint note what their
 * request did with `noteCall`; the line is written from those notes.
 */
import { type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import type { Observer } from "../core/call/observer.ts";

/** What one request did, as far as the log line tells. */
export interface CallNote {
  readonly keyId?: string;
  readonly tool?: string;
  readonly credits?: number;
  readonly code?: string;
}

/** The notes so far: the same fields, filled in as the request goes. */
type CallLog = { -readonly [K in keyof CallNote]: CallNote[K] };

declare module "fastify" {
  interface FastifyRequest {
    callLog: CallLog | null;
  }
}

/** Adds to the request's notes; an MCP batch with several tool calls sums their credits. */
export function noteCall(request: FastifyRequest, note: CallNote): void {
  const log = request.callLog ?? {};
  request.callLog = log;
  if (note.keyId !== undefined) log.keyId = note.keyId;
  if (note.tool !== undefined)
    log.tool = log.tool === undefined || log.tool === note.tool ? note.tool : `${log.tool},${note.tool}`;
  if (note.credits !== undefined) log.credits = (log.credits ?? 0) + note.credits;
  if (note.code !== undefined) log.code = note.code;
}

/**
 * What a tool call of the request did, as the core reports it: the credits it charged (0 for a
 * replayed answer), summed over the calls of an MCP batch.
 */
export function callLogObserver(request: FastifyRequest): Pick<Observer, "toolCall"> {
  return {
    toolCall(event) {
      if (event.outcome === "charged" || event.outcome === "replayed")
        noteCall(request, { credits: event.credits });
    },
  };
}

/** Anything shaped like a key (`prefix_` and 32 base62 characters), wherever a client put it. */
const KEY_LIKE = /[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_[0-9A-Za-z]{32}(?![0-9A-Za-z])/g;

/** A capture's address: its token lets anyone send to the capture. */
const CAPTURE_TOKEN = /^\/hooks\/[^/?]+/;

/**
 * The logged URL is the path only: a query string may carry a key (`?api_key=`) or anything else a
 * client should not find in our logs, and a key pasted into the path, or a capture's token, is masked.
 */
export function loggedUrl(url: string): string {
  const question = url.indexOf("?");
  const path = question === -1 ? url : `${url.slice(0, question)}?…`;
  return path.replace(KEY_LIKE, "[redacted]").replace(CAPTURE_TOKEN, "/hooks/[redacted]");
}

/** Fastify's logger option with the request serializer that keeps keys out of the log. */
export function requestLogOptions(logger: FastifyServerOptions["logger"]): FastifyServerOptions["logger"] {
  if (typeof logger !== "object" || logger === null) return logger;
  return {
    ...logger,
    serializers: {
      ...logger.serializers,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
  };
}

type LineArgs = Parameters<LogController["requestCompleted"]>;

/** What a request's line says of it, whichever way it ended. */
function lineFields(request: LineArgs[1], reply: LineArgs[2]) {
  const log = request.callLog;
  const keyId = log?.keyId ?? request.apiKey?.id;
  return {
    req: request,
    res: reply,
    responseTime: reply.elapsedTime,
    ...(keyId === undefined ? {} : { keyId }),
    ...(log?.tool === undefined ? {} : { tool: log.tool }),
    ...(log?.credits === undefined ? {} : { creditsCharged: log.credits }),
    ...(log?.code === undefined ? {} : { code: log.code }),
    ...(request.traceSpan === undefined ? {} : { traceId: request.traceSpan.traceId }),
  };
}

/** One log line per request, written when it ends, instead of Fastify's two. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(...[error, request, reply]: LineArgs): void {
    const fields = lineFields(request, reply);
    if (error) reply.log.error({ ...fields, err: error }, "request errored");
    else reply.log.info(fields, "request completed");
  }
}

/**
 * The line of a request whose client closed the connection before its answer was written whole
 * (see http/lost-answers.ts): status 499, as nginx logs it, and the status the answer had.
 */
export function logLostAnswer(request: LineArgs[1], reply: LineArgs[2]): void {
  reply.log.info(
    { ...lineFields(request, reply), res: { statusCode: 499 }, answerStatus: reply.statusCode },
    "client closed the connection before the answer",
  );
}
