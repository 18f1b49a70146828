/**
 * DNS-rebinding protection for the MCP endpoint (docs/mcp.md). A request with an
 * `Origin` must come from an origin the operator allowed (`TOOLRUN_ALLOWED_ORIGINS` and the public
 * URL's) or, when the server listens on loopback only, from a page on a loopback name (any port: a
 * local agent UI). On a loopback-bound server the `Host` must also be a loopback name or the host of
 * an allowed origin: a rebound DNS name reaches 127.0.0.1 with its own name in `Host`. Requests
 * without an `Origin` (every non-browser client) pass the origin check.
 */
import { isIP } from "node:net";
import { ApiError } from "../core/kernel/errors.ts";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

export interface OriginPolicy {
  /** Serialized origins (`scheme://host[:port]`) allowed from anywhere. */
  readonly allowedOrigins: readonly string[];
  /** True when every address the server listens on is a loopback address. */
  readonly loopbackBound: boolean;
}

export function checkOrigin(origin: string | undefined, policy: OriginPolicy): void {
  if (origin === undefined) return;
  const url = parse(origin);
  const allowed =
    url !== undefined &&
    (policy.allowedOrigins.includes(url.origin) ||
      (policy.loopbackBound && /^https?:$/.test(url.protocol) && LOOPBACK_NAMES.has(url.hostname)));
  if (!allowed) {
    throw new ApiError(
      "origin_not_allowed",
      "Requests from this origin are not allowed. The operator lists allowed browser origins in TOOLRUN_ALLOWED_ORIGINS.",
    );
  }
}

export function checkHost(host: string | undefined, policy: OriginPolicy): void {
  if (!policy.loopbackBound) return;
  const hostname = host === undefined ? undefined : parse(`http://${host}`)?.hostname;
  const allowed =
    hostname !== undefined &&
    (LOOPBACK_NAMES.has(hostname) ||
      policy.allowedOrigins.some((origin) => parse(origin)?.hostname === hostname));
  if (!allowed) {
    throw new ApiError(
      "origin_not_allowed",
      "This server listens on loopback and answers only requests addressed to a loopback name (localhost, 127.0.0.1, [::1]) or to the host of an allowed origin, not to this Host (DNS rebinding protection).",
    );
  }
}

/** Whether a listening address (as `server.address()` reports it) is a loopback address. */
export function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith("127.");
  return address === "::1" || address.startsWith("::ffff:127.");
}

/** `HTTP://Example.com:80` and `http://example.com` are the same origin; "null" and garbage are none. */
function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
