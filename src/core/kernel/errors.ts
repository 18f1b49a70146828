/**
 * The one catalog of error codes. Throw sites name a code and never pick a status; the HTTP and MCP
 * adapters turn an ApiError into an RFC 9457 problem document with `type` = `{docs_url}/errors/{code}`.
 */

export interface ErrorSpec {
  readonly status: number;
  readonly title: string;
  /** What the code means and what a client should do: served at `/docs/errors/{code}`. */
  readonly explanation: string;
}

export const errorCatalog = {
  validation_error: {
    status: 400,
    title: "The request is invalid",
    explanation:
      "A field is missing, has the wrong type or is out of bounds, or the body is not a JSON object. `fields` maps each bad field to a message (a single string when the failure is not tied to one field, absent when the body is not JSON at all). Fix the request; retrying it unchanged fails the same way. Nothing is charged.",
  },
  payment_signature_invalid: {
    status: 400,
    title: "The payment provider's signature does not verify",
    explanation:
      "A delivery to the Stripe webhook (`POST /v1/billing/stripe/webhook`) has no `Stripe-Signature` header, or one that does not match its body under the webhook's signing secret, or one more than 5 minutes old. Nothing was granted. Check that `TOOLRUN_STRIPE_WEBHOOK_SECRET` is the signing secret of this endpoint in the Stripe dashboard, and that nothing in front of the service rewrites the body.",
  },
  malformed_request: {
    status: 400,
    title: "The request is not valid HTTP",
    explanation:
      "The request line, the path or the headers could not be read: a path that is not valid percent-encoding, an unknown method (or `CONNECT`: this server is not a proxy), a body framed by both `Content-Length` and `Transfer-Encoding`, a missing `Host` header. Fix the client or the proxy in front of it. Nothing is charged.",
  },
  invalid_api_key: {
    status: 401,
    title: "Missing or invalid API key",
    explanation:
      "The request has no `Authorization: Bearer <API_KEY>` header, or the key is malformed, unknown, revoked or rotated away. Send a valid key. Nothing is charged and no rate-limit slot is taken.",
  },
  insufficient_credits: {
    status: 402,
    title: "Not enough credits",
    explanation:
      "The account's monthly allowance and its live grants together hold fewer credits than the call costs. `credits_remaining` says what is left; the allowance renews at 00:00 UTC on the 1st of each month. Nothing is charged.",
  },
  vendor_api_tier_limit_exceeded: {
    status: 402,
    title: "Monthly call limit of this plan reached for this tool",
    explanation:
      "The key's plan caps how many calls of this tool it may make each month, and the cap is reached. Upgrade the plan or wait for the next month. Nothing is charged.",
  },
  tool_not_allowed: {
    status: 403,
    title: "This tool has no API surface",
    explanation:
      "The tool exists but the operator has not made it callable through the API. Nothing is charged.",
  },
  key_read_only: {
    status: 403,
    title: "This API key is read-only",
    explanation:
      "The key's access is `read`: it may make every free read (the catalog, search, a tool's schema, its credits and usage, and the free MCP tools) but no tool call. Use a key with full access, or ask the operator to give this one full access (`toolrun keys update ID --access full`). It took a rate-limit slot; nothing is charged.",
  },
  origin_not_allowed: {
    status: 403,
    title: "Origin not allowed",
    explanation:
      "The request came from a browser page whose origin the operator has not allowed (`TOOLRUN_ALLOWED_ORIGINS`; on a server listening on loopback, pages on localhost, 127.0.0.1 and [::1] are allowed too), or reached a server listening on loopback under a host name that is neither a loopback name nor an allowed origin's. This protects the MCP endpoint against DNS rebinding. Nothing is charged and no rate-limit slot is taken.",
  },
  csrf_token_invalid: {
    status: 403,
    title: "Missing or wrong CSRF token",
    explanation:
      "A state-changing console request (a signed-in member's form or action) came without the CSRF token of the member's session, or with another one: it was not sent by the console's own page. Reload the page and try again. Nothing was changed.",
  },
  tool_not_found: {
    status: 404,
    title: "No tool with that slug",
    explanation:
      "No tool is registered under this slug, or the key is limited to other tools (to such a key a tool outside its list does not exist). `GET /v1/tools/list` gives the catalog this key sees. Nothing is charged and no rate-limit slot is taken.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    explanation: "No resource lives at this path. Check the method and path against the API reference.",
  },
  key_not_found: {
    status: 404,
    title: "No key with that id",
    explanation:
      "Admin API: no customer key has this id. `GET /admin/v1/keys` lists them. Nothing was changed.",
  },
  account_not_found: {
    status: 404,
    title: "No account with that id",
    explanation:
      "Admin API: no account has this id (a key created with `account_id` must name an existing one). `GET /admin/v1/accounts` lists them. Nothing was changed.",
  },
  member_not_found: {
    status: 404,
    title: "No member with that id",
    explanation: "Admin API: no member has this id. `GET /admin/v1/members` lists them. Nothing was changed.",
  },
  authorization_not_found: {
    status: 404,
    title: "No OAuth authorization with that id",
    explanation:
      "Admin API: the key has no OAuth authorization with this id (it was revoked, or ended when the key was rotated or revoked). `GET /admin/v1/keys/{id}/authorizations` lists the ones that act for the key. Nothing was changed.",
  },
  capture_not_found: {
    status: 404,
    title: "No capture with that id",
    explanation:
      "This account has no live capture with this id: it was deleted, it expired (`TOOLRUN_CAPTURE_TTL_S` after its creation, a day by default), or it belongs to another account. `GET /v1/captures` lists the live ones. Nothing was changed.",
  },
  capture_limit_reached: {
    status: 409,
    title: "Too many live captures",
    explanation:
      "The account already has 5 live captures, the most it may hold at once. Delete one it no longer needs (`DELETE /v1/captures/{id}`; `GET /v1/captures` lists them) or wait until one expires, then create the capture again. Nothing was created.",
  },
  billing_disabled: {
    status: 404,
    title: "Buying credits is not set up",
    explanation:
      "This service sells no credits: its operator has not set up Stripe Checkout (`TOOLRUN_STRIPE_SECRET_KEY`, `TOOLRUN_STRIPE_WEBHOOK_SECRET` and `billing.packs` in the configuration file). Ask the operator for a grant instead. Nothing was changed.",
  },
  webhook_not_found: {
    status: 404,
    title: "No webhook endpoint with that id",
    explanation:
      "Admin API: no webhook endpoint has this id (it may have been deleted). `GET /admin/v1/webhooks` lists them. Nothing was changed.",
  },
  webhook_delivery_not_found: {
    status: 404,
    title: "No webhook delivery with that id",
    explanation:
      "Admin API: the webhook endpoint has no delivery with this id. `GET /admin/v1/webhooks/{id}/deliveries` lists its deliveries, newest first. Nothing was changed.",
  },
  key_revoked: {
    status: 409,
    title: "The key is revoked",
    explanation:
      "Admin API: the key was revoked, so it can no longer be updated, rotated, revoked again or granted credits. Create a new key instead. Nothing was changed.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    explanation:
      "The path exists but does not accept this method. The `Allow` header lists the methods it does accept.",
  },
  request_timeout: {
    status: 408,
    title: "The request took too long to arrive",
    explanation:
      "The request's headers or body did not arrive within the server's limit (`TOOLRUN_REQUEST_TIMEOUT_MS`, 30 s by default), so the connection was closed. Nothing is charged. Send the request again, whole.",
  },
  idempotency_key_in_use: {
    status: 409,
    title: "A request with this Idempotency-Key is still running",
    explanation:
      "Another request with the same `Idempotency-Key` (for the same API key's account) has not finished yet. Wait `Retry-After` seconds (1) and send the same request again with the same key: once the first one has finished you get its answer, and you are charged for it only once. Nothing is charged for this answer.",
  },
  expectation_failed: {
    status: 417,
    title: "The Expect header cannot be met",
    explanation:
      "The request has an `Expect` header asking for something other than `100-continue`, the one expectation this server meets, so the request was not read and the connection is closed. Send it again without that header. Nothing is charged.",
  },
  payload_too_large: {
    status: 413,
    title: "Request body too large",
    explanation:
      "The request body is larger than the tool accepts (`limits.max_body_bytes` in `GET /v1/tool/{slug}`), or, at a capture's `/hooks/{token}` address, larger than 1 MiB (nothing is kept). Nothing is charged.",
  },
  uri_too_long: {
    status: 414,
    title: "Path too long",
    explanation:
      "A segment of the path is longer than any name the service uses (100 characters). No tool has such a slug. Nothing is charged.",
  },
  unprocessable_input: {
    status: 422,
    title: "No result for this input",
    explanation:
      "The request is well formed but the tool cannot return a result for it; `detail` says why. The call is refunded: `credits_used` is 0.",
  },
  idempotency_key_mismatch: {
    status: 422,
    title: "This Idempotency-Key was used for another request",
    explanation:
      "An earlier request with the same `Idempotency-Key` asked for something else: another tool, or another body (compared byte for byte). A key stands for one request; retry that request exactly as first sent, or use a new key for a new request. Keys are kept for `TOOLRUN_IDEMPOTENCY_TTL_S` seconds (a day by default). Nothing is charged.",
  },
  job_not_found: {
    status: 404,
    title: "Job not found",
    explanation:
      "No job with this id belongs to the key's account: the id is wrong, belongs to another account, or the job ended more than `TOOLRUN_JOB_TTL_S` (a day unless the operator set it) ago and was purged. Nothing is charged.",
  },
  rate_limited: {
    status: 429,
    title: "Rate limit exceeded",
    explanation:
      "The key used every request of its per-minute window (or, at `POST /oauth/register`, the client's address registered every OAuth client of its hour; at a capture's `/hooks/{token}` address, the capture took its 60 requests of the minute, and this one was not kept). Wait `retry_after` seconds (also in the `Retry-After` header) and retry. Nothing is charged.",
  },
  too_many_jobs: {
    status: 429,
    title: "Too many concurrent jobs",
    explanation:
      "The account already has as many jobs queued or running as its plan allows at once (`maxConcurrentJobs`: 1 on `free`, 5 on `builder`), counted over every instance. Wait for one to end (`GET /v1/jobs?status=running`), or cancel one (`POST /v1/jobs/{id}/cancel`), then retry after `retry_after` seconds (also in the `Retry-After` header). A finished job frees its place at once. It took a rate-limit slot; nothing is charged.",
  },
  too_many_large_calls: {
    status: 429,
    title: "Too many large calls at once",
    explanation:
      "The key already has as many large calls waiting or running as it may (2 unless the operator set `TOOLRUN_COMPUTE_PER_KEY`). Large calls, with a request body of 64 KiB or more, are computed off the main thread one at a time, keys taking turns. Wait for the answers of your earlier calls, or `retry_after` seconds (also in the `Retry-After` header), and send the call again. Nothing is charged.",
  },
  client_closed_request: {
    status: 499,
    title: "The client closed the connection before its call ran",
    explanation:
      "The client closed the connection while its call waited for a worker thread (large bodies are computed off the main thread, one at a time), so the call was dropped: it did not run and nothing is charged, and no usage row is written. Or it closed the connection while a tool with effects outside ran (an HTTP tool, say) and the call had no `Idempotency-Key`: the tool was stopped (its signal fired) and the call refunded, recorded in the usage with status 499. No client receives this answer; the request log and the HTTP metrics record it with status 499, as any request whose connection closed before its answer. Send the call again when you can wait for it, with an `Idempotency-Key` when it acts outside.",
  },
  processing_error: {
    status: 500,
    title: "The tool failed to run",
    explanation:
      "The tool failed while running. The call is refunded (`credits_used` is 0). Retrying may succeed; if it keeps failing, report the `request_id`.",
  },
  request_header_fields_too_large: {
    status: 431,
    title: "Request headers too large",
    explanation:
      "The request line and headers together are larger than the server reads (16 KiB). Send fewer or smaller headers. Nothing is charged.",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    explanation:
      "Something failed inside the service. Any credits held for the call are refunded. Retry with backoff; if it persists, report the `request_id`.",
  },
  tool_disabled: {
    status: 503,
    title: "This tool is temporarily disabled",
    explanation: "The operator has disabled this tool for now. Retry later. Nothing is charged.",
  },
  api_unconfigured: {
    status: 503,
    title: "The API is not configured",
    explanation:
      "The service has no database schema yet (the operator has to run `toolrun migrate`). Retry later. Nothing is charged.",
  },
  payment_provider_unavailable: {
    status: 502,
    title: "The payment provider did not answer",
    explanation:
      "Stripe refused to create the Checkout Session, or could not be reached in time. Nothing was bought or charged. Retry in a moment; if it persists, the operator's Stripe settings (the secret key, the packs' price ids) need a look.",
  },
  backend_unavailable: {
    status: 503,
    title: "A backend is unavailable",
    explanation:
      "The service cannot reach its database or rate-limit store right now. No tool ran and nothing is charged. Retry with backoff; the service recovers by itself when the backend returns.",
  },
  server_busy: {
    status: 503,
    title: "The service is too busy for this call",
    explanation:
      "Either the queue of large calls (a request body of 64 KiB or more) waiting for the worker thread holds as many calls or bytes as the operator allows (`TOOLRUN_COMPUTE_QUEUE`, `TOOLRUN_COMPUTE_QUEUE_BYTES`), so the call did not run; or the call took longer than the operator allows a call to take before its charge (`TOOLRUN_CALL_ABANDON_S`), so its credits were given back and its result is not given. `detail` says which. Nothing is charged. Retry after `Retry-After` seconds.",
  },
  shutting_down: {
    status: 503,
    title: "The instance is shutting down",
    explanation:
      "This instance is stopping and takes no new requests; requests it had already received are finished. No tool ran and nothing is charged. Retry: a load balancer sends the retry to another instance, or this one answers again once restarted.",
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof errorCatalog;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(errorCatalog, value);
}

/** Members beyond RFC 9457's that some codes carry (docs/errors.md lists them by code). */
export interface ProblemExtras {
  fields?: Record<string, string> | string;
  retry_after?: number;
  credits_used?: number;
  credits_remaining?: number;
}

export interface ApiErrorOptions {
  readonly extras?: ProblemExtras;
  /** Response headers the error needs (`Retry-After`, `Allow`, `WWW-Authenticate`...). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
  /** The request this answer belongs to, when not the current one (a replayed answer's first request). */
  readonly requestId?: string;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly extras: ProblemExtras;
  readonly headers: Readonly<Record<string, string>>;
  readonly requestId: string | undefined;

  constructor(code: ErrorCode, detail?: string, options: ApiErrorOptions = {}) {
    super(detail ?? errorCatalog[code].title, { cause: options.cause });
    this.code = code;
    this.status = errorCatalog[code].status;
    this.title = errorCatalog[code].title;
    this.detail = detail;
    this.extras = options.extras ?? {};
    this.headers = options.headers ?? {};
    this.requestId = options.requestId;
  }
}

export interface ProblemDocument extends ProblemExtras {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail?: string;
  request_id?: string;
}

export function problemDocument(
  error: ApiError,
  docsUrl: string,
  requestId: string | undefined,
): ProblemDocument {
  const problem: ProblemDocument = {
    type: `${docsUrl}/errors/${error.code}`,
    title: error.title,
    status: error.status,
    code: error.code,
  };
  if (error.detail !== undefined) problem.detail = error.detail;
  const id = error.requestId ?? requestId;
  if (id !== undefined) problem.request_id = id;
  return { ...problem, ...error.extras };
}
