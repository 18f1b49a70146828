/**
 * The Webhook Payload Inspector tool: a raw webhook request in, its parsed headers, body analysis,
 * sender, event, timestamps, signals and (with a secret) signature check out. Pure: `inspect`
 * takes the clock as an argument so tests can pin it; the tool's `run` passes the current time.
 */
import { type ToolDefinition, UnprocessableInputError } from "../tool.ts";
import { analyzeBody } from "./body/body.ts";
import { buildSignals, detectProvider, eventType, firstHeader, indexHeaders } from "./detect.ts";
import { buildOverview, buildValues } from "./overview.ts";
import { splitRequest } from "./parse.ts";
import { type InspectorInput, type InspectorOutput, inputSchema, outputSchema } from "./schema.ts";
import { type CheckBudget, timeBudget } from "./signature/budget.ts";
import { verifySignature } from "./signature/verify.ts";
import { findTimestamps } from "./timestamps.ts";

const MAX_TIMESTAMP_ROWS = 1000;

export interface InspectOptions {
  /** What the signature check may spend (default: its time budget, from now). */
  readonly signatureBudget?: CheckBudget;
}

export function inspect(input: InspectorInput, nowMs: number, options: InspectOptions = {}): InspectorOutput {
  const payload = input.payload;
  if (payload.trim() === "") {
    throw new UnprocessableInputError(
      "The payload is empty. Paste the raw webhook request: an optional request line and headers, a blank line, then the body.",
    );
  }
  const split = splitRequest(payload);
  const headers = indexHeaders(split.headers);
  const contentType = firstHeader(headers, "Content-Type");
  const body = analyzeBody(split.body, contentType);
  const provider = detectProvider(headers, body.root);
  const event = eventType(provider, headers, body.root);
  const scan = findTimestamps(body.root, MAX_TIMESTAMP_ROWS);
  const notes = [...split.notes, ...body.notes];
  if (scan.total > scan.rows.length) {
    notes.push(`${scan.total} timestamps were found; the first ${scan.rows.length} are listed.`);
  }
  const values = buildValues({
    requestLine: split.requestLine,
    contentType,
    headerCount: split.headers.length,
    body,
    provider,
    eventType: event,
    timestampsFound: scan.rows.length,
    timestampsTotal: scan.total,
  });
  const verification = verifySignature(
    provider,
    input.secret,
    {
      headers,
      requestLine: split.requestLine,
      body: split.body,
      root: body.root,
      formFields: body.formFields,
    },
    nowMs,
    options.signatureBudget ?? timeBudget(),
  );
  return {
    overview: buildOverview(values),
    headers: split.headers.map((header) => ({ header: header.name, value: header.value })),
    signals: buildSignals(provider, split.headers),
    timestamps: scan.rows,
    formatted: body.formatted,
    values,
    verification,
    notes,
  };
}

const GITHUB_PUSH = [
  "POST /webhooks/github HTTP/1.1",
  "Host: hooks.example.com",
  "User-Agent: GitHub-Hookshot/044aadd",
  "Content-Type: application/json",
  "X-GitHub-Event: push",
  "X-GitHub-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958",
  "X-GitHub-Hook-ID: 292430182",
  "X-Hub-Signature-256: sha256=2eac8a41a81d2a1554e65b36444e1b6f27a8be85c6520f7838a7d480ecf31912",
  "",
  '{"ref":"refs/heads/main","repository":{"id":1296269,"full_name":"octocat/Hello-World","created_at":1296068472,"pushed_at":"2024-01-26T19:06:43Z"},"head_commit":{"id":"6113728f27ae82c7b1a177c8d03f9e96e0adf246","timestamp":"2024-01-26T11:06:40-08:00"}}',
].join("\r\n");

const STRIPE_EVENT = [
  "POST /stripe HTTP/1.1",
  "Content-Type: application/json; charset=utf-8",
  "Stripe-Signature: t=1700000000,v1=8bbc74bb34fee5c2124877a54b79c3c4904c26eba48d252053e14c39c4d2a883",
  "",
  '{"id":"evt_1OBd2eLkdIwHu7ix","object":"event","api_version":"2023-10-16","created":1700000000,"livemode":false,"type":"payment_intent.succeeded","data":{"object":{"id":"pi_3OBd2e","amount":2000,"currency":"usd"}}}',
].join("\n");

const SLACK_FORM = [
  "POST /slack/commands HTTP/1.1",
  "Content-Type: application/x-www-form-urlencoded",
  "X-Slack-Request-Timestamp: 1531420618",
  "X-Slack-Signature: v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
  "",
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
].join("\r\n");

export const webhookPayloadInspector = {
  slug: "webhook-payload-inspector",
  name: "Webhook Payload Inspector",
  description:
    "Takes a raw webhook request (optional HTTP request line and headers plus a JSON or form-encoded body). Returns parsed headers, a pretty-printed and validated body, detected content type and size, the sending provider and event type, extracted timestamps and flagged signature headers; with a secret, checks the provider's signature.",
  keywords: [
    "webhook",
    "signature",
    "hmac",
    "verify",
    "github",
    "stripe",
    "slack",
    "shopify",
    "twilio",
    "standard webhooks",
    "svix",
    "headers",
    "payload",
    "json",
    "form",
    "timestamp",
    "debug",
    "inspect",
  ],
  version: "1.2.0",
  defaults: { weight: 5, maxBodyBytes: 1_048_576 },
  // The formatted body, escaped inside the answer, is up to three times the delivery.
  maxOutputBytes: 16 * 1_048_576,
  inputSchema,
  outputSchema,
  examples: [
    {
      title: "GitHub push event with its headers, signature checked",
      input: { payload: GITHUB_PUSH, secret: "It's a Secret to Everybody" },
    },
    {
      title: "Stripe event: the signature matches, but it has expired",
      input: { payload: STRIPE_EVENT, secret: "whsec_test_secret" },
    },
    {
      title: "Slack slash command (form body), Slack's documented signing example",
      input: { payload: SLACK_FORM, secret: "8f742231b10e8888abcd99yyyzzz85a5" },
    },
  ],
  effects: "none",
  run: (input) => inspect(input, Date.now()),
} satisfies ToolDefinition<InspectorInput, InspectorOutput>;
