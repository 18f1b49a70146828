/**
 * Idempotent retries: a call sent with an idempotency key claims that key
 * for its account in the same atomic step as its reservation; the answer of a call that ran (200,
 * 422) is stored with its charge or refund and given back, uncharged, to every retry that asks for
 * the same thing; a 500 frees the key instead, so a retry runs again. Which answer a request gets is decided here; the store
 * only keeps the claim and the answer atomically.
 */
import { createHash } from "node:crypto";
import type { IdempotencyClaim, IdempotentRecord, StoredAnswer } from "../../ports/store.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import type { ResponseHeader } from "../kernel/endpoint.ts";
import { ApiError, isErrorCode, type ProblemExtras } from "../kernel/errors.ts";
import { type CallAnswer, type Envelope, jsonText } from "./envelope.ts";

/** Where MCP clients put the key: `params._meta` of `tools/call`. */
export const IDEMPOTENCY_META_KEY = "toolrun/idempotency-key";
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** Where an MCP result says it is a replay (the header's counterpart). */
export const REPLAYED_META_KEY = "toolrun/idempotent-replayed";

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

/** The request header as the OpenAPI document declares it. */
export const idempotencyKeySchema: JsonSchema = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x21-\\x7E]+$",
  description:
    "Makes the call safe to retry: a retry with the same key, tool and body gets the first answer (200 or 422) again, charged once; after a 500 it runs again. 1 to 255 visible ASCII characters, a UUID for example; kept for the account for TOOLRUN_IDEMPOTENCY_TTL_S seconds (a day by default).",
};

/** The header a replayed answer carries. */
export const replayedHeader: Readonly<Record<string, ResponseHeader>> = {
  [REPLAYED_HEADER]: {
    description:
      "`true` when the answer is the stored answer of an earlier request with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
};

/**
 * The key a request sent, checked: undefined when it sent none. `field` names where it came from
 * in the 400 (the header, or the MCP `_meta` member).
 */
export function readIdempotencyKey(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !VISIBLE_ASCII.test(value)) {
    throw new ApiError("validation_error", `${field} must be 1 to 255 visible ASCII characters.`, {
      extras: { fields: { [field]: "must be 1 to 255 visible ASCII characters" } },
    });
  }
  return value;
}

/** What a call asks for, as a retry must repeat it: the tool and the exact body. */
export function fingerprintOf(slug: string, body: Uint8Array | string): string {
  return createHash("sha256").update(slug).update("\n").update(body).digest("base64url");
}

/**
 * The key a call's tool sends outside (`context.idempotencyKey`, an HTTP tool's `Idempotency-Key`):
 * derived from the account (its id, shared by its keys and kept by a rotation) and the client's key, so it
 * is the same on every retry of the call, different for another account using the same key, and
 * says nothing of either to the upstream.
 */
export function outwardKeyOf(accountId: string, clientKey: string): string {
  return createHash("sha256")
    .update("toolrun outward idempotency key\n")
    .update(accountId)
    .update("\n")
    .update(clientKey)
    .digest("base64url");
}

export function claimFor(key: string, fingerprint: string, at: Date, ttlSeconds: number): IdempotencyClaim {
  return { key, fingerprint, expiresAt: new Date(at.getTime() + ttlSeconds * 1000).toISOString() };
}

/**
 * The calls with an idempotency key this instance is running. A retry of one (the same account,
 * key and request) is answered 409 at once, before it waits for anything, the compute offload's
 * share of its key included; across instances the store's claim decides, as always.
 */
export interface KeyedCallsInFlight {
  /**
   * Notes the call as running and returns what ends that; null when the same call is running here
   * already. A call for something else under the same key goes on (the store answers it).
   */
  enter(accountId: string, key: string, fingerprint: string): (() => void) | null;
}

export function createKeyedCallsInFlight(): KeyedCallsInFlight {
  const running = new Map<string, string>();
  const nothing = () => {};
  return {
    enter(accountId, key, fingerprint) {
      const id = `${accountId}\n${key}`;
      const held = running.get(id);
      if (held === fingerprint) return null;
      if (held !== undefined) return nothing;
      running.set(id, fingerprint);
      return () => running.delete(id);
    },
  };
}

/** The answer to a retry of a call still running. */
export function keyInUse(): ApiError {
  return new ApiError(
    "idempotency_key_in_use",
    "A request with this Idempotency-Key is still running. Retry after a second to get its answer.",
    { headers: { "retry-after": "1" } },
  );
}

interface StoredError {
  readonly code: string;
  readonly detail?: string;
  readonly extras: ProblemExtras;
  readonly request_id: string;
}

/**
 * The answer to keep under the key; the first request's id goes with it, in the body it had. A
 * 500 is not kept: the key is freed, so that a retry with it runs again (the tool's failure may
 * have been passing, and the call was refunded).
 */
export function storeAnswer(answer: CallAnswer, requestId: string): StoredAnswer | undefined {
  if (!(answer instanceof ApiError)) {
    // An envelope written as JSON already is kept as such, not parsed to be written again.
    return { status: 200, body: jsonText(answer) ?? JSON.stringify(answer.envelope) };
  }
  if (answer.status >= 500) return undefined;
  const stored: StoredError = { code: answer.code, extras: answer.extras, request_id: requestId };
  return {
    status: answer.status,
    body: JSON.stringify(answer.detail === undefined ? stored : { ...stored, detail: answer.detail }),
  };
}

/**
 * The answer for a request whose key another call holds: the stored answer when it asked for the
 * same thing, else why not. A replay is the first answer whole: a replayed error carries the first
 * request's id (in its body and its `x-request-id`) and the replay header.
 */
export function answerForClaimed(existing: IdempotentRecord, fingerprint: string): CallAnswer {
  if (existing.fingerprint !== fingerprint) {
    return new ApiError(
      "idempotency_key_mismatch",
      "This Idempotency-Key was used for another request (a different tool or body). Use a new key for a new request.",
    );
  }
  if (existing.answer === null) return keyInUse();
  return replay(existing.answer);
}

/** True for a replayed error answer (an ApiError built by replay below). */
export function isReplayedError(error: ApiError): boolean {
  return error.headers[REPLAYED_HEADER.toLowerCase()] === "true";
}

/** A 409 or 422 about the key itself, as opposed to a replayed answer. */
export function isIdempotencyRefusal(answer: CallAnswer): boolean {
  return (
    answer instanceof ApiError &&
    (answer.code === "idempotency_key_in_use" || answer.code === "idempotency_key_mismatch")
  );
}

function replay(answer: StoredAnswer): CallAnswer {
  if (answer.status === 200) return { envelope: JSON.parse(answer.body) as Envelope, replayed: true };
  const stored = JSON.parse(answer.body) as StoredError;
  if (!isErrorCode(stored.code)) throw new Error(`stored answer with unknown code ${stored.code}`);
  return new ApiError(stored.code, stored.detail, {
    extras: stored.extras,
    headers: { [REPLAYED_HEADER.toLowerCase()]: "true", "x-request-id": stored.request_id },
    requestId: stored.request_id,
  });
}
