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
import { JOB_RETRY_AFTER_S, jobView, runsAsJob, startJob, toolOfCall } from "../../core/call/jobs.ts";
import { callOrigin } from "../../core/call/origin.ts";
import { resolveForKey } from "../../core/call/scope.ts";
import { jobSchema } from "../../core/contract/jobs.ts";
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
  "too_many_jobs",
] as const;

/** The preference that asks for a job (RFC 7240): `Prefer: respond-async`. */
const RESPOND_ASYNC = "respond-async";

export function toolRoutes(deps: CoreDeps): HttpRoute[] {
  return [
    {
      method: "POST",
      path: "/v1/tool/{slug}",
      operationId: "callTool",
      summary: "Run a tool",
      description:
        "Runs the tool on the JSON body and charges the key its price; a call that fails is refunded. Each tool's own path below documents its exact body and outputs. With `Prefer: respond-async` a tool whose `jobs` is `optional` runs as a job, and a `required` one always does: 202 with the job, its credits held (402 before anything runs), then `GET /v1/jobs/{id}` (docs/jobs.md).",
      tag: "Tools",
      keyed: true,
      parameters: {
        type: "object",
        required: ["slug"],
        properties: { slug: { type: "string", description: "The tool's slug." } },
      },
      headers: {
        type: "object",
        properties: {
          [IDEMPOTENCY_HEADER]: idempotencyKeySchema,
          Prefer: {
            type: "string",
            description: "`respond-async`: run the call as a job when its tool allows (answered 202).",
          },
        },
      },
      requestBody: { contentType: JSON_TYPE, schema: { type: "object" } },
      answers: [
        {
          status: 200,
          description: "The tool ran; the envelope carries its outputs and the credits charged.",
          contentType: JSON_TYPE,
          schema: envelopeSchema(undefined, { type: "object" }),
          headers: replayedHeader,
        },
        {
          status: 202,
          description:
            "The call runs as a job, its credits held: read it at `Location` (`GET /v1/jobs/{id}`) after `Retry-After` seconds.",
          contentType: JSON_TYPE,
          schema: jobSchema,
          headers: {
            Location: { description: "The job: `/v1/jobs/{id}`.", schema: { type: "string" } },
            "Retry-After": { description: "Seconds to wait before reading it.", schema: { type: "integer" } },
            "Preference-Applied": {
              description: "`respond-async`, when the request asked for it.",
              schema: { type: "string" },
            },
          },
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
        const call = {
          key,
          slug,
          origin: callOrigin(key, "http"),
          body: { raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0) },
          requestId: request.id,
          idempotencyKey: readIdempotencyKey(request.headers["idempotency-key"], IDEMPOTENCY_HEADER),
          clientGone: () => clientGoneSignal(reply),
          observer: callLogObserver(request),
        };
        const asked = prefersAsync(request.headers.prefer);
        if (runsAsJob(toolOfCall(deps, call), asked)) {
          const { job } = await startJob(deps, call);
          if (asked) reply.header("preference-applied", RESPOND_ASYNC);
          return reply
            .code(202)
            .header("location", `/v1/jobs/${job.id}`)
            .header("retry-after", String(JOB_RETRY_AFTER_S))
            .send(jobView(job));
        }
        const answer = await invokeTool(deps, call);
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

/** Whether the request's `Prefer` headers hold `respond-async` (RFC 7240: tokens are case-insensitive). */
function prefersAsync(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values.some((value) =>
    value.split(",").some((preference) => preference.split(";")[0]?.trim().toLowerCase() === RESPOND_ASYNC),
  );
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
