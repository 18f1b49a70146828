/**
 * What one endpoint promises, declared once and free of any framework: its method and path, its
 * parameters, body and answers as JSON Schema, and the error codes it can answer with. The HTTP
 * routes, the 405 answers, the OpenAPI document and the security tests are all made from these.
 */
import type { JsonSchema } from "../../tools/tool.ts";
import type { ErrorCode } from "./errors.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A response header an answer may carry, as the OpenAPI document describes it. */
export interface ResponseHeader {
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface SuccessAnswer {
  readonly status: number;
  readonly description: string;
  readonly headers?: Readonly<Record<string, ResponseHeader>>;
  /** Absent for answers without content (304). */
  readonly contentType?: string;
  /** Absent for bodies that are not JSON (HTML pages, assets). */
  readonly schema?: JsonSchema;
}

export interface Example {
  readonly summary: string;
  readonly value: unknown;
}

export interface EndpointSpec {
  readonly method: HttpMethod;
  /** OpenAPI form: `/v1/tool/{slug}`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  /** Needs `Authorization: Bearer <API_KEY>` and takes a rate-limit slot. */
  readonly keyed: boolean;
  /** Needs `Authorization: Bearer <admin key>` instead (with `keyed` false): the admin API, no slot. */
  readonly admin?: boolean;
  /** An object schema of the path and query parameters; path ones are the `{name}` segments. */
  readonly parameters?: JsonSchema;
  /** An object schema of the request headers the endpoint reads (beyond `Authorization`). */
  readonly headers?: JsonSchema;
  readonly requestBody?: {
    readonly contentType: string;
    readonly schema: JsonSchema;
    /** The request may come without a body. */
    readonly optional?: boolean;
    readonly examples?: Readonly<Record<string, Example>>;
  };
  readonly answers: readonly SuccessAnswer[];
  /** The codes this endpoint can answer with besides the ones every keyed endpoint shares. */
  readonly errors: readonly ErrorCode[];
}

/** What every keyed endpoint can answer, before its own route runs. */
export const KEYED_ERRORS: readonly ErrorCode[] = [
  "invalid_api_key",
  "rate_limited",
  "api_unconfigured",
  "backend_unavailable",
  "internal_error",
];

/** What every admin endpoint can answer, before its own route runs (the admin key's own window: 429). */
export const ADMIN_ERRORS: readonly ErrorCode[] = [
  "invalid_api_key",
  "rate_limited",
  "api_unconfigured",
  "backend_unavailable",
  "internal_error",
];

/**
 * What any endpoint can answer: a draining instance refuses every new request, and the server
 * itself answers requests it cannot read (bad percent-encoding, no Host, headers over 16 KiB, a
 * client slower than TOOLRUN_REQUEST_TIMEOUT_MS, an Expect it cannot meet) before any route runs.
 */
export const EVERY_ENDPOINT_ERRORS: readonly ErrorCode[] = [
  "malformed_request",
  "expectation_failed",
  "request_timeout",
  "request_header_fields_too_large",
  "shutting_down",
];

/** What an endpoint with a path parameter can also answer: a segment over 100 characters. */
export const PATH_PARAMETER_ERRORS: readonly ErrorCode[] = ["uri_too_long"];

export const JSON_TYPE = "application/json";

/**
 * What a browser gets instead of the `not_found` problem at an address outside the API that leads
 * nowhere, when its Accept header prefers text/html: the console's 404 page.
 */
export const NOT_FOUND_PAGE: SuccessAnswer = {
  status: 404,
  description: "The site's 404 page, to a browser (its Accept prefers text/html).",
  contentType: "text/html",
};
