/**
 * The shape of one entry of the provider table (./providers.ts). Entries are plain data: how to
 * recognise the sender, where its event name is, what its headers mean and how it signs. Code in
 * ../detect.ts and ../signature/verify.ts interpret them; adding a provider never adds a branch.
 */

/** How a timestamp is written: epoch seconds, epoch milliseconds, either (by size), or ISO 8601. */
export type TimeUnit = "s" | "ms" | "epoch" | "iso";

/** Where a value is read from. Header names match case-insensitively. */
export type ValueSource =
  | { readonly header: string }
  /** A `key=value` item of the signature header itself (Stripe's `t`, Paddle's `ts`). */
  | { readonly pair: string }
  /** A path in the body tree (`signature.timestamp`, `events[0].type`). */
  | { readonly body: string }
  /** A decoded form field, as text (Travis CI signs its `payload` field). */
  | { readonly formField: string };

/** One test on the body tree; a path that is missing fails every test. */
export type BodyCondition =
  | { readonly path: string; readonly exists: true }
  | { readonly path: string; readonly equals: string }
  | { readonly path: string; readonly oneOf: readonly string[] }
  | { readonly path: string; readonly startsWith: string | readonly string[] };

/** A rule holds when every part it names holds. A provider is recognised when any of its rules holds. */
export interface DetectRule {
  /** At least one of these headers is present. */
  readonly anyHeader?: readonly string[];
  /** Every one of these headers is present. */
  readonly allHeaders?: readonly string[];
  /** The User-Agent starts with this text (case-insensitive). */
  readonly userAgent?: string;
  readonly body?: readonly BodyCondition[];
}

/** A header the provider sends: name, what it means to a person, and how to read it as a time. */
export type SignalSpec =
  | readonly [header: string, meaning: string]
  | readonly [header: string, meaning: string, time: TimeUnit];

export type EventSource = { readonly header: string } | { readonly body: string };

/** One piece of the signed message, in order. */
export type ContentPart =
  | "body"
  /** The full request URL, rebuilt from the request line and Host header. */
  | "url"
  | "method"
  /** The secret itself (HubSpot v1/v2 hash it with the body). */
  | "secret"
  /** Form fields sorted by name, each name followed by its value (Twilio, Mandrill). */
  | "sorted-params"
  | { readonly text: string }
  | { readonly from: ValueSource };

/** How the signature header carries its digest(s). */
export type DigestFormat =
  /** The digest alone, after an optional prefix such as `sha256=` or `v0=`. */
  | { readonly type: "plain"; readonly prefix?: string }
  /** `k=v` items split by `separator`; the digests are the values of `key` (Stripe `t=..,v1=..`). */
  | { readonly type: "pairs"; readonly separator: string; readonly key: string }
  /** Space-separated `version,digest` items (Standard Webhooks `v1,<base64>`). */
  | { readonly type: "list"; readonly version: string };

export interface TimestampCheck {
  readonly from: ValueSource;
  readonly unit: TimeUnit;
  /** Deliveries signed further than this from now, either way, are rejected by the provider. */
  readonly toleranceSeconds: number;
}

interface SchemeBase {
  /** Stable id, reported as `verification.scheme`. */
  readonly id: string;
  /** What the signature is, for a person. */
  readonly label: string;
  /** Where the signature is; with several, any one matching is enough (Box's two keys). */
  readonly signature: readonly ValueSource[];
  /** Only when this header has this value (HubSpot's X-HubSpot-Signature-Version). */
  readonly when?: { readonly header: string; readonly equals: string };
}

export interface HmacScheme extends SchemeBase {
  readonly kind: "hmac";
  readonly algorithm: "sha1" | "sha256" | "sha512";
  readonly encoding: "hex" | "base64";
  readonly format: DigestFormat;
  readonly content: readonly ContentPart[];
  /** `whsec`: the secret is `whsec_` + base64 of the key (Standard Webhooks, Svix). Default: its UTF-8 text. */
  readonly secret?: "text" | "whsec";
  readonly timestamp?: TimestampCheck;
  /** A body that is not a form is covered by a hash in this URL query parameter (Twilio's `bodySHA256`). */
  readonly bodyHash?: BodyHashCheck;
  /** The sender writes its JSON indented over several lines (Stripe): a one-line body was re-serialized. */
  readonly prettyJson?: true;
  /** What the sender's secrets look like; a secret that does not is warned about (never refused). */
  readonly secretShape?: SecretShape;
}

export interface SecretShape {
  readonly prefix: string;
  /** What such a secret is, for the warning: "Stripe's endpoint signing secrets". */
  readonly what: string;
}

export interface BodyHashCheck {
  readonly query: string;
  readonly algorithm: "sha256";
  readonly encoding: "hex";
}

/** A plain hash of content that includes the secret (HubSpot v1 and v2). */
export interface DigestScheme extends SchemeBase {
  readonly kind: "digest";
  readonly algorithm: "sha256";
  readonly encoding: "hex";
  readonly content: readonly ContentPart[];
}

/** The header carries the secret itself (GitLab's X-Gitlab-Token, Telegram's secret token). */
export interface TokenScheme extends SchemeBase {
  readonly kind: "token";
}

/** Signed with the provider's private key; the `secret` input is the public key. */
export interface PublicKeyScheme extends SchemeBase {
  readonly kind: "ed25519" | "ecdsa-p256-sha256" | "rsa-sha1";
  readonly encoding: "hex" | "base64";
  readonly content: readonly ContentPart[];
  readonly timestamp?: TimestampCheck;
}

/** A JWT (HS256) whose `sha256` claim is the hex SHA-256 of the body (Netlify). */
export interface JwtScheme extends SchemeBase {
  readonly kind: "jwt-sha256-claim";
}

/** Known, but not checkable with a shared secret here; `reason` says why and what to do instead. */
export interface UnverifiableScheme extends SchemeBase {
  readonly kind: "unverifiable";
  readonly reason: string;
}

export type SignatureScheme =
  | HmacScheme
  | DigestScheme
  | TokenScheme
  | PublicKeyScheme
  | JwtScheme
  | UnverifiableScheme;

export interface Provider {
  readonly id: string;
  readonly name: string;
  /**
   * The public source the header names and signing scheme were checked against while writing the
   * entry. Absent: written from the provider's documentation as remembered, not re-checked.
   */
  readonly checkedAgainst?: string;
  readonly detect: readonly DetectRule[];
  /** Where the event name is; the first that gives a value wins. */
  readonly event?: readonly EventSource[];
  readonly signals: readonly SignalSpec[];
  /** In order of preference; the first whose signature is present in the request is used. */
  readonly schemes: readonly SignatureScheme[];
  /** For providers that do not sign: why, and how their webhooks are protected instead. */
  readonly unsigned?: string;
}
