/**
 * While the server drains, requests already received finish and any new one (on a kept-alive
 * connection) is refused with a problem document, 503 `shutting_down`, instead of Fastify's own
 * non-problem 503.
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../core/kernel/errors.ts";

export function registerClosingGuard(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async (_request, reply) => {
    if (!closing) return;
    reply.header("connection", "close");
    throw new ApiError(
      "shutting_down",
      "This instance is shutting down. Retry: another instance will answer.",
      {
        headers: { "retry-after": "1" },
      },
    );
  });
}
