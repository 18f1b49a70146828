/**
 * Cryptographic primitives for signature checks, on node:crypto only: HMACs and hashes, decoding
 * the digests providers send, comparisons in constant time, and reading public keys given as the
 * `secret` (Discord's Ed25519 key in hex, SendGrid's P-256 key in base64 or PEM, Travis CI's RSA
 * key in PEM). Nothing here knows about providers.
 */
import { Buffer } from "node:buffer";
import {
  createHash,
  createHmac,
  createPublicKey,
  createSecretKey,
  type KeyObject,
  timingSafeEqual,
  verify,
} from "node:crypto";

export type HashAlgorithm = "sha1" | "sha256" | "sha512";

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The bytes of a hex or base64 digest, or null when it is not well-formed. */
export function decodeDigest(text: string, encoding: "hex" | "base64"): Buffer | null {
  const trimmed = text.trim();
  if (encoding === "hex")
    return HEX.test(trimmed) && trimmed.length % 2 === 0 ? Buffer.from(trimmed, "hex") : null;
  return BASE64.test(trimmed) ? Buffer.from(trimmed, "base64") : null;
}

/** Constant-time equality; digests of different lengths differ (their length is not secret). */
export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Compares two secrets in constant time whatever their lengths, by comparing their SHA-256s. */
export function sameText(a: string, b: string): boolean {
  return timingSafeEqual(digest("sha256", Buffer.from(a, "utf8")), digest("sha256", Buffer.from(b, "utf8")));
}

/** A `KeyObject` key: node:crypto imports a Buffer key on every `createHmac`, a KeyObject once. */
export function hmac(algorithm: HashAlgorithm, key: KeyObject, message: Buffer): Buffer {
  return createHmac(algorithm, key).update(message).digest();
}

export function digest(algorithm: HashAlgorithm, message: Buffer): Buffer {
  return createHash(algorithm).update(message).digest();
}

/**
 * Standard base64, padding optional: what the Standard Webhooks and Svix libraries decode. Node's
 * own decoder skips characters outside the alphabet, so a mistyped secret would decode to some key.
 */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

export type SecretKey =
  | { readonly ok: true; readonly key: KeyObject }
  | { readonly ok: false; readonly reason: string };

/**
 * The HMAC key: the secret's UTF-8 bytes, or for `whsec` the base64 after an optional `whsec_`
 * prefix; a `whsec` secret that is not base64 cannot be the key, so it verifies as invalid.
 */
export function secretKey(secret: string, kind: "text" | "whsec"): SecretKey {
  if (kind === "text") return { ok: true, key: createSecretKey(Buffer.from(secret, "utf8")) };
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  if (encoded === "" || !STRICT_BASE64.test(encoded)) {
    return {
      ok: false,
      reason:
        "The secret is not a valid signing secret for this scheme: after `whsec_` it must be standard base64 (A-Z, a-z, 0-9, `+`, `/`, optional `=` padding), and this one is not, so no signature can match it.",
    };
  }
  return { ok: true, key: createSecretKey(Buffer.from(encoded, "base64")) };
}

/** The DER prefix that wraps a raw 32-byte Ed25519 public key as SubjectPublicKeyInfo. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export function ed25519Key(secret: string): KeyObject | null {
  const text = secret.trim();
  if (!HEX.test(text) || text.length !== 64) return null;
  return tryKey(() =>
    createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(text, "hex")]),
      format: "der",
      type: "spki",
    }),
  );
}

/** A public key given as PEM, or as base64 of its DER SubjectPublicKeyInfo. */
export function publicKey(secret: string): KeyObject | null {
  const text = secret.trim();
  if (text.startsWith("-----BEGIN")) return tryKey(() => createPublicKey(text));
  if (!BASE64.test(text.replace(/\s+/g, ""))) return null;
  return tryKey(() => createPublicKey({ key: Buffer.from(text, "base64"), format: "der", type: "spki" }));
}

function tryKey(make: () => KeyObject): KeyObject | null {
  try {
    return make();
  } catch {
    return null;
  }
}

/** Checks a signature made with the private half of `key`; false for malformed signatures too. */
export function publicKeyVerifies(
  kind: "ed25519" | "ecdsa-p256-sha256" | "rsa-sha1",
  key: KeyObject,
  message: Buffer,
  signature: Buffer,
): boolean {
  try {
    if (kind === "ed25519") return verify(null, message, key, signature);
    return verify(kind === "rsa-sha1" ? "sha1" : "sha256", message, key, signature);
  } catch {
    return false;
  }
}

export type JwtCheck = "valid" | "bad-signature" | "body-mismatch" | "malformed";

/** An HS256 JWT whose `sha256` claim must equal the hex SHA-256 of the body (Netlify). */
export function checkJwtBodyClaim(token: string, secret: string, body: Buffer): JwtCheck {
  const parts = token.trim().split(".");
  if (parts.length !== 3) return "malformed";
  const [header, payload, signature] = parts as [string, string, string];
  let claims: unknown;
  try {
    const head = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as unknown;
    if (typeof head !== "object" || head === null || (head as { alg?: unknown }).alg !== "HS256")
      return "malformed";
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return "malformed";
  }
  const expected = hmac(
    "sha256",
    createSecretKey(Buffer.from(secret, "utf8")),
    Buffer.from(`${header}.${payload}`, "utf8"),
  );
  if (!sameBytes(expected, Buffer.from(signature, "base64url"))) return "bad-signature";
  const claim =
    typeof claims === "object" && claims !== null ? (claims as { sha256?: unknown }).sha256 : undefined;
  if (typeof claim !== "string") return "malformed";
  return sameText(claim.toLowerCase(), digest("sha256", body).toString("hex")) ? "valid" : "body-mismatch";
}
