/**
 * The hooks in front of every keyed endpoint, in the order the interface fixes: schema present
 * (503), key (401), the route's own 404 checks, then one rate-limit slot (429) with its headers.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import { planOf } from "../core/credits.ts";
import type { CoreDeps } from "../core/deps.ts";
import { authenticate } from "../core/keys.ts";
import { takeSlot } from "../core/rate-limit.ts";
import type { Readiness } from "../core/readiness.ts";
import type { ApiKeyRecord } from "../ports/store.ts";

declare module "fastify" {
  interface FastifyRequest {
    apiKey: ApiKeyRecord | null;
  }
}

export function keyOf(request: FastifyRequest): ApiKeyRecord {
  if (request.apiKey === null) throw new Error("keyOf called on a route without the key guard");
  return request.apiKey;
}

/**
 * `beforeSlot` runs after authentication and before the slot is taken: checks that must not
 * cost a slot (an unknown tool slug) throw there.
 */
export function keyGuard(
  deps: CoreDeps,
  readiness: Readiness,
  beforeSlot?: (request: FastifyRequest) => void,
): onRequestHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await readiness.check();
    const key = await authenticate(deps.store, deps.keyPattern, request.headers.authorization, deps.now());
    request.apiKey = key;
    beforeSlot?.(request);
    const slot = await takeSlot(deps.limiter, key.id, planOf(key, deps.settings).rpm, deps.now());
    reply.headers(slot.headers);
  };
}
