/**
 * The MCP transport: `POST /mcp`, JSON-RPC 2.0 over Streamable HTTP, stateless, JSON answers. Its
 * gates run in this order before the SDK sees anything: Origin and Host (403, against DNS
 * rebinding), then the front door HTTP uses too: schema present (503), key (401), then one
 * rate-limit slot per JSON-RPC message (429). Any other method is a 405 that takes no slot.
 *
 * 2026-07-28 traffic (the per-request `_meta` envelope, `server/discover`) goes to the SDK's
 * `createMcpHandler`; 2025-era traffic (`initialize` and what follows it) to a fresh Streamable HTTP
 * transport in JSON-response mode, because the handler's own 2025 fallback would answer with SSE
 * streams. The SDK speaks web-standard Request and Response and Fastify speaks Node's, so the
 * request is carried over with the raw body Fastify kept and the answer brought back.
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import {
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CoreDeps } from "../core/call/deps.ts";
import type { FrontDoor } from "../core/call/front-door.ts";
import { MAX_JSON_DEPTH, readJsonBody } from "../core/call/json-body.ts";
import type { Observer } from "../core/call/observer.ts";
import { type EndpointSpec, JSON_TYPE } from "../core/kernel/endpoint.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { checkHost, checkOrigin, isLoopbackAddress, type OriginPolicy } from "./origin.ts";
import { correctedAnswer } from "./sdk-answers.ts";
import { createToolServer } from "./server.ts";
import type { McpCallContext } from "./tools.ts";

const MCP_PATH = "/mcp";

/** Room for the JSON-RPC wrapping around the largest tool body; the tool's own limit still applies. */
const JSON_RPC_ALLOWANCE_BYTES = 64 * 1024;

const jsonRpc = { type: "object", description: "A JSON-RPC 2.0 message." };

/** `POST /mcp` as the OpenAPI document and the 405 answers know it. */
export const mcpEndpoint: EndpointSpec = {
  method: "POST",
  path: MCP_PATH,
  operationId: "mcp",
  summary: "MCP (Streamable HTTP, stateless, JSON responses)",
  description:
    "JSON-RPC 2.0 over MCP's Streamable HTTP transport: protocol 2026-07-28 through `server/discover`, and 2025-11-25, 2025-06-18 and 2025-03-26 through `initialize`. Every API tool is an MCP tool under its slug, plus the free `search_tools`, `describe_tool`, `get_credits` and `get_usage`. Each JSON-RPC message takes a rate-limit slot; a batch of N takes N.",
  tag: "MCP",
  keyed: true,
  requestBody: {
    contentType: JSON_TYPE,
    schema: { anyOf: [jsonRpc, { type: "array", items: jsonRpc }] },
  },
  answers: [
    {
      status: 200,
      description: "The JSON-RPC answer (a tool that ran and failed is a result with `isError`).",
      contentType: JSON_TYPE,
      schema: { anyOf: [jsonRpc, { type: "array", items: jsonRpc }] },
    },
    { status: 202, description: "A notification or response was accepted.", contentType: JSON_TYPE },
    ...[400, 406, 415].map((status) => ({
      status,
      description: `A JSON-RPC error from the transport: a body that is not JSON-RPC or nests deeper than ${MAX_JSON_DEPTH} levels, or missing Accept or Content-Type.`,
      contentType: JSON_TYPE,
      schema: jsonRpc,
    })),
  ],
  errors: ["origin_not_allowed", "validation_error", "payload_too_large"],
};

/**
 * `GET /mcp`, which MCP clients send to open a server-to-client SSE stream. The transport lets a
 * server without one answer 405, and this stateless server does: declared for the reference only,
 * since the answer comes from the 405 routes every declared path has.
 */
export const mcpStreamRefusal: EndpointSpec = {
  method: "GET",
  path: MCP_PATH,
  operationId: "mcpStream",
  summary: "MCP's server-to-client stream: not offered",
  description:
    "MCP clients may GET the endpoint to open an SSE stream for server-initiated messages. This server is stateless and sends none, so it answers 405 `method_not_allowed` with `Allow: POST`, as the Streamable HTTP transport provides; no key is read and no slot is taken.",
  tag: "MCP",
  keyed: false,
  answers: [],
  errors: ["method_not_allowed"],
};

/** The request log the MCP endpoint writes to: the HTTP layer's, passed in by app.ts. */
export interface McpRequestLog {
  /** Notes on the request's log line: the key, the tool a call asked for, a failed call's code. */
  note(
    request: FastifyRequest,
    note: { readonly keyId?: string; readonly tool?: string; readonly code?: string },
  ): void;
  /** Hears how each tool call of the request ended. */
  observer(request: FastifyRequest): Pick<Observer, "toolCall">;
}

export function registerMcpEndpoint(
  app: FastifyInstance,
  deps: CoreDeps,
  door: FrontDoor,
  requestLog: McpRequestLog,
): void {
  const { allowedOrigins } = deps.settings;
  const bodyLimit = deps.registry.maxBodyBytes + JSON_RPC_ALLOWANCE_BYTES;
  const dispatcher = createMcpDispatcher(deps, {
    maxBodyBytes: bodyLimit,
    onError: (error) => {
      // The SDK reports both a client's protocol mistakes (answered 4xx) and its own failures (500).
      if (isClientMistake(error))
        app.log.debug({ refusal: mistakeKind(error) }, "MCP request refused by the SDK");
      else app.log.error({ err: error }, "MCP request failed inside the SDK");
    },
  });
  app.addHook("onClose", async () => dispatcher.close());
  const keys = new WeakMap<FastifyRequest, ApiKeyRecord>();
  // Where the server listens is known once it listens (never, under app.inject): read it then.
  let loopbackBound: boolean | undefined;
  const originPolicy = (): OriginPolicy => {
    if (loopbackBound === undefined) {
      const addresses = app.addresses();
      if (addresses.length > 0)
        loopbackBound = addresses.every((a) => typeof a === "object" && isLoopbackAddress(a.address));
    }
    return { allowedOrigins, loopbackBound: loopbackBound ?? false };
  };

  app.post(
    MCP_PATH,
    {
      bodyLimit,
      // Runs before the body is read: strangers get their 403/401 without us reading a byte more.
      onRequest: async (request) => {
        const policy = originPolicy();
        checkOrigin(request.headers.origin, policy);
        checkHost(request.headers.host, policy);
        keys.set(request, await door.authenticate(request.headers.authorization));
      },
    },
    async (request, reply) => {
      const key = keys.get(request);
      if (key === undefined) throw new Error("POST /mcp reached its handler unauthenticated");
      requestLog.note(request, { keyId: key.id });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const body = readJsonRpcBody(raw);
      reply.headers(await door.takeSlots(key, body.messages));
      if (body.refusal !== undefined) return reply.code(400).type(JSON_TYPE).send(body.refusal);

      // A client that hangs up aborts the exchange inside the SDK too.
      const hangUp = new AbortController();
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished) hangUp.abort();
      });
      const response = await dispatcher.handle(toWebRequest(request, raw, hangUp.signal), body.parsed, {
        key,
        requestId: request.id,
        log: request.log,
        note: (note) => requestLog.note(request, note),
        observer: requestLog.observer(request),
      });
      return sendWebResponse(reply, response, [header(request, "mcp-protocol-version")]);
    },
  );
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isClientMistake(error: Error): boolean {
  return (
    error instanceof ProtocolError ||
    error.message.startsWith("Rejected") ||
    error.message.startsWith("Unsupported Media Type")
  );
}

/**
 * What kind of mistake the SDK refused, for the debug log: its own words for the kind, never its
 * message, which may quote what the client sent.
 */
function mistakeKind(error: Error): string {
  const rejected = /^Rejected inbound request \(([a-z0-9-]+)\)/.exec(error.message);
  if (rejected?.[1]) return rejected[1];
  if (error instanceof ProtocolError) return `protocol error ${error.code}`;
  return error.message.startsWith("Unsupported Media Type") ? "unsupported media type" : "refused";
}

// Counting messages: each takes one rate-limit slot, so a batch array of N takes N. Everything else
// about the body is the SDK's job.

interface ReadBody {
  /** The parsed JSON, or undefined when the body is empty or not JSON (the SDK answers -32700). */
  readonly parsed: unknown;
  /** Messages in the body; a body that holds none still costs one slot, like any keyed request. */
  readonly messages: number;
  /** The JSON-RPC error answered instead of the SDK, for a body nested too deep to be walked. */
  readonly refusal?: object;
}

function readJsonRpcBody(raw: Buffer): ReadBody {
  const body = readJsonBody(raw);
  if (body.ok)
    return { parsed: body.value, messages: Array.isArray(body.value) ? Math.max(1, body.value.length) : 1 };
  if (!body.tooDeep) return { parsed: undefined, messages: 1 };
  const message = `Invalid Request: the message nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`;
  return {
    parsed: undefined,
    messages: 1,
    refusal: { jsonrpc: "2.0", id: null, error: { code: -32600, message } },
  };
}

interface McpDispatcher {
  /** `parsed` is the body already read as JSON, or undefined when it is empty or not JSON. */
  handle(request: Request, parsed: unknown, call: McpCallContext): Promise<Response>;
  close(): Promise<void>;
}

function createMcpDispatcher(
  deps: CoreDeps,
  options: { maxBodyBytes: number; onError: (error: Error) => void },
): McpDispatcher {
  // The modern handler builds its server through a factory; this is how the factory learns whose
  // request it serves. Entries go away with their Request objects.
  const calls = new WeakMap<Request, McpCallContext>();
  const modern = createMcpHandler(
    (context) => {
      const call = context.requestInfo === undefined ? undefined : calls.get(context.requestInfo);
      if (call === undefined) throw new Error("MCP request served without its call context");
      return createToolServer(deps, call, true);
    },
    { legacy: "reject", maxRequestBodySize: options.maxBodyBytes, onerror: options.onError },
  );

  return {
    async handle(request, parsed, call) {
      if (parsed === undefined || (await isLegacyRequest(request, parsed))) {
        return serveLegacy(createToolServer(deps, call), request, parsed);
      }
      calls.set(request, call);
      return modern.fetch(request, { parsedBody: parsed });
    },
    close: () => modern.close(),
  };
}

async function serveLegacy(
  server: ReturnType<typeof createToolServer>,
  request: Request,
  parsed: unknown,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    // In JSON mode the response is complete when this resolves, so the pair can close right after.
    return await transport.handleRequest(request, parsed === undefined ? {} : { parsedBody: parsed });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

// Hop-by-hop and framing headers describe Fastify's connection, not the message the SDK reads.
const NOT_FORWARDED = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "content-length"]);

function toWebRequest(request: FastifyRequest, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(urlOf(request), { method: request.method, headers, body, signal });
}

function urlOf(request: FastifyRequest): string {
  try {
    return new URL(request.url, `${request.protocol}://${request.host}`).href;
  } catch {
    // A Host header that is no host name: the SDK needs some URL, not this one.
    return new URL(request.url, "http://localhost").href;
  }
}

/** Sends the SDK's answer; `sent` are header values its errors must not quote back (sdk-answers.ts). */
async function sendWebResponse(
  reply: FastifyReply,
  response: Response,
  sent: readonly (string | undefined)[],
): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== "content-length") reply.header(name, value);
  });
  if (response.body === null) return reply.send();
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.headers.get("content-type")?.startsWith("application/json")) return reply.send(body);
  return reply.send(correctedAnswer(body, sent));
}
