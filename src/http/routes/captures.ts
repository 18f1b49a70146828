/**
 * Captures over HTTP: the keyed routes that create, list, read and delete an account's captures
 * (free; each takes a slot), and the address a capture catches deliveries at, `/hooks/{token}`,
 * which takes no key and any method. The hook reads its body raw (the app's one content-type
 * parser keeps every body as bytes, whatever its type), up to 1 MiB.
 */
import type { FastifyInstance } from "fastify";
import type { CoreDeps } from "../../core/call/deps.ts";
import {
  admitHook,
  capturedRequestsParameters,
  capturedRequestsSchema,
  captureIdParameters,
  captureListSchema,
  createCapture,
  createdCaptureSchema,
  deleteCapture,
  deletedCaptureSchema,
  hookReceivedSchema,
  keepHookRequest,
  listCapturedRequests,
  listCaptures,
  MAX_HOOK_BODY_BYTES,
  REQUESTS_LIMIT_DEFAULT,
} from "../../core/contract/captures.ts";
import { type EndpointSpec, type HttpMethod, JSON_TYPE } from "../../core/kernel/endpoint.ts";
import { ApiError } from "../../core/kernel/errors.ts";
import { lazyInputValidator } from "../../core/kernel/validation.ts";
import type { CaptureRecord } from "../../ports/capture-store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { type HttpRoute, keyOf } from "../register.ts";
import { FREE, validArgs } from "./route-args.ts";

export function captureRoutes(deps: CoreDeps): HttpRoute[] {
  const checkId = lazyInputValidator(captureIdParameters);
  const checkPage = lazyInputValidator(capturedRequestsParameters);
  return [
    {
      method: "POST",
      path: "/v1/captures",
      operationId: "createCapture",
      summary: "Create a capture",
      description: `A new address that catches real webhook deliveries for this account for \`TOOLRUN_CAPTURE_TTL_S\` (a day by default): paste \`url\` into the provider's dashboard, then read what arrives with \`GET /v1/captures/{id}/requests\`. \`url\` is shown only in this answer. An account holds at most 5 live captures (409 \`capture_limit_reached\` past them). ${FREE}`,
      tag: "Captures",
      keyed: true,
      answers: [
        { status: 201, description: "The capture", contentType: JSON_TYPE, schema: createdCaptureSchema },
      ],
      errors: ["capture_limit_reached"],
      handler: async (request, reply) => reply.code(201).send(await createCapture(deps, keyOf(request))),
    },
    {
      method: "GET",
      path: "/v1/captures",
      operationId: "listCaptures",
      summary: "List captures",
      description: `This account's live captures, newest first, with how many requests each holds (not their URLs: only their tokens' hashes are kept). ${FREE}`,
      tag: "Captures",
      keyed: true,
      answers: [
        { status: 200, description: "Live captures", contentType: JSON_TYPE, schema: captureListSchema },
      ],
      errors: [],
      handler: async (request) => listCaptures(deps, keyOf(request)),
    },
    {
      method: "GET",
      path: "/v1/captures/{id}/requests",
      operationId: "listCapturedRequests",
      summary: "Requests a capture caught",
      description: `The requests the capture caught, newest first, a page at a time (it keeps the last 100). Each \`raw\` is the request as received, the text the webhook inspector takes as \`payload\`: inspecting it is an ordinary inspector call. Another account's capture, or an expired one, is 404 \`capture_not_found\`. ${FREE}`,
      tag: "Captures",
      keyed: true,
      parameters: capturedRequestsParameters,
      answers: [
        {
          status: 200,
          description: "Caught requests",
          contentType: JSON_TYPE,
          schema: capturedRequestsSchema,
        },
      ],
      errors: ["validation_error", "capture_not_found"],
      handler: async (request) => {
        const args = validArgs(checkPage, capturedRequestsParameters, request);
        const cursor = args.cursor as string | undefined;
        return listCapturedRequests(deps, keyOf(request), args.id as string, {
          limit: (args.limit as number | undefined) ?? REQUESTS_LIMIT_DEFAULT,
          cursor: cursor === undefined || cursor === "" ? null : cursor,
        });
      },
    },
    {
      method: "DELETE",
      path: "/v1/captures/{id}",
      operationId: "deleteCapture",
      summary: "Delete a capture",
      description: `Ends the capture at once: its address answers 404 and what it caught is gone. Another account's capture, or an expired one, is 404 \`capture_not_found\`. ${FREE}`,
      tag: "Captures",
      keyed: true,
      parameters: captureIdParameters,
      answers: [
        { status: 200, description: "Deleted", contentType: JSON_TYPE, schema: deletedCaptureSchema },
      ],
      errors: ["validation_error", "capture_not_found"],
      handler: async (request) =>
        deleteCapture(deps, keyOf(request), validArgs(checkId, captureIdParameters, request).id as string),
    },
  ];
}

export const HOOK_PATH = "/hooks/{token}";
/** The methods the OpenAPI document names; the route takes every method Node reads. */
const DOCUMENTED_HOOK_METHODS: readonly HttpMethod[] = ["POST", "PUT", "PATCH", "DELETE", "GET"];

const hookParameters: JsonSchema = {
  type: "object",
  required: ["token"],
  properties: { token: { type: "string", description: "The capture's secret token, from its `url`." } },
};

/** The hook as the OpenAPI document describes it, one operation per common method. */
export const hookEndpoints: readonly EndpointSpec[] = DOCUMENTED_HOOK_METHODS.map((method) => ({
  method,
  path: HOOK_PATH,
  operationId: `captureHook${method[0]}${method.slice(1).toLowerCase()}`,
  summary: `Deliver a webhook to a capture (${method})`,
  description:
    "A capture's address, for the provider: takes any method and body without a key, and keeps the request raw (request line, headers in the order received, body up to 1 MiB as received) in its capture, which keeps the last 100. At most 60 requests a minute per capture (429 `rate_limited` with `Retry-After` past them). An unknown or expired token is 404 `not_found`; a larger body is 413 `payload_too_large`, and nothing is kept.",
  tag: "Captures",
  keyed: false,
  parameters: hookParameters,
  ...(method === "GET"
    ? {}
    : {
        requestBody: {
          contentType: "*/*",
          schema: { type: "string", format: "binary" },
          optional: true,
        },
      }),
  answers: [{ status: 200, description: "Kept", contentType: JSON_TYPE, schema: hookReceivedSchema }],
  errors: ["not_found", "rate_limited", "payload_too_large", "backend_unavailable", "internal_error"],
}));

declare module "fastify" {
  interface FastifyRequest {
    capture: CaptureRecord | null;
  }
}

function bodyTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "FST_ERR_CTP_BODY_TOO_LARGE";
}

/**
 * Registers `/hooks/{token}` for every method the app supports (call after every method is added):
 * the token's capture and its slot are checked as the request arrives, before its body is read.
 */
export function registerHook(app: FastifyInstance, deps: CoreDeps): void {
  app.decorateRequest("capture", null);
  app.route({
    method: app.supportedMethods.filter((method) => method !== "CONNECT"),
    url: "/hooks/:token",
    bodyLimit: MAX_HOOK_BODY_BYTES,
    onRequest: async (request) => {
      request.capture = await admitHook(deps, (request.params as { token: string }).token);
    },
    // The app's handler answers every error; only the body's limit is worded for captures.
    errorHandler: (error) => {
      throw bodyTooLarge(error)
        ? new ApiError(
            "payload_too_large",
            `A capture keeps bodies of at most ${MAX_HOOK_BODY_BYTES} bytes (1 MiB); nothing was kept.`,
          )
        : error;
    },
    handler: async (request) => {
      const capture = request.capture;
      if (capture === null) throw new Error("the hook ran without its capture");
      const { raw } = request;
      return keepHookRequest(deps, capture, {
        method: request.method,
        requestLine: `${raw.method} ${raw.url} HTTP/${raw.httpVersion}`,
        rawHeaders: raw.rawHeaders,
        body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      });
    },
  });
}
