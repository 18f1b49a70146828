/**
 * Checks one signature scheme against a request with the caller's secret: decodes the secret and
 * the signature, rebuilds what was signed, compares, and judges the signed timestamp and any body
 * hash the signature covers. Says `valid` or `invalid` with the reason, or `unverifiable` when the
 * request lacks what the scheme signs or the check ran out of its budget (budget.ts).
 */
import { Buffer } from "node:buffer";
import { readTime } from "../detect.ts";
import type { DigestFormat, SignatureScheme, TimestampCheck } from "../providers/provider-types.ts";
import { httpDate } from "../timestamps.ts";
import { bodyHashProblem } from "./body-hash.ts";
import { type CheckBudget, MAX_SIGNATURES_CHECKED, OUT_OF_BUDGET } from "./budget.ts";
import {
  buildMessages,
  describeSource,
  type Pairs,
  type Present,
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

export type VerificationStatus = "valid" | "expired" | "invalid" | "unverifiable" | "not_requested";

/** What a mismatch adds for the person debugging it: the signature computed, the one received, why. */
export interface MismatchDetail {
  /** The signature this secret gives over the body as pasted, written as the header writes it. */
  readonly expected?: string;
  /** The (first) signature the request carries, written the same way. */
  readonly received?: string;
  /** Why the body probably is not the bytes that were signed (it was re-serialized). */
  readonly hint?: string;
}

export type Outcome = { status: VerificationStatus; reason: string } & MismatchDetail;

export interface Verification extends MismatchDetail {
  /** Id of the scheme checked (see the docs' scheme table), or null when none applies. */
  readonly scheme: string | null;
  /** Where the signature was read: a header name, or a body or form field. */
  readonly header: string | null;
  readonly status: VerificationStatus;
  readonly reason: string;
  /** The secret does not look like the provider's secrets (Stripe's start with `whsec_`). */
  readonly secretWarning?: string;
}

const MISMATCH =
  "The signature does not match: the secret is wrong or the body was altered (the two cannot be told apart).";

/** `sender` names whose window a stale timestamp falls outside ("Stripe's window"). */
export function checkScheme(
  sender: string,
  scheme: SignatureScheme,
  present: Present[],
  secret: string,
  request: SignedRequest,
  nowMs: number,
  budget: CheckBudget,
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
        // A secret that cannot be what the scheme needs is invalid, never valid.
        return {
          status: "invalid",
          reason: `The secret cannot be the key this scheme needs: \`secret\` must be ${wanted}.`,
        };
      }
      return compare(sender, scheme, present, secret, request, nowMs, budget, {
        verifies: (message, signature) => publicKeyVerifies(scheme.kind, key, message, signature),
      });
    }
    case "digest":
      return compare(sender, scheme, present, secret, request, nowMs, budget, {
        digestOf: (message) => digest(scheme.algorithm, message),
      });
    case "hmac": {
      const key = secretKey(secret, scheme.secret ?? "text");
      if (!key.ok) return { status: "invalid", reason: key.reason };
      return compare(sender, scheme, present, secret, request, nowMs, budget, {
        digestOf: (message) => hmac(scheme.algorithm, key.key, message),
      });
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

/**
 * How a scheme tells a signature of a message: a digest (an HMAC, a hash) is computed once per
 * message and compared with every signature; a public-key signature is verified one by one.
 */
type Matcher =
  | { readonly digestOf: (message: Buffer) => Buffer }
  | { readonly verifies: (message: Buffer, signature: Buffer) => boolean };

/** Whether any signature is one of `messages`; null when the budget ran out first. */
function anyMatches(
  matcher: Matcher,
  messages: readonly Buffer[],
  signatures: readonly Buffer[],
  budget: CheckBudget,
): boolean | null {
  for (const message of messages) {
    if ("digestOf" in matcher) {
      if (!budget.spend()) return null;
      const expected = matcher.digestOf(message);
      if (signatures.some((signature) => sameBytes(expected, signature))) return true;
      continue;
    }
    for (const signature of signatures) {
      if (!budget.spend()) return null;
      if (matcher.verifies(message, signature)) return true;
    }
  }
  return false;
}

/** A match of the signature with this body, and what is wrong with the body hash it covers, if anything. */
type Attempt = Outcome | { readonly matched: boolean; readonly bodyProblem: string | null };

function compare(
  sender: string,
  scheme: ComparedScheme,
  present: Present[],
  secret: string,
  request: SignedRequest,
  nowMs: number,
  budget: CheckBudget,
  matcher: Matcher,
): Outcome {
  const format = "format" in scheme ? scheme.format : ({ type: "plain" } as const);
  const signatures: Buffer[] = [];
  let sent = 0;
  let pairs: Pairs | null = null;
  for (const item of present) {
    const parsed = parseDigests(format, item.value);
    pairs ??= parsed.pairs;
    sent += parsed.digests.length;
    for (const text of parsed.digests) {
      if (signatures.length === MAX_SIGNATURES_CHECKED) break;
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
      ? checkTime(sender, scheme.timestamp, request, pairs, nowMs)
      : null;
  const bodyHash = "bodyHash" in scheme ? scheme.bodyHash : undefined;
  const attempt = (body: string): Attempt => {
    const built = buildMessages(scheme.content, request, secret, pairs, body);
    if (!built.ok) return { status: "unverifiable", reason: built.reason };
    const matched = anyMatches(matcher, built.messages, signatures, budget);
    if (matched === null) return { status: "unverifiable", reason: OUT_OF_BUDGET };
    const bodyProblem = matched && bodyHash !== undefined ? bodyHashProblem(bodyHash, request, body) : null;
    return { matched, bodyProblem };
  };
  let result = attempt(request.body);
  const original = result;
  let note = "";
  if ("matched" in result && (!result.matched || result.bodyProblem !== null)) {
    const trimmed = withoutFinalLineBreak(request.body);
    const retried = trimmed === null ? null : attempt(trimmed);
    // Out of budget: whether the trimmed body matches is not known.
    if (retried !== null && !("matched" in retried)) return retried;
    if (retried !== null && "matched" in retried && retried.matched && retried.bodyProblem === null) {
      result = retried;
      note =
        " (after dropping the body's final line break, which the sender did not sign: probably added when pasting)";
    }
  }
  if (!("matched" in result)) return result;
  const partly =
    sent > MAX_SIGNATURES_CHECKED
      ? ` The header is unusual: only the first ${MAX_SIGNATURES_CHECKED} of its ${sent} signatures were checked.`
      : "";
  const mismatch = (): MismatchDetail =>
    "matched" in original && !original.matched
      ? mismatchDetail(scheme, format, present, secret, request, pairs, matcher, attempt, budget)
      : {};
  if (freshness?.problem !== undefined) {
    // Correctly signed, only too old or too new: told apart from a signature that does not match.
    if (result.matched && freshness.stale)
      return { status: "expired", reason: `The signature matches${note}, but ${freshness.problem}` };
    return result.matched
      ? { status: "invalid", reason: `The signature matches${note}, but ${freshness.problem}` }
      : { status: "invalid", reason: `${MISMATCH}${partly} Also, ${freshness.problem}`, ...mismatch() };
  }
  if (!result.matched) return { status: "invalid", reason: `${MISMATCH}${partly}`, ...mismatch() };
  if (result.bodyProblem !== null) {
    return { status: "invalid", reason: `The signature matches, but ${result.bodyProblem}` };
  }
  return {
    status: "valid",
    reason: `The signature matches${note}: ${scheme.label}.${freshness?.summary ?? ""}`,
  };
}

/** The digest as the signature header writes it: `sha256=<hex>`, `v1=<hex>`, `v1,<base64>`. */
function written(format: DigestFormat, digestText: string): string {
  if (format.type === "plain") return `${format.prefix ?? ""}${digestText}`;
  if (format.type === "list") return `${format.version},${digestText}`;
  return `${format.key}=${digestText}`;
}

/**
 * For a digest scheme that did not match: the signature this secret gives over the body as pasted
 * beside the one received, and a hint when the body looks re-serialized. The hint is certain when
 * the same JSON written another way (pretty-printed with two spaces, or compact) matches; otherwise
 * it says what looks re-serialized: a one-line body from a sender that sends its JSON indented, or
 * keys in alphabetical order.
 */
function mismatchDetail(
  scheme: ComparedScheme,
  format: DigestFormat,
  present: Present[],
  secret: string,
  request: SignedRequest,
  pairs: Pairs | null,
  matcher: Matcher,
  attempt: (body: string) => Attempt,
  budget: CheckBudget,
): MismatchDetail {
  const detail: { expected?: string; received?: string; hint?: string } = {};
  if ("digestOf" in matcher && (scheme.kind === "hmac" || scheme.kind === "digest")) {
    const built = buildMessages(scheme.content, request, secret, pairs, request.body);
    const [message] = built.ok ? built.messages : [];
    const receivedText = parseDigests(format, p0(present).value).digests[0];
    if (message !== undefined && receivedText !== undefined && budget.spend()) {
      detail.expected = written(format, matcher.digestOf(message).toString(scheme.encoding));
      detail.received = written(format, receivedText.trim());
    }
  }
  const hint = reserializedHint(scheme, request.body, attempt);
  if (hint !== null) detail.hint = hint;
  return detail;
}

function reserializedHint(
  scheme: ComparedScheme,
  body: string,
  attempt: (body: string) => Attempt,
): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const rewrites: [string, string][] = [
    ["pretty-printed with two-space indentation", JSON.stringify(parsed, null, 2)],
    ["compact, on one line", JSON.stringify(parsed)],
  ];
  for (const [how, text] of rewrites) {
    if (text === body) continue;
    const outcome = attempt(text);
    if ("matched" in outcome && outcome.matched) {
      return `The signature matches this JSON written ${how}: the body was re-serialized (parsed and written again) after it arrived. Check the raw body exactly as received.`;
    }
  }
  const prettySender = "prettyJson" in scheme && scheme.prettyJson === true;
  if (prettySender && !body.trim().includes("\n")) {
    return "The sender sends its JSON pretty-printed, but this body is on one line: it was probably re-serialized (by JSON.parse and JSON.stringify, or a framework's body parser) before it was pasted. A signature covers the exact bytes, spacing and key order that were sent.";
  }
  const keys = Array.isArray(parsed) ? [] : Object.keys(parsed);
  if (keys.length > 2 && keys.every((key, i) => i === 0 || (keys[i - 1] ?? "") <= key)) {
    return "The body's keys are in alphabetical order, as a serializer that sorts keys writes them: it may have been re-serialized. A signature covers the exact bytes and key order that were sent.";
  }
  return null;
}

interface Freshness {
  readonly problem?: string;
  /** The timestamp is well-formed but outside the window (not missing, not malformed). */
  readonly stale?: boolean;
  readonly summary?: string;
}

function checkTime(
  sender: string,
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
      stale: true,
      problem: `it was signed at ${httpDate(unix)}, ${when}: outside ${sender}'s window of ${window}, so ${sender}'s own check rejects it (an old capture or a replay).`,
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
