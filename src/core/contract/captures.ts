/**
 * Captures: an address (`{public URL}/hooks/{token}`) that catches real webhook deliveries for an
 * account for a while, keeps each request raw, and gives it back as the exact text the webhook
 * inspector takes as `payload`. Inspecting one is an ordinary inspector call by the client. The
 * token is shown once, at creation; only its SHA-256 is stored, as for keys.
 */
import type { CapturedRequestRecord, CaptureRecord } from "../../ports/capture-store.ts";
import type { ApiKeyRecord } from "../../ports/store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import type { CoreDeps } from "../call/deps.ts";
import { countHits, rateLimited } from "../call/rate-limit.ts";
import { ApiError } from "../kernel/errors.ts";
import { hashKey, randomBase62 } from "../kernel/key-format.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { nullable, SCHEMA_DIALECT } from "./schemas.ts";

/** Live captures an account may hold at once. */
export const MAX_LIVE_CAPTURES = 5;
/** Requests a capture keeps; the next one drops the oldest. */
export const KEPT_REQUESTS = 100;
/** Requests a capture takes a minute (across instances: the rate limiter's window). */
export const HOOK_REQUESTS_PER_MINUTE = 60;
/** The largest body a capture keeps: 1 MiB. */
export const MAX_HOOK_BODY_BYTES = 1024 * 1024;
export const REQUESTS_LIMIT_DEFAULT = 20;
export const REQUESTS_LIMIT_MAX = 100;

const TOKEN_LENGTH = 32;
const TOKEN = /^[0-9A-Za-z]{32}$/;
const REQUESTS_CURSOR = "captured_requests";
const MINUTE = { name: "minute", ms: 60_000 };

/** Who owns a capture: the calling key's account, so every key of it sees the account's captures. */
export function accountOf(key: ApiKeyRecord): string {
  return key.accountId;
}

export interface CaptureView {
  id: string;
  created_at: string;
  expires_at: string;
  request_count: number;
}

export interface CreatedCaptureView {
  id: string;
  url: string;
  expires_at: string;
}

export interface CapturedRequestView {
  id: string;
  received_at: string;
  method: string;
  size: number;
  raw: string;
}

function view(record: CaptureRecord): CaptureView {
  return {
    id: record.id,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    request_count: record.requestCount,
  };
}

/**
 * The request as the inspector reads a pasted one: the request line and headers as received, a
 * blank line, then the body as UTF-8 text (a body that is not UTF-8 gets U+FFFD where its bytes
 * are not; `size` still counts the bytes received).
 */
export function rawText(head: string, body: Uint8Array): string {
  return `${head}\r\n\r\n${Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8")}`;
}

function requestView(record: CapturedRequestRecord): CapturedRequestView {
  return {
    id: record.id,
    received_at: record.receivedAt,
    method: record.method,
    size: record.body.length,
    raw: rawText(record.head, record.body),
  };
}

function notFound(): ApiError {
  return new ApiError("capture_not_found", "This account has no live capture with this id.");
}

export async function createCapture(deps: CoreDeps, key: ApiKeyRecord): Promise<CreatedCaptureView> {
  const now = deps.now();
  const token = randomBase62(TOKEN_LENGTH);
  const id = `cap_${randomBase62(16)}`;
  const expiresAt = new Date(now.getTime() + deps.settings.captureTtlS * 1000).toISOString();
  const created = await deps.store.createCapture(
    { id, accountId: accountOf(key), tokenHash: hashKey(token), createdAt: now.toISOString(), expiresAt },
    MAX_LIVE_CAPTURES,
    now.toISOString(),
  );
  if (!created)
    throw new ApiError(
      "capture_limit_reached",
      `This account already has ${MAX_LIVE_CAPTURES} live captures. Delete one (DELETE /v1/captures/{id}) or wait for one to expire.`,
    );
  return { id, url: `${deps.settings.publicUrl}/hooks/${token}`, expires_at: expiresAt };
}

export async function listCaptures(deps: CoreDeps, key: ApiKeyRecord): Promise<{ captures: CaptureView[] }> {
  const records = await deps.store.listCaptures(accountOf(key), deps.now().toISOString());
  return { captures: records.map(view) };
}

export async function listCapturedRequests(
  deps: CoreDeps,
  key: ApiKeyRecord,
  id: string,
  page: { limit: number; cursor: string | null },
): Promise<{ capture_id: string; requests: CapturedRequestView[]; next_cursor: string | null }> {
  const before = page.cursor === null ? null : Number(decodeCursor(REQUESTS_CURSOR, page.cursor));
  const capture = await deps.store.findCapture(accountOf(key), id, deps.now().toISOString());
  if (capture === null) throw notFound();
  // One more than asked tells whether another page follows.
  const records = await deps.store.listCapturedRequests(capture.id, page.limit + 1, before);
  const shown = records.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    capture_id: capture.id,
    requests: shown.map(requestView),
    next_cursor:
      records.length > page.limit && last ? encodeCursor(REQUESTS_CURSOR, String(last.sequence)) : null,
  };
}

export async function deleteCapture(
  deps: CoreDeps,
  key: ApiKeyRecord,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const now = deps.now().toISOString();
  // An expired capture is gone for its owner too, even before the purge removes it.
  const live = await deps.store.findCapture(accountOf(key), id, now);
  if (live === null || !(await deps.store.deleteCapture(accountOf(key), id))) throw notFound();
  return { id, deleted: true };
}

/** What the hook route hands over of a request it received. */
export interface ReceivedRequest {
  readonly method: string;
  /** The request line as received (`POST /hooks/… HTTP/1.1`). */
  readonly requestLine: string;
  /** Names and values alternating, in the order received (Node's `rawHeaders`). */
  readonly rawHeaders: readonly string[];
  readonly body: Uint8Array;
}

/**
 * The live capture behind a hook's token, with a slot of its per-minute window taken: 404
 * `not_found` for an unknown or expired token (the same answer as any address that leads nowhere),
 * 429 past the window. Run before the body is read, so a refused request's body never is.
 */
export async function admitHook(deps: CoreDeps, token: string): Promise<CaptureRecord> {
  const now = deps.now();
  const capture = TOKEN.test(token)
    ? await deps.store.findCaptureByToken(hashKey(token), now.toISOString())
    : null;
  if (capture === null) throw new ApiError("not_found", "No live capture has this address.");
  const decision = await countHits(
    deps.limiter,
    `capture:${capture.id}`,
    MINUTE,
    HOOK_REQUESTS_PER_MINUTE,
    now,
  );
  if (!decision.taken)
    throw rateLimited(
      `A capture takes ${HOOK_REQUESTS_PER_MINUTE} requests a minute. Retry in ${decision.resetSeconds} s.`,
      decision,
    );
  return capture;
}

/** Keeps the request in its capture (dropping the oldest past KEPT_REQUESTS). */
export async function keepHookRequest(
  deps: CoreDeps,
  capture: CaptureRecord,
  received: ReceivedRequest,
): Promise<{ received: true }> {
  const lines = [received.requestLine];
  for (let i = 0; i + 1 < received.rawHeaders.length; i += 2)
    lines.push(`${received.rawHeaders[i]}: ${received.rawHeaders[i + 1]}`);
  const kept = await deps.store.addCapturedRequest(
    capture.id,
    {
      id: `creq_${randomBase62(16)}`,
      receivedAt: deps.now().toISOString(),
      method: received.method,
      head: lines.join("\r\n"),
      body: received.body,
    },
    KEPT_REQUESTS,
  );
  // Deleted between the lookup and now: as if it had been gone a moment earlier.
  if (!kept) throw new ApiError("not_found", "No live capture has this address.");
  return { received: true };
}

const timestamp: JsonSchema = { type: "string", format: "date-time" };
const captureId: JsonSchema = { type: "string", pattern: "^cap_", description: "The capture's id." };

/** An id of the form the service gives: anything else (a NUL byte, say) is a 400 naming `id`. */
const idParameter: JsonSchema = {
  type: "string",
  pattern: "^cap_[0-9A-Za-z]{1,64}$",
  description: "The capture's id (`cap_…`).",
};

export const captureIdParameters: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  additionalProperties: false,
  required: ["id"],
  properties: {
    id: idParameter,
  },
};

export const capturedRequestsParameters: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  additionalProperties: false,
  required: ["id"],
  properties: {
    id: idParameter,
    limit: {
      type: "integer",
      minimum: 1,
      maximum: REQUESTS_LIMIT_MAX,
      default: REQUESTS_LIMIT_DEFAULT,
      description: "Most requests per page.",
    },
    cursor: { type: "string", description: "next_cursor of the previous page." },
  },
};

export const createdCaptureSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["id", "url", "expires_at"],
  properties: {
    id: captureId,
    url: {
      type: "string",
      format: "uri",
      description:
        "Where the provider sends its webhooks: `{TOOLRUN_PUBLIC_URL}/hooks/{token}`. Shown only in this answer (only the token's hash is stored); anyone who has it can send requests to the capture.",
    },
    expires_at: {
      ...timestamp,
      description: "When it stops catching requests (`TOOLRUN_CAPTURE_TTL_S` after creation).",
    },
  },
};

const captureItem: JsonSchema = {
  type: "object",
  required: ["id", "created_at", "expires_at", "request_count"],
  properties: {
    id: captureId,
    created_at: timestamp,
    expires_at: timestamp,
    request_count: {
      type: "integer",
      minimum: 0,
      maximum: KEPT_REQUESTS,
      description: "Requests it holds now.",
    },
  },
};

export const captureListSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["captures"],
  properties: {
    captures: { type: "array", items: captureItem, description: "Live captures, newest first." },
  },
};

export const capturedRequestsSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["capture_id", "requests", "next_cursor"],
  properties: {
    capture_id: captureId,
    requests: {
      type: "array",
      description: "Newest first.",
      items: {
        type: "object",
        required: ["id", "received_at", "method", "size", "raw"],
        properties: {
          id: { type: "string", pattern: "^creq_" },
          received_at: timestamp,
          method: { type: "string" },
          size: { type: "integer", minimum: 0, description: "The body's length in bytes, as received." },
          raw: {
            type: "string",
            description:
              "The request as received: request line, headers in order, a blank line, the body (as UTF-8). Send it as the webhook inspector's `payload`.",
          },
        },
      },
    },
    next_cursor: nullable({ type: "string" }),
  },
};

export const deletedCaptureSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["id", "deleted"],
  properties: { id: captureId, deleted: { type: "boolean", const: true } },
};

export const hookReceivedSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  type: "object",
  required: ["received"],
  properties: { received: { type: "boolean", const: true } },
};
