/**
 * Signature checking for a sender the provider table does not know: try the one scheme most senders
 * share, an HMAC of the raw body (SHA-256, SHA-1 or SHA-512; hex or base64; with or without an
 * `algo=` prefix), on every header that looks like a signature. A match proves the secret and the
 * body; no match proves nothing, since the real scheme may sign more than the body.
 */
import { Buffer } from "node:buffer";
import type { SignedRequest } from "./signed-content.ts";
import { decodeDigest, hmac, sameBytes } from "./signing.ts";
import type { Verification } from "./verify.ts";

const GUESS_ALGORITHMS = ["sha256", "sha1", "sha512"] as const;

export function guessGeneric(secret: string, request: SignedRequest): Verification {
  const candidates = [...request.headers].filter(([name]) => /signature|hmac/.test(name));
  if (candidates.length === 0) {
    return {
      scheme: null,
      header: null,
      status: "unverifiable",
      reason: "The sender was not recognised and no header looks like a signature.",
    };
  }
  const body = Buffer.from(request.body, "utf8");
  const key = Buffer.from(secret, "utf8");
  for (const [name, values] of candidates) {
    const texts = values
      .flatMap((value) => value.split(/[,\s]+/))
      .flatMap((item) => {
        const equals = item.indexOf("=");
        return equals > 0 && equals < 16 ? [item, item.slice(equals + 1)] : [item];
      });
    for (const algorithm of GUESS_ALGORITHMS) {
      const mac = hmac(algorithm, key, body);
      for (const encoding of ["hex", "base64"] as const) {
        if (texts.some((text) => sameBytes(mac, decodeDigest(text, encoding) ?? Buffer.alloc(0)))) {
          return {
            scheme: `generic-hmac-${algorithm}-${encoding}`,
            header: name,
            status: "valid",
            reason: `The sender was not recognised, but ${name} holds the HMAC-${algorithm.toUpperCase()} of the raw body (${encoding}) with this secret.`,
          };
        }
      }
    }
  }
  return {
    scheme: null,
    header: candidates[0]?.[0] ?? null,
    status: "unverifiable",
    reason: `The sender was not recognised, and no signature header holds a plain HMAC (SHA-256, SHA-1 or SHA-512, hex or base64) of the body with this secret; its scheme may sign more than the body.`,
  };
}
