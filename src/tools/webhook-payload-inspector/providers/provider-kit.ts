/**
 * Small builders for the provider table, so that the common cases (an HMAC of the raw body in one
 * header; the Standard Webhooks and Svix header sets) are written once and every entry stays short.
 * They return plain data of the types in ./provider-types.ts.
 */
import type { HmacScheme, SignalSpec, TokenScheme } from "./provider-types.ts";

const ALGORITHM_NAMES = { sha1: "HMAC-SHA1", sha256: "HMAC-SHA256", sha512: "HMAC-SHA512" } as const;

/** "HMAC-SHA256 of the raw body, hex, `sha256=` prefix" */
export function describeHmac(
  algorithm: HmacScheme["algorithm"],
  encoding: HmacScheme["encoding"],
  prefix?: string,
  of = "the raw body",
): string {
  return `${ALGORITHM_NAMES[algorithm]} of ${of}, ${encoding}${prefix === undefined ? "" : `, \`${prefix}\` prefix`}`;
}

/** The most common scheme: an HMAC of the raw body alone, in one header. */
export function bodyHmac(
  id: string,
  header: string,
  algorithm: HmacScheme["algorithm"],
  encoding: HmacScheme["encoding"],
  prefix?: string,
): HmacScheme {
  return {
    kind: "hmac",
    id,
    label: describeHmac(algorithm, encoding, prefix),
    signature: [{ header }],
    algorithm,
    encoding,
    format: prefix === undefined ? { type: "plain" } : { type: "plain", prefix },
    content: ["body"],
  };
}

export function tokenScheme(id: string, header: string, label: string): TokenScheme {
  return { kind: "token", id, label, signature: [{ header }] };
}

/**
 * Standard Webhooks (`webhook-*` headers) and Svix (`svix-*`): HMAC-SHA256 of `id.timestamp.body`
 * keyed with the base64 after `whsec_`, base64 digests listed as `v1,<sig>`, 5-minute window.
 */
export function standardWebhooksScheme(prefix: "webhook" | "svix", id: string): HmacScheme {
  return {
    kind: "hmac",
    id,
    label: `HMAC-SHA256 of \`${prefix}-id.${prefix}-timestamp.body\` keyed with the base64 key after \`whsec_\`; base64, listed as \`v1,<signature>\``,
    signature: [{ header: `${prefix}-signature` }],
    algorithm: "sha256",
    encoding: "base64",
    format: { type: "list", version: "v1" },
    content: [
      { from: { header: `${prefix}-id` } },
      { text: "." },
      { from: { header: `${prefix}-timestamp` } },
      { text: "." },
      "body",
    ],
    secret: "whsec",
    timestamp: { from: { header: `${prefix}-timestamp` }, unit: "s", toleranceSeconds: 300 },
  };
}

export function standardWebhooksSignals(prefix: "webhook" | "svix"): SignalSpec[] {
  const family = prefix === "svix" ? "Svix" : "Standard Webhooks";
  return [
    [`${prefix}-id`, `Message id, the same on every retry of one event (${family})`],
    [`${prefix}-timestamp`, `Send time in epoch seconds; signed, accepted within 5 minutes (${family})`, "s"],
    [
      `${prefix}-signature`,
      `Space-separated \`v1,<base64>\` signatures: HMAC-SHA256 of \`id.timestamp.body\` (${family})`,
    ],
  ];
}

export const STANDARD_WEBHOOKS = standardWebhooksScheme("webhook", "standard-webhooks-v1");
export const SVIX = standardWebhooksScheme("svix", "svix-v1");
