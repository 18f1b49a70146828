/**
 * Signatures of senders the provider table does not know. A header that names its scheme
 * (`X-Hub-Signature-256: sha256=...`, ../providers/scheme-headers.ts) is checked as that scheme,
 * so a mismatch is `invalid`. Otherwise every header that looks like a signature (`X-Signature`,
 * `Signature`: ambiguous, their schemes differ by sender) is tried as a plain HMAC of the raw body
 * (SHA-256, SHA-1, SHA-512; hex or base64; with or without an `algo=` prefix): a match proves the
 * secret and the body; no match proves nothing, since the real scheme may sign more than the body.
 */
import { Buffer } from "node:buffer";
import { createSecretKey } from "node:crypto";
import { HEADER_SCHEMES, type HeaderScheme } from "../providers/scheme-headers.ts";
import { type CheckBudget, OUT_OF_BUDGET } from "./budget.ts";
import { checkScheme, type Verification } from "./check-scheme.ts";
import { presentSignatures, type Selected, type SignedRequest, signatureHeader } from "./signed-content.ts";
import { decodeDigest, hmac, sameBytes } from "./signing.ts";

const GUESS_ALGORITHMS = ["sha256", "sha1", "sha512"] as const;

/** The first scheme a signature header of the request names, with its values. */
export function namedScheme(request: SignedRequest): (Selected & { readonly entry: HeaderScheme }) | null {
  for (const entry of HEADER_SCHEMES) {
    const prefix = entry.scheme.format.type === "plain" ? (entry.scheme.format.prefix ?? "") : "";
    const present = presentSignatures(entry.scheme, request).filter(
      (p) => !entry.byPrefix || p.value.trim().toLowerCase().startsWith(prefix.toLowerCase()),
    );
    if (present.length > 0) return { entry, scheme: entry.scheme, present };
  }
  return null;
}

export function verifyUnknownSender(
  secret: string | undefined,
  request: SignedRequest,
  nowMs: number,
  budget: CheckBudget,
): Verification {
  const named = namedScheme(request);
  const header = signatureHeader(named);
  if (named !== null) {
    const names = `The sender was not recognised, but ${header} names its scheme (used by ${named.entry.usedBy}): ${named.scheme.label}.`;
    if (secret === undefined || secret === "") {
      return {
        scheme: named.scheme.id,
        header,
        status: "not_requested",
        reason: `No secret was given. ${names} Send \`secret\` to check it.`,
      };
    }
    const outcome = checkScheme("the sender", named.scheme, named.present, secret, request, nowMs, budget);
    return { scheme: named.scheme.id, header, status: outcome.status, reason: `${outcome.reason} ${names}` };
  }
  if (secret === undefined || secret === "") {
    return {
      scheme: null,
      header: null,
      status: "not_requested",
      reason: "No secret was given, and the sender was not recognised.",
    };
  }
  return guessGeneric(secret, request, budget);
}

function guessGeneric(secret: string, request: SignedRequest, budget: CheckBudget): Verification {
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
  const key = createSecretKey(Buffer.from(secret, "utf8"));
  const macs: (readonly [string, Buffer])[] = [];
  for (const algorithm of GUESS_ALGORITHMS) {
    if (!budget.spend())
      return {
        scheme: null,
        header: candidates[0]?.[0] ?? null,
        status: "unverifiable",
        reason: OUT_OF_BUDGET,
      };
    macs.push([algorithm, hmac(algorithm, key, body)]);
  }
  for (const [name, values] of candidates) {
    const texts = values
      .flatMap((value) => value.split(/[,\s]+/))
      .flatMap((item) => {
        const equals = item.indexOf("=");
        return equals > 0 && equals < 16 ? [item, item.slice(equals + 1)] : [item];
      });
    // Each text decoded once per encoding, not again for every algorithm.
    const decoded = {
      hex: texts.flatMap((text) => decodeDigest(text, "hex") ?? []),
      base64: texts.flatMap((text) => decodeDigest(text, "base64") ?? []),
    };
    for (const [algorithm, mac] of macs) {
      for (const encoding of ["hex", "base64"] as const) {
        if (decoded[encoding].some((bytes) => sameBytes(mac, bytes))) {
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
  const tried = candidates.map(([name]) => name).join(", ");
  return {
    scheme: null,
    header: candidates[0]?.[0] ?? null,
    status: "unverifiable",
    reason: `The sender was not recognised, and its signature header (${tried}) does not name a scheme: senders use such headers differently. Tried: an HMAC of the raw body alone with this secret (SHA-256, SHA-1 and SHA-512; hex and base64; with or without an \`algo=\` prefix); none matches. Its scheme may sign more than the body (a timestamp, the URL), so this proves nothing either way.`,
  };
}
