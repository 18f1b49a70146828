/**
 * Checks the detected provider's signature with the caller's secret and explains the outcome.
 * Statuses: `valid`; `invalid` (no match, a stale timestamp, a malformed signature);
 * `unverifiable` (no signature in the request, a scheme that needs what was not pasted, a sender
 * not recognised); `not_requested` (no secret given). Tolerances are measured against `now`.
 */
import { Buffer } from "node:buffer";
import { firstHeader, readTime } from "../detect.ts";
import type { Provider, SignatureScheme, TimestampCheck, ValueSource } from "../providers/provider-types.ts";
import { httpDate } from "../timestamps.ts";
import { guessGeneric } from "./generic-signature.ts";
import {
  buildMessages,
  describeSource,
  type Pairs,
  parseDigests,
  resolveSource,
  type SignedRequest,
  withoutFinalLineBreak,
} from "./signed-content.ts";
import {
  checkJwtBodyClaim,
  decodeDigest,
  digest,
  ed25519Key,
  hmac,
  publicKey,
  publicKeyVerifies,
  sameBytes,
  sameText,
  secretKey,
} from "./signing.ts";

export type VerificationStatus = "valid" | "invalid" | "unverifiable" | "not_requested";

export interface Verification {
  /** Id of the scheme checked (see the docs' scheme table), or null when none applies. */
  readonly scheme: string | null;
  /** Where the signature was read: a header name, or a body or form field. */
  readonly header: string | null;
  readonly status: VerificationStatus;
  readonly reason: string;
}

interface Present {
  readonly source: ValueSource;
  readonly value: string;
}

function selectScheme(
  provider: Provider,
  request: SignedRequest,
): { scheme: SignatureScheme; present: Present[] } | null {
  for (const scheme of provider.schemes) {
    if (scheme.when !== undefined) {
      const value = firstHeader(request.headers, scheme.when.header);
      if (value === null || value.trim().toLowerCase() !== scheme.when.equals.toLowerCase()) continue;
    }
    const present: Present[] = [];
    for (const source of scheme.signature) {
      const value = resolveSource(source, request, null);
      if (value !== null && value.trim() !== "") present.push({ source, value });
    }
    if (present.length > 0) return { scheme, present };
  }
  return null;
}

export function verifySignature(
  provider: Provider | null,
  secret: string | undefined,
  request: SignedRequest,
  nowMs: number,
): Verification {
  const selected = provider === null ? null : selectScheme(provider, request);
  const header = selected === null ? null : describeSource(selected.present[0]?.source ?? { header: "" });
  const expected = [
    ...new Set(provider?.schemes.flatMap((scheme) => scheme.signature.map(describeSource)) ?? []),
  ].join(" or ");
  if (secret === undefined || secret === "") {
    const scheme = selected?.scheme ?? provider?.schemes[0] ?? null;
    let reason: string;
    if (provider === null) reason = "No secret was given, and the sender was not recognised.";
    else if (scheme === null)
      reason = `No secret was given. ${provider.unsigned ?? `${provider.name} does not sign its webhooks.`}`;
    else if (selected === null)
      reason = `No secret was given, and the request has no ${provider.name} signature (${expected}).`;
    else
      reason = `No secret was given; send \`secret\` to check ${provider.name}'s signature (${scheme.label}).`;
    return { scheme: scheme?.id ?? null, header, status: "not_requested", reason };
  }
  if (provider === null) return guessGeneric(secret, request);
  if (provider.schemes.length === 0) {
    return {
      scheme: null,
      header: null,
      status: "unverifiable",
      reason: provider.unsigned ?? `${provider.name} does not sign its webhooks.`,
    };
  }
  if (selected === null) {
    return {
      scheme: provider.schemes[0]?.id ?? null,
      header: null,
      status: "unverifiable",
      reason: `The request has no ${provider.name} signature (${expected}), so there is nothing to check.`,
    };
  }
  const outcome = checkScheme(provider, selected.scheme, selected.present, secret, request, nowMs);
  return { scheme: selected.scheme.id, header, ...outcome };
}

type Outcome = { status: VerificationStatus; reason: string };

const MISMATCH =
  "The signature does not match: the secret is wrong or the body was altered (the two cannot be told apart).";

function checkScheme(
  provider: Provider,
  scheme: SignatureScheme,
  present: Present[],
  secret: string,
  request: SignedRequest,
  nowMs: number,
): Outcome {
  switch (scheme.kind) {
    case "unverifiable":
      return { status: "unverifiable", reason: scheme.reason };
    case "token":
      return present.some((p) => sameText(p.value.trim(), secret))
        ? { status: "valid", reason: `The ${describeSource(p0(present).source)} token equals the secret.` }
        : {
            status: "invalid",
            reason: `The ${describeSource(p0(present).source)} token differs from the secret.`,
          };
    case "jwt-sha256-claim": {
      const result = checkJwtBodyClaim(p0(present).value ?? "", secret, Buffer.from(request.body, "utf8"));
      if (result === "valid")
        return {
          status: "valid",
          reason: `The token is signed with this secret and its \`sha256\` claim matches the body.`,
        };
      if (result === "body-mismatch")
        return {
          status: "invalid",
          reason:
            "The token is signed with this secret, but its `sha256` claim does not match the body: the body was altered.",
        };
      if (result === "bad-signature")
        return { status: "invalid", reason: "The token is not signed with this secret (or it was altered)." };
      return {
        status: "invalid",
        reason: "The signature header is not a well-formed HS256 JWT with a `sha256` claim.",
      };
    }
    case "ed25519":
    case "ecdsa-p256-sha256":
    case "rsa-sha1": {
      const key = scheme.kind === "ed25519" ? ed25519Key(secret) : publicKey(secret);
      if (key === null) {
        const wanted =
          scheme.kind === "ed25519"
            ? "the application's public key as 64 hex characters"
            : "the public key, PEM or base64 DER";
        return { status: "unverifiable", reason: `For this scheme \`secret\` must be ${wanted}.` };
      }
      return compare(provider, scheme, present, secret, request, nowMs, (message, signature) =>
        publicKeyVerifies(scheme.kind, key, message, signature),
      );
    }
    case "digest":
      return compare(provider, scheme, present, secret, request, nowMs, (message, signature) =>
        sameBytes(digest(scheme.algorithm, message), signature),
      );
    case "hmac": {
      const key = secretKey(secret, scheme.secret ?? "text");
      return compare(provider, scheme, present, secret, request, nowMs, (message, signature) =>
        sameBytes(hmac(scheme.algorithm, key, message), signature),
      );
    }
  }
}

function p0(present: Present[]): Present {
  return present[0] ?? { source: { header: "" }, value: "" };
}

type ComparedScheme = Extract<
  SignatureScheme,
  { kind: "hmac" | "digest" | "ed25519" | "ecdsa-p256-sha256" | "rsa-sha1" }
>;

function compare(
  provider: Provider,
  scheme: ComparedScheme,
  present: Present[],
  secret: string,
  request: SignedRequest,
  nowMs: number,
  matches: (message: Buffer, signature: Buffer) => boolean,
): Outcome {
  const format = "format" in scheme ? scheme.format : ({ type: "plain" } as const);
  const signatures: Buffer[] = [];
  let pairs: Pairs | null = null;
  for (const item of present) {
    const parsed = parseDigests(format, item.value);
    pairs ??= parsed.pairs;
    for (const text of parsed.digests) {
      const bytes = decodeDigest(text, scheme.encoding);
      if (bytes !== null) signatures.push(bytes);
    }
  }
  if (signatures.length === 0) {
    return {
      status: "invalid",
      reason: `The ${describeSource(p0(present).source)} value is malformed: expected ${scheme.label}.`,
    };
  }
  const freshness =
    "timestamp" in scheme && scheme.timestamp !== undefined
      ? checkTime(provider, scheme.timestamp, request, pairs, nowMs)
      : null;
  const attempt = (body: string): Outcome | boolean => {
    const built = buildMessages(scheme.content, request, secret, pairs, body);
    if (!built.ok) return { status: "unverifiable", reason: built.reason };
    return built.messages.some((message) => signatures.some((signature) => matches(message, signature)));
  };
  let result = attempt(request.body);
  let note = "";
  if (result === false) {
    const trimmed = withoutFinalLineBreak(request.body);
    if (trimmed !== null && attempt(trimmed) === true) {
      result = true;
      note =
        " (after dropping the body's final line break, which the sender did not sign: probably added when pasting)";
    }
  }
  if (typeof result !== "boolean") return result;
  if (freshness?.problem !== undefined) {
    return result
      ? { status: "invalid", reason: `The signature matches${note}, but ${freshness.problem}` }
      : { status: "invalid", reason: `${MISMATCH} Also, ${freshness.problem}` };
  }
  if (!result) return { status: "invalid", reason: MISMATCH };
  return {
    status: "valid",
    reason: `The signature matches${note}: ${scheme.label}.${freshness?.summary ?? ""}`,
  };
}

interface Freshness {
  readonly problem?: string;
  readonly summary?: string;
}

function checkTime(
  provider: Provider,
  check: TimestampCheck,
  request: SignedRequest,
  pairs: Pairs | null,
  nowMs: number,
): Freshness {
  const raw = resolveSource(check.from, request, pairs);
  const where = describeSource(check.from);
  if (raw === null) return { problem: `the signed timestamp (${where}) is missing.` };
  const unix = readTime(raw, check.unit);
  if (unix === null) return { problem: `the signed timestamp (${where}) "${raw}" is not a time.` };
  const age = Math.round(nowMs / 1000 - unix);
  const window = duration(check.toleranceSeconds);
  const when = age >= 0 ? `${duration(age)} ago` : `${duration(-age)} in the future`;
  if (Math.abs(age) > check.toleranceSeconds) {
    return {
      problem: `it was signed at ${httpDate(unix)}, ${when}: outside ${provider.name}'s window of ${window}, so ${provider.name}'s own check rejects it (an old capture or a replay).`,
    };
  }
  return { summary: ` Signed at ${httpDate(unix)}, ${when}, within the window of ${window}.` };
}

/** "5 minutes", "3 days": the largest whole unit, for people. */
export function duration(seconds: number): string {
  const units: Array<[number, string]> = [
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const count = Math.floor(seconds / size);
      return `${count} ${name}${count === 1 ? "" : "s"}`;
    }
  }
  return "0 seconds";
}
