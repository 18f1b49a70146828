/**
 * Which redirect URIs a client may register, whether by RFC 7591 registration or in its client ID
 * metadata document: https anywhere; http only to a loopback host (a desktop client's own
 * listener); an app's own scheme (`cursor://...`, RFC 8252 section 7.1), never a scheme a browser
 * would run or read locally (`javascript:`, `data:`, `file:`, ...). Every redirect URI then
 * matches exactly, port included: the library would let a native client's loopback URI match any
 * port (RFC 8252 section 7.3), so a client is kept a web client unless it registers an app
 * scheme, and an app-scheme client may not also register http: loopback URIs.
 *
 * Run by the library's client metadata validator, before its own checks; a message starting
 * with `redirect_uris` is answered as `invalid_redirect_uri` (RFC 7591 section 3.2.2).
 */
import { errors } from "oidc-provider";
import { isLoopbackHost } from "../../core/oauth/settings.ts";

/** Schemes that run or read something in the browser or on the machine instead of reaching an app. */
const FORBIDDEN_SCHEMES = new Set([
  "javascript:",
  "data:",
  "vbscript:",
  "file:",
  "about:",
  "blob:",
  "filesystem:",
  "view-source:",
  "chrome:",
  "ws:",
  "wss:",
  "ftp:",
  "mailto:",
  "tel:",
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
    if (FORBIDDEN_SCHEMES.has(url.protocol)) refuse(`must not use the ${url.protocol} scheme`);
    appScheme = true;
  }
  if (appScheme && loopbackHttp)
    refuse(
      "may not mix an app's own scheme with http: loopback URIs (an app client's loopback URI would match any port); register them as two clients",
    );
  metadata.application_type = appScheme ? "native" : "web";
}
