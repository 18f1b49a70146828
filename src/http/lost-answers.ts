/**
 * A request whose client closes the connection before its answer is written whole gets neither
 * Fastify's onResponse hooks nor its request line: Fastify runs them on the response's `finish`,
 * which then never comes. Such a request may have been charged (its call ran while the client
 * waited), so it must not vanish from the log and the metrics: it is reported here instead.
 * Checked when the answer is about to be written (the connection may have closed while the
 * request ran) and, for an answer large enough to be still on its way after, when the connection
 * closes.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** An answer this size or more may still be leaving when its `onSend` has passed. */
const STILL_LEAVING_BYTES = 64 * 1024;

export type LostAnswerReport = (request: FastifyRequest, reply: FastifyReply) => void;

/** Call from an `onSend` hook, with the payload about to be written. */
export function watchForLostAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  report: LostAnswerReport,
): void {
  const response = reply.raw;
  if (response.destroyed) {
    report(request, reply);
    return;
  }
  if (stillLeavingAfterSend(payload)) {
    response.once("close", () => {
      // `errored`: the response failed, and Fastify has written that line itself.
      if (!response.writableFinished && !response.errored) report(request, reply);
    });
  }
}

/** A large body, or a stream, may still be on its way once Fastify has handed it to the socket. */
function stillLeavingAfterSend(payload: unknown): boolean {
  if (payload === null || payload === undefined) return false;
  if (typeof payload === "string" || Buffer.isBuffer(payload)) return payload.length >= STILL_LEAVING_BYTES;
  return true;
}
