/**
 * The published contract of the inspector: the request body and `outputs`, both JSON Schema
 * 2020-12 and exact (no unlisted members anywhere), plus the TypeScript shapes that mirror them;
 * docs/tools/webhook-payload-inspector.md describes them. Data only, no behaviour.
 */
import type { JsonSchema } from "../tool.ts";
import type { FormatId, JsonField } from "./body/body.ts";
import type { SignalRow } from "./detect.ts";
import type { Verification } from "./signature/verify.ts";
import type { TimestampKind } from "./timestamps.ts";

export type InspectorInput = {
  readonly payload: string;
  readonly secret?: string;
};

/** The overview rows, in the order the description lists them; every row is always present. */
export const OVERVIEW_PROPERTIES = [
  "Request Line",
  "Format",
  "Content-Type",
  "Body Size",
  "Characters",
  "Header Count",
  "Valid JSON",
  "Depth",
  "Total Keys",
  "Provider",
  "Event Type",
  "Timestamps Found",
] as const;

export type OverviewProperty = (typeof OVERVIEW_PROPERTIES)[number];

/** The value shown where a row does not apply (U+2014 EM DASH). */
export const NOT_APPLICABLE = "—";

export type OverviewRow = { readonly property: OverviewProperty; readonly value: string };

export type TimestampOutputRow = {
  readonly field: string;
  readonly "raw-value": string;
  readonly utc: string;
  readonly unix: number;
  readonly kind: TimestampKind;
};

export type InspectorValues = {
  readonly requestLine: string | null;
  readonly method: string | null;
  readonly target: string | null;
  readonly httpVersion: string | null;
  readonly format: FormatId;
  readonly contentType: string | null;
  readonly bodyBytes: number;
  readonly characters: number;
  readonly headerCount: number;
  readonly validJson: boolean | null;
  /** A form's fields whose value opens with `{` or `[`: whether each parses, and its depth and keys. */
  readonly jsonFields: readonly JsonField[] | null;
  readonly jsonError: string | null;
  readonly depth: number | null;
  readonly totalKeys: number | null;
  readonly providerId: string | null;
  readonly providerName: string | null;
  readonly eventType: string | null;
  readonly timestampsFound: number;
  readonly timestampsTotal: number;
};

export type InspectorOutput = {
  readonly overview: readonly OverviewRow[];
  readonly headers: readonly { readonly header: string; readonly value: string }[];
  readonly signals: readonly SignalRow[];
  readonly timestamps: readonly TimestampOutputRow[];
  readonly formatted: string;
  readonly values: InspectorValues;
  readonly verification: Verification;
  readonly notes: readonly string[];
};

const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

export const inputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  title: "Webhook Payload Inspector input",
  type: "object",
  additionalProperties: false,
  required: ["payload"],
  properties: {
    payload: {
      title: "Raw Webhook Request",
      description:
        "The request as received: an optional request line (`POST /hook HTTP/1.1`), header lines (`Name: value`), a blank line, then the body (JSON, form-encoded, or anything else). A payload that starts with `{` or `[` is all body.",
      type: "string",
    },
    secret: {
      title: "Signing Secret",
      description:
        "Optional. The secret the sender signs with (for public-key schemes, the public key); the detected provider's signature is then checked over the raw body. Never stored or echoed.",
      type: "string",
      writeOnly: true,
    },
  },
};

const nullable = (type: string) => ({ type: [type, "null"] });
const row = (fields: Record<string, JsonSchema>): JsonSchema => ({
  type: "object",
  additionalProperties: false,
  required: Object.keys(fields),
  properties: fields,
});

/** The members every verification has; a mismatch or an odd secret adds the optional ones. */
const VERIFICATION_REQUIRED: Record<string, JsonSchema> = {
  scheme: nullable("string"),
  header: nullable("string"),
  status: {
    enum: ["valid", "expired", "invalid", "unverifiable", "not_requested"],
    description:
      "`expired`: the signature matches, but its signed timestamp is outside the provider's window (a stale capture or a replay), which the provider's own check rejects; `invalid`: it does not match, or is malformed, or the secret cannot be the scheme's key.",
  },
  reason: { type: "string" },
};

export const outputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  title: "Webhook Payload Inspector outputs",
  type: "object",
  additionalProperties: false,
  required: ["overview", "headers", "signals", "timestamps", "formatted", "values", "verification", "notes"],
  properties: {
    overview: {
      description: "Summary rows, always all twelve, in this order; `—` where a row does not apply.",
      type: "array",
      prefixItems: OVERVIEW_PROPERTIES.map((name) =>
        row({ property: { const: name }, value: { type: "string" } }),
      ),
      items: false,
      minItems: OVERVIEW_PROPERTIES.length,
    },
    headers: {
      description: "Every parsed header in the order given; names as written, values trimmed.",
      type: "array",
      items: row({ header: { type: "string" }, value: { type: "string" } }),
    },
    signals: {
      description:
        "Headers that identify the sender, the event, the delivery or a signature, with what they mean.",
      type: "array",
      items: row({ header: { type: "string" }, value: { type: "string" }, meaning: { type: "string" } }),
    },
    timestamps: {
      description: "Timestamp-like values found in the body (at most 1000 rows), in document order.",
      type: "array",
      items: row({
        field: { type: "string" },
        "raw-value": { type: "string" },
        utc: {
          type: "string",
          pattern: "^[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$",
        },
        unix: { type: "integer" },
        kind: { enum: ["iso8601", "iso8601-no-zone", "epoch-seconds", "epoch-milliseconds"] },
      }),
    },
    formatted: {
      description:
        "The body pretty-printed with two-space indentation when it is valid JSON (numbers kept exactly as sent); a form body as a JSON object of its decoded fields; otherwise the body as given.",
      type: "string",
    },
    values: row({
      requestLine: nullable("string"),
      method: nullable("string"),
      target: nullable("string"),
      httpVersion: nullable("string"),
      format: { enum: ["json", "form", "xml", "text", "multipart", "empty"] },
      contentType: nullable("string"),
      bodyBytes: { type: "integer", minimum: 0 },
      characters: { type: "integer", minimum: 0 },
      headerCount: { type: "integer", minimum: 0 },
      validJson: nullable("boolean"),
      jsonFields: {
        description:
          "Form bodies only: each field whose decoded value opens with `{` or `[`, whether it is valid JSON, and its depth and key count.",
        type: ["array", "null"],
        items: row({
          field: { type: "string" },
          valid: { type: "boolean" },
          depth: { type: ["integer", "null"], minimum: 0 },
          totalKeys: { type: ["integer", "null"], minimum: 0 },
        }),
      },
      jsonError: nullable("string"),
      depth: { type: ["integer", "null"], minimum: 0 },
      totalKeys: { type: ["integer", "null"], minimum: 0 },
      providerId: nullable("string"),
      providerName: nullable("string"),
      eventType: nullable("string"),
      timestampsFound: { type: "integer", minimum: 0 },
      timestampsTotal: { type: "integer", minimum: 0 },
    }),
    verification: {
      ...row(VERIFICATION_REQUIRED),
      properties: {
        ...VERIFICATION_REQUIRED,
        expected: {
          type: "string",
          description:
            "When an HMAC or hash signature does not match: the signature this secret gives over the body as sent, written as the header writes it (`sha256=<hex>`, `v1=<hex>`, `v1,<base64>`), to compare with your own code's.",
        },
        received: {
          type: "string",
          description: "Beside `expected`: the request's (first) signature, written the same way.",
        },
        hint: {
          type: "string",
          description:
            "When a JSON body's signature does not match and the body looks re-serialized: the same JSON written another way (pretty-printed, compact) matches; or the sender sends indented JSON and this body is on one line; or its keys are in alphabetical order.",
        },
        secretWarning: {
          type: "string",
          description:
            "The secret does not have the provider's shape (Stripe's endpoint secrets start with `whsec_`). A warning only: the check is made with it as given.",
        },
      },
    },
    notes: {
      description: "What the inspector ignored or assumed while reading the payload.",
      type: "array",
      items: { type: "string" },
    },
  },
};
