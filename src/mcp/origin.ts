/**
 * DNS-rebinding protection for the MCP endpoint: a request that carries an `Origin` header must come
 * from an origin the operator allowed. Requests without one (every non-browser client) pass.
 */
import { ApiError } from "../core/errors.ts";

export function checkOrigin(origin: string | undefined, allowed: readonly string[]): void {
  if (origin === undefined) return;
  if (!allowed.includes(normalize(origin))) {
    throw new ApiError(
      "origin_not_allowed",
      `Requests from the origin ${JSON.stringify(origin.slice(0, 200))} are not allowed. The operator lists allowed browser origins in TOOLRUN_ALLOWED_ORIGINS.`,
    );
  }
}

/** The serialized origin (scheme, host, port), so `HTTP://Example.com:80` matches `http://example.com`. */
function normalize(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    // "null" (sandboxed pages, file: URLs) and garbage never match an allowed origin.
    return "";
  }
}
