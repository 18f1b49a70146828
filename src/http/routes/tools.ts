/**
 * `POST /v1/tool/{slug}`: run a tool (charged) through the one pipeline MCP uses too.
 */
import { envelopeSchema } from "../../core/contract-schemas.ts";
import type { CoreDeps } from "../../core/deps.ts";
import { JSON_TYPE } from "../../core/endpoint.ts";
import { invokeTool, resolveTool } from "../../core/invoke.ts";
import { noteCall } from "../../request-log.ts";
import { type HttpRoute, keyOf } from "../register.ts";

const TOOL_CALL_ERRORS = [
  "validation_error",
  "insufficient_credits",
  "vendor_api_tier_limit_exceeded",
  "tool_not_allowed",
  "tool_not_found",
  "payload_too_large",
  "unprocessable_input",
  "processing_error",
  "tool_disabled",
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
      requestBody: { contentType: JSON_TYPE, schema: { type: "object" } },
      answers: [
        {
          status: 200,
          description: "The tool ran; the envelope carries its outputs and the credits charged.",
          contentType: JSON_TYPE,
          schema: envelopeSchema(undefined, { type: "object" }),
        },
      ],
      errors: TOOL_CALL_ERRORS,
      // `headers`: the Idempotency-Key of decisions section 11 is declared here, once, when its
      // issue implements it; every tool's own path in the document inherits this declaration.
      beforeSlot: (request) => {
        resolveTool(deps, (request.params as { slug: string }).slug);
      },
      handler: async (request) => {
        const { slug } = request.params as { slug: string };
        noteCall(request, { tool: slug });
        const envelope = await invokeTool(deps, {
          key: keyOf(request),
          slug,
          body: { raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0) },
          requestId: request.id,
        });
        noteCall(request, { credits: envelope.credits_used });
        return envelope;
      },
    },
  ];
}
