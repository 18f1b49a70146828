/**
 * Provider table, part 3: chat, messaging, email and meetings. Data only (see ./provider-types.ts).
 */
import { bodyHmac, tokenScheme } from "./provider-kit.ts";
import type { Provider } from "./provider-types.ts";

export const COMMS_PROVIDERS: readonly Provider[] = [
  {
    id: "slack",
    name: "Slack",
    checkedAgainst: "https://api.slack.com/authentication/verifying-requests-from-slack",
    detect: [
      { anyHeader: ["X-Slack-Signature", "X-Slack-Request-Timestamp"] },
      { userAgent: "Slackbot 1.0" },
      {
        body: [
          { path: "api_app_id", exists: true },
          { path: "type", oneOf: ["event_callback", "url_verification", "app_rate_limited"] },
        ],
      },
      { body: [{ path: "response_url", startsWith: "https://hooks.slack.com/" }] },
      {
        body: [
          { path: "payload.api_app_id", exists: true },
          { path: "payload.team", exists: true },
        ],
      },
    ],
    event: [{ body: "event.type" }, { body: "type" }, { body: "payload.type" }, { body: "command" }],
    signals: [
      ["X-Slack-Signature", "HMAC-SHA256 of `v0:timestamp:body`, hex, `v0=` prefix"],
      ["X-Slack-Request-Timestamp", "Slack request timestamp, epoch seconds (signed, 5-minute window)", "s"],
      ["X-Slack-Retry-Num", "Retry attempt number (Events API)"],
      ["X-Slack-Retry-Reason", "Why Slack retried (e.g. http_timeout)"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "slack-v0",
        label: "HMAC-SHA256 of `v0:timestamp:body`, hex, `v0=` prefix; 5-minute window",
        signature: [{ header: "X-Slack-Signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "plain", prefix: "v0=" },
        content: [{ text: "v0:" }, { from: { header: "X-Slack-Request-Timestamp" } }, { text: ":" }, "body"],
        timestamp: { from: { header: "X-Slack-Request-Timestamp" }, unit: "s", toleranceSeconds: 300 },
      },
    ],
  },
  {
    id: "discord",
    name: "Discord",
    checkedAgainst: "https://www.mintlify.com/discord/discord-interactions-js/api/verify-key",
    detect: [{ anyHeader: ["X-Signature-Ed25519", "X-Signature-Timestamp"] }],
    event: [{ body: "event.type" }, { body: "type" }],
    signals: [
      [
        "X-Signature-Ed25519",
        "Ed25519 signature of `timestamp + body`, hex; check it with the application's public key",
      ],
      ["X-Signature-Timestamp", "Signing timestamp, epoch seconds (part of the signed message)", "s"],
    ],
    schemes: [
      {
        kind: "ed25519",
        id: "discord-ed25519",
        label: "Ed25519 of `timestamp + body`, hex (secret: the application's public key, hex)",
        signature: [{ header: "X-Signature-Ed25519" }],
        encoding: "hex",
        content: [{ from: { header: "X-Signature-Timestamp" } }, "body"],
      },
    ],
  },
  {
    id: "twilio",
    name: "Twilio",
    checkedAgainst: "https://github.com/twilio/twilio-node/blob/main/spec/unit/webhooks/webhooks.spec.js",
    detect: [
      { anyHeader: ["X-Twilio-Signature"] },
      { userAgent: "TwilioProxy/" },
      {
        body: [
          { path: "AccountSid", startsWith: "AC" },
          { path: "ApiVersion", exists: true },
        ],
      },
    ],
    event: [{ body: "EventType" }, { body: "MessageStatus" }, { body: "SmsStatus" }, { body: "CallStatus" }],
    signals: [
      [
        "X-Twilio-Signature",
        "HMAC-SHA1 of the full request URL followed by the form fields sorted by name (name then value), base64, keyed with the Auth Token",
      ],
      ["I-Twilio-Idempotency-Token", "Idempotency token, the same on retries"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "twilio-sha1",
        label:
          "HMAC-SHA1 of the full URL followed by the form fields sorted by name, base64, keyed with the Auth Token; a JSON body is covered by the URL's `bodySHA256` (hex SHA-256 of the body)",
        signature: [{ header: "X-Twilio-Signature" }],
        algorithm: "sha1",
        encoding: "base64",
        format: { type: "plain" },
        content: ["url", "sorted-params"],
        bodyHash: { query: "bodySHA256", algorithm: "sha256", encoding: "hex" },
      },
    ],
  },
  {
    id: "sendgrid",
    name: "SendGrid",
    checkedAgainst:
      "https://github.com/sendgrid/sendgrid-nodejs/blob/main/packages/eventwebhook/src/eventwebhook.spec.js",
    detect: [
      { anyHeader: ["X-Twilio-Email-Event-Webhook-Signature", "X-Twilio-Email-Event-Webhook-Timestamp"] },
      {
        body: [
          { path: "[0].sg_event_id", exists: true },
          { path: "[0].event", exists: true },
        ],
      },
    ],
    event: [{ body: "[0].event" }],
    signals: [
      [
        "X-Twilio-Email-Event-Webhook-Signature",
        "ECDSA (P-256, SHA-256) signature of `timestamp + body`, base64; check it with the verification key",
      ],
      [
        "X-Twilio-Email-Event-Webhook-Timestamp",
        "Signing timestamp, epoch seconds (part of the signed message)",
        "s",
      ],
    ],
    schemes: [
      {
        kind: "ecdsa-p256-sha256",
        id: "sendgrid-ecdsa",
        label:
          "ECDSA P-256 / SHA-256 of `timestamp + body`, base64 (secret: the verification key, base64 or PEM)",
        signature: [{ header: "X-Twilio-Email-Event-Webhook-Signature" }],
        encoding: "base64",
        content: [{ from: { header: "X-Twilio-Email-Event-Webhook-Timestamp" } }, "body"],
      },
    ],
  },
  {
    id: "mailgun",
    name: "Mailgun",
    checkedAgainst: "https://github.com/anymail/django-anymail/blob/main/tests/test_mailgun_webhooks.py",
    detect: [
      {
        body: [
          { path: "signature.signature", exists: true },
          { path: "signature.token", exists: true },
          { path: "event-data", exists: true },
        ],
      },
      {
        body: [
          { path: "signature", exists: true },
          { path: "token", exists: true },
          { path: "timestamp", exists: true },
        ],
      },
    ],
    event: [{ body: "event-data.event" }, { body: "event" }],
    signals: [],
    schemes: [
      {
        kind: "hmac",
        id: "mailgun-sha256",
        label:
          "`signature.signature` in the body: HMAC-SHA256 of `timestamp + token` with the webhook signing key, hex",
        signature: [{ body: "signature.signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "plain" },
        content: [{ from: { body: "signature.timestamp" } }, { from: { body: "signature.token" } }],
      },
      {
        kind: "hmac",
        id: "mailgun-legacy-sha256",
        label: "`signature` form field: HMAC-SHA256 of `timestamp + token` with the webhook signing key, hex",
        signature: [{ body: "signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "plain" },
        content: [{ from: { body: "timestamp" } }, { from: { body: "token" } }],
      },
    ],
  },
  {
    id: "postmark",
    name: "Postmark",
    checkedAgainst: "https://postmarkapp.com/email-webhooks",
    // Every outbound event carries MessageID; RecordType and MessageStream came later, so older
    // shapes (the documented delivery and bounce samples have neither) are matched by their own members.
    detect: [
      {
        body: [
          {
            path: "RecordType",
            oneOf: ["Delivery", "Bounce", "SpamComplaint", "Open", "Click", "SubscriptionChange"],
          },
          { path: "MessageID", exists: true },
        ],
      },
      {
        body: [
          { path: "MessageID", exists: true },
          { path: "DeliveredAt", exists: true },
          { path: "Recipient", exists: true },
        ],
      },
      {
        body: [
          { path: "MessageID", exists: true },
          { path: "TypeCode", exists: true },
          { path: "BouncedAt", exists: true },
        ],
      },
      {
        body: [
          { path: "FromFull.Email", exists: true },
          { path: "MessageID", exists: true },
          { path: "MailboxHash", exists: true },
        ],
      },
    ],
    event: [{ body: "RecordType" }],
    signals: [],
    schemes: [],
    unsigned:
      "Postmark does not sign webhooks; put Basic auth credentials in the webhook URL or allow Postmark's IP ranges.",
  },
  {
    id: "mailchimp",
    name: "Mailchimp",
    detect: [
      {
        body: [
          { path: "type", oneOf: ["subscribe", "unsubscribe", "profile", "upemail", "cleaned", "campaign"] },
          { path: "fired_at", exists: true },
        ],
      },
    ],
    event: [{ body: "type" }],
    signals: [],
    schemes: [],
    unsigned: "Mailchimp webhooks are not signed; put a secret in the webhook URL and check it.",
  },
  {
    id: "mandrill",
    name: "Mandrill",
    checkedAgainst: "https://github.com/anymail/django-anymail/blob/main/tests/test_mandrill_webhooks.py",
    detect: [{ anyHeader: ["X-Mandrill-Signature"] }, { body: [{ path: "mandrill_events", exists: true }] }],
    event: [{ body: "mandrill_events[0].event" }],
    signals: [
      [
        "X-Mandrill-Signature",
        "HMAC-SHA1 of the webhook URL followed by the form fields sorted by name, base64, keyed with the webhook key",
      ],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "mandrill-sha1",
        label: "HMAC-SHA1 of the webhook URL followed by the form fields sorted by name, base64",
        signature: [{ header: "X-Mandrill-Signature" }],
        algorithm: "sha1",
        encoding: "base64",
        format: { type: "plain" },
        content: ["url", "sorted-params"],
      },
    ],
  },
  {
    id: "line",
    name: "LINE",
    checkedAgainst: "https://github.com/line/line-bot-sdk-nodejs/blob/master/test/validate-signature.spec.ts",
    detect: [{ anyHeader: ["x-line-signature"] }],
    event: [{ body: "events[0].type" }],
    signals: [["x-line-signature", "HMAC-SHA256 of the raw body with the channel secret, base64"]],
    schemes: [bodyHmac("line-sha256", "x-line-signature", "sha256", "base64")],
  },
  {
    id: "telegram",
    name: "Telegram",
    checkedAgainst: "https://github.com/tdlib/telegram-bot-api/blob/master/telegram-bot-api/WebhookActor.cpp",
    detect: [
      { anyHeader: ["X-Telegram-Bot-Api-Secret-Token"] },
      { body: [{ path: "update_id", exists: true }] },
    ],
    signals: [
      ["X-Telegram-Bot-Api-Secret-Token", "The secret_token given to setWebhook, sent as is (compare it)"],
    ],
    schemes: [
      tokenScheme(
        "telegram-secret-token",
        "X-Telegram-Bot-Api-Secret-Token",
        "The secret token itself, compared with the secret",
      ),
    ],
  },
  {
    id: "zoom",
    name: "Zoom",
    checkedAgainst: "https://developers.zoom.us/docs/api/webhooks",
    detect: [
      { anyHeader: ["x-zm-signature", "x-zm-request-timestamp"] },
      {
        body: [
          { path: "event", exists: true },
          { path: "event_ts", exists: true },
          { path: "payload", exists: true },
        ],
      },
    ],
    event: [{ body: "event" }],
    signals: [
      ["x-zm-signature", "HMAC-SHA256 of `v0:timestamp:body` with the secret token, hex, `v0=` prefix"],
      ["x-zm-request-timestamp", "Signing timestamp, epoch seconds", "s"],
      ["x-zm-trackingid", "Zoom tracking id, for support"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "zoom-v0",
        label: "HMAC-SHA256 of `v0:timestamp:body`, hex, `v0=` prefix",
        signature: [{ header: "x-zm-signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "plain", prefix: "v0=" },
        content: [{ text: "v0:" }, { from: { header: "x-zm-request-timestamp" } }, { text: ":" }, "body"],
      },
    ],
  },
  {
    id: "customer-io",
    name: "Customer.io",
    detect: [{ anyHeader: ["X-CIO-Signature", "X-CIO-Timestamp"] }],
    event: [{ body: "metric" }],
    signals: [
      ["X-CIO-Signature", "HMAC-SHA256 of `v0:timestamp:body` with the webhook signing key, hex"],
      ["X-CIO-Timestamp", "Signing timestamp, epoch seconds", "s"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "customer-io-v0",
        label: "HMAC-SHA256 of `v0:timestamp:body`, hex",
        signature: [{ header: "X-CIO-Signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "plain" },
        content: [{ text: "v0:" }, { from: { header: "X-CIO-Timestamp" } }, { text: ":" }, "body"],
      },
    ],
  },
];
