/**
 * `POST /mcp`, the hosted MCP endpoint. Its gates run in this order before the SDK sees anything:
 * Origin and Host (403, against DNS rebinding), schema present (503), key (401), then one rate-limit
 * slot per JSON-RPC message (429). Any other method is a 405 that takes no slot.
 */
import { ProtocolError } from "@modelcontextprotocol/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { planOf } from "../core/credits.ts";
import type { CoreDeps } from "../core/deps.ts";
import { authenticate } from "../core/keys.ts";
import { takeSlot } from "../core/rate-limit.ts";
import type { Readiness } from "../core/readiness.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import { noteCall } from "../request-log.ts";
import { createMcpDispatcher } from "./dispatch.ts";
import { readJsonRpcBody } from "./messages.ts";
import { checkHost, checkOrigin, isLoopbackAddress, type OriginPolicy } from "./origin.ts";
import { MCP_PATH } from "./protocol.ts";
import { sendWebResponse, toWebRequest } from "./web.ts";

/** Room for the JSON-RPC wrapping around the largest tool body; the tool's own limit still applies. */
const JSON_RPC_ALLOWANCE_BYTES = 64 * 1024;

export function registerMcpEndpoint(app: FastifyInstance, deps: CoreDeps, readiness: Readiness): void {
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
        await readiness.check();
        keys.set(request, await authenticate(deps.store, deps.keyPattern, request.headers.authorization));
      },
    },
    async (request, reply) => {
      const key = keys.get(request);
      if (key === undefined) throw new Error("POST /mcp reached its handler unauthenticated");
      noteCall(request, { keyId: key.id });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const body = readJsonRpcBody(raw);
      const rpm = planOf(key, deps.settings).rpm;
      let slot = await takeSlot(deps.limiter, key.id, rpm, deps.now());
      for (let i = 1; i < body.messages; i++) slot = await takeSlot(deps.limiter, key.id, rpm, deps.now());
      reply.headers(slot.headers);

      // A client that hangs up aborts the exchange inside the SDK too.
      const hangUp = new AbortController();
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished) hangUp.abort();
      });
      const response = await dispatcher.handle(toWebRequest(request, raw, hangUp.signal), body.parsed, {
        key,
        requestId: request.id,
        logError: (err, code) => request.log.error({ err, code }, "request failed"),
        noteCall: (note) => noteCall(request, note),
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
