/**
 * `POST /mcp`, the hosted MCP endpoint. Its gates run in this order before the SDK sees anything:
 * Origin and Host (403, against DNS rebinding), schema present (503), key (401), then one rate-limit
 * slot per JSON-RPC message (429). Any other method is a 405 that takes no slot.
 */
import { ProtocolError } from "@modelcontextprotocol/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { CoreDeps } from "../core/deps.ts";
import { type EndpointSpec, JSON_TYPE } from "../core/endpoint.ts";
import type { FrontDoor } from "../core/front-door.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { createMcpDispatcher } from "./dispatch.ts";
import { readJsonRpcBody } from "./messages.ts";
import { checkHost, checkOrigin, isLoopbackAddress, type OriginPolicy } from "./origin.ts";
import { MCP_PATH } from "./protocol.ts";
import { sendWebResponse, toWebRequest } from "./web.ts";

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
      description:
        "A JSON-RPC error from the transport: a body that is not JSON-RPC, or missing Accept or Content-Type.",
      contentType: JSON_TYPE,
      schema: jsonRpc,
    })),
  ],
  errors: ["origin_not_allowed", "validation_error", "payload_too_large"],
};

export function registerMcpEndpoint(app: FastifyInstance, deps: CoreDeps, door: FrontDoor): void {
  const { allowedOrigins } = deps.settings;
  const bodyLimit = deps.registry.maxBodyBytes + JSON_RPC_ALLOWANCE_BYTES;
  const dispatcher = createMcpDispatcher(deps, {
    maxBodyBytes: bodyLimit,
    onError: (error) => {
      // The SDK reports both a client's protocol mistakes (answered 4xx) and its own failures (500).
      if (isClientMistake(error)) app.log.debug({ err: error }, "MCP request refused by the SDK");
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
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const body = readJsonRpcBody(raw);
      reply.headers(await door.takeSlots(key, body.messages));

      // A client that hangs up aborts the exchange inside the SDK too.
      const hangUp = new AbortController();
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished) hangUp.abort();
      });
      const response = await dispatcher.handle(toWebRequest(request, raw, hangUp.signal), body.parsed, {
        key,
        requestId: request.id,
        log: request.log,
      });
      return sendWebResponse(reply, response);
    },
  );
}

function isClientMistake(error: Error): boolean {
  return (
    error instanceof ProtocolError ||
    error.message.startsWith("Rejected") ||
    error.message.startsWith("Unsupported Media Type")
  );
}
