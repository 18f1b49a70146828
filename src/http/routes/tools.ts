/**
 * `POST /v1/tool/{slug}`: run a tool (charged) through the one pipeline MCP uses too.
 */
import type { FastifyReply } from "fastify";
import type { CoreDeps } from "../../core/call/deps.ts";
import {
  IDEMPOTENCY_HEADER,
  idempotencyKeySchema,
  REPLAYED_HEADER,
  readIdempotencyKey,
  replayedHeader,
} from "../../core/call/idempotency.ts";
import { invokeTool } from "../../core/call/invoke.ts";
import { callOrigin } from "../../core/call/origin.ts";
import { resolveForKey } from "../../core/call/scope.ts";
import { envelopeSchema } from "../../core/contract/schemas.ts";
import { JSON_TYPE } from "../../core/kernel/endpoint.ts";
import { type HttpRoute, keyOf } from "../register.ts";
import { callLogObserver, noteCall } from "../request-log.ts";

const TOOL_CALL_ERRORS = [
  "validation_error",
  "insufficient_credits",
  "vendor_api_tier_limit_exceeded",
  "tool_not_allowed",
  "key_read_only",
  "tool_not_found",
  "payload_too_large",
  "unprocessable_input",
  "processing_error",
  "tool_disabled",
  "idempotency_key_mismatch",
  "idempotency_key_in_use",
  "client_closed_request",
  "too_many_large_calls",
  "server_busy",
] as const;

export function toolRoutes(deps: CoreDeps): HttpRoute[] {
  return [
    {
      method: "POST",
      path: "/v1/tool/{slug}",
      operationId: "callTool",
      summary: "Run a tool",
      description:
        "Runs the tool on the JSON body and charges the key its price; a call that fails is refunded. Each tool's own path below documents its exact body and outputs.",
      tag: "Tools",
      keyed: true,
      parameters: {
        type: "object",
        required: ["slug"],
        properties: { slug: { type: "string", description: "The tool's slug." } },
      },
      headers: { type: "object", properties: { [IDEMPOTENCY_HEADER]: idempotencyKeySchema } },
      requestBody: { contentType: JSON_TYPE, schema: { type: "object" } },
      answers: [
        {
          status: 200,
          description: "The tool ran; the envelope carries its outputs and the credits charged.",
          contentType: JSON_TYPE,
          schema: envelopeSchema(undefined, { type: "object" }),
          headers: replayedHeader,
        },
      ],
      errors: TOOL_CALL_ERRORS,
      // Every tool's own path in the document inherits these declarations, the header's included.
      beforeSlot: (request, key) => {
        resolveForKey(deps.registry, key, (request.params as { slug: string }).slug);
      },
      handler: async (request, reply) => {
        const { slug } = request.params as { slug: string };
        noteCall(request, { tool: slug });
        const key = keyOf(request);
        const answer = await invokeTool(deps, {
          key,
          slug,
          origin: callOrigin(key, "http"),
          body: { raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0) },
          requestId: request.id,
          idempotencyKey: readIdempotencyKey(request.headers["idempotency-key"], IDEMPOTENCY_HEADER),
          clientGone: () => clientGoneSignal(reply),
          observer: callLogObserver(request),
        });
        // A replay is the first answer whole, its request id included, and charges nothing.
        if (answer.replayed)
          reply.header(REPLAYED_HEADER, "true").header("x-request-id", answer.envelope.request_id);
        // The envelope written as JSON already goes as it is, typed as Fastify types what it serializes.
        return answer.json === undefined
          ? answer.envelope
          : reply.type(`${JSON_TYPE}; charset=utf-8`).send(answer.json);
      },
    },
  ];
}

/** Aborts once the connection closes before the answer was sent (now, if it already has). */
function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  const gone = () => {
    if (!response.writableFinished) controller.abort();
  };
  if (response.destroyed || response.socket?.destroyed) gone();
  else response.once("close", gone);
  return controller.signal;
}
