/**
 * Which redirect URIs a client may register, whether by RFC 7591 registration or in its client ID
 * metadata document, by allow list: https anywhere; http only to a loopback host (a desktop
 * client's own listener); and an app's own private-use scheme only in reverse-domain form
 * (`com.example.app:/callback`, RFC 8252 section 7.1), a name only its app's maker would claim.
 * Any other scheme is refused: a single-word scheme may be one the operating system hands to a
 * program of its own (`ms-msdt:`, `search-ms:`, `shell:`), and a browser runs or reads some itself
 * (`javascript:`, `data:`, `file:`). The one-word schemes that known MCP hosts register for their
 * own callback are named in KNOWN_HOST_SCHEMES, so those hosts can still sign in. Every redirect URI then matches exactly, port included: the
 * library would let a native client's loopback URI match any port (RFC 8252 section 7.3), so a
 * client is kept a web client unless it registers an app scheme, and an app-scheme client may
 * not also register http: loopback URIs.
 *
 * Run by the library's client metadata validator, before its own checks; a message starting
 * with `redirect_uris` is answered as `invalid_redirect_uri` (RFC 7591 section 3.2.2).
 */
import { errors } from "oidc-provider";
import { isLoopbackHost } from "../../core/oauth/settings.ts";

/** A private-use scheme in reverse-domain form: two or more dot-separated labels (`com.example.app:`). */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+:$/;

/** One-word schemes that a known MCP host registers for its own OAuth callback. */
const KNOWN_HOST_SCHEMES: ReadonlySet<string> = new Set([
  // Cursor: cursor://anysphere.cursor-mcp/oauth/callback
  "cursor:",
]);

function refuse(message: string): never {
  throw new errors.InvalidClientMetadata(`redirect_uris ${message}`);
}

/** Checks `metadata.redirect_uris` and sets `application_type` to what keeps matching exact. */
export function applyRedirectPolicy(metadata: Record<string, unknown>): void {
  const uris = metadata.redirect_uris;
  // Missing or malformed lists are the library's to refuse, with its own message.
  if (!Array.isArray(uris) || !uris.every((uri): uri is string => typeof uri === "string")) return;
  let appScheme = false;
  let loopbackHttp = false;
  for (const uri of uris) {
    const url = URL.parse(uri);
    if (url === null) refuse(`must be absolute URIs; "${uri}" is not one`);
    if (url.protocol === "https:") continue;
    if (url.protocol === "http:") {
      if (!isLoopbackHost(url.hostname))
        refuse(
          `may use http: only for a loopback host (localhost, 127.0.0.1, [::1]); use https for "${uri}"`,
        );
      loopbackHttp = true;
      continue;
    }
    if (!REVERSE_DOMAIN_SCHEME.test(url.protocol) && !KNOWN_HOST_SCHEMES.has(url.protocol))
      refuse(
        `must use https, http: to a loopback host, or an app's own scheme in reverse-domain form (com.example.app:)`,
      );
    appScheme = true;
  }
  if (appScheme && loopbackHttp)
    refuse(
      "may not mix an app's own scheme with http: loopback URIs (an app client's loopback URI would match any port); register them as two clients",
    );
  metadata.application_type = appScheme ? "native" : "web";
}
