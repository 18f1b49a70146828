/**
 * Provider table, part 4: work tools, CRM, content, forms, scheduling, storage, streaming and
 * analytics. Data only (see ./provider-types.ts).
 */
import { bodyHmac } from "./provider-kit.ts";
import type { HmacScheme, Provider } from "./provider-types.ts";

/** `t=<time>,v1=<hex>` over `t.body` (Stripe's layout, reused by Mux, Calendly and WorkOS). */
function timestampedPairs(
  id: string,
  header: string,
  unit: "s" | "epoch",
  toleranceSeconds: number,
): HmacScheme {
  return {
    kind: "hmac",
    id,
    label: `HMAC-SHA256 of \`t.body\`, hex, as \`t=<time>,v1=<hex>\`; ${toleranceSeconds / 60}-minute window`,
    signature: [{ header }],
    algorithm: "sha256",
    encoding: "hex",
    format: { type: "pairs", separator: ",", key: "v1" },
    content: [{ from: { pair: "t" } }, { text: "." }, "body"],
    timestamp: { from: { pair: "t" }, unit, toleranceSeconds },
  };
}

export const SAAS_PROVIDERS: readonly Provider[] = [
  {
    id: "linear",
    name: "Linear",
    checkedAgainst: "https://linear.app/docs/api/sdk-webhooks",
    detect: [
      { anyHeader: ["Linear-Signature", "Linear-Delivery", "Linear-Event"] },
      { userAgent: "Linear-Webhook" },
      {
        body: [
          { path: "webhookTimestamp", exists: true },
          { path: "webhookId", exists: true },
          { path: "organizationId", exists: true },
        ],
      },
    ],
    event: [{ header: "Linear-Event" }, { body: "type" }],
    signals: [
      ["Linear-Signature", "HMAC-SHA256 of the raw body with the webhook's signing secret, hex"],
      ["Linear-Delivery", "Delivery id (UUID)"],
      ["Linear-Event", "Entity type (Issue, Comment, Project...)"],
    ],
    schemes: [
      {
        ...bodyHmac("linear-sha256", "Linear-Signature", "sha256", "hex"),
        label: "HMAC-SHA256 of the raw body, hex; the body's `webhookTimestamp` (ms) must be within a minute",
        timestamp: { from: { body: "webhookTimestamp" }, unit: "ms", toleranceSeconds: 60 },
      },
    ],
  },
  {
    id: "jira",
    name: "Jira",
    detect: [
      { anyHeader: ["X-Atlassian-Webhook-Identifier"] },
      {
        body: [
          { path: "webhookEvent", exists: true },
          { path: "timestamp", exists: true },
        ],
      },
    ],
    event: [{ body: "webhookEvent" }],
    signals: [
      ["X-Atlassian-Webhook-Identifier", "Webhook delivery id, the same on retries"],
      ["X-Atlassian-Webhook-Retry", "Retry count"],
      ["X-Hub-Signature", "HMAC-SHA256 of the raw body with the webhook secret, hex, `sha256=` prefix"],
    ],
    schemes: [bodyHmac("jira-sha256", "X-Hub-Signature", "sha256", "hex", "sha256=")],
  },
  {
    id: "hubspot",
    name: "HubSpot",
    checkedAgainst: "https://developers.hubspot.com/docs/api/webhooks/validating-requests",
    detect: [
      { anyHeader: ["X-HubSpot-Signature", "X-HubSpot-Signature-v3", "X-HubSpot-Request-Timestamp"] },
      {
        body: [
          { path: "[0].subscriptionType", exists: true },
          { path: "[0].portalId", exists: true },
        ],
      },
    ],
    event: [{ body: "[0].subscriptionType" }],
    signals: [
      [
        "X-HubSpot-Signature-v3",
        "HMAC-SHA256 of method + URL + body + timestamp with the app's client secret, base64",
      ],
      ["X-HubSpot-Request-Timestamp", "Signing time, epoch milliseconds (5-minute window)", "ms"],
      [
        "X-HubSpot-Signature",
        "SHA-256, hex, of client secret + body (v1) or client secret + method + URL + body (v2)",
      ],
      ["X-HubSpot-Signature-Version", "Which scheme X-HubSpot-Signature uses (v1 or v2)"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "hubspot-v3",
        label: "HMAC-SHA256 of method + URL + body + timestamp, base64; 5-minute window",
        signature: [{ header: "X-HubSpot-Signature-v3" }],
        algorithm: "sha256",
        encoding: "base64",
        format: { type: "plain" },
        content: ["method", "url", "body", { from: { header: "X-HubSpot-Request-Timestamp" } }],
        timestamp: { from: { header: "X-HubSpot-Request-Timestamp" }, unit: "ms", toleranceSeconds: 300 },
      },
      {
        kind: "digest",
        id: "hubspot-v2",
        label: "SHA-256 of client secret + method + URL + body, hex",
        signature: [{ header: "X-HubSpot-Signature" }],
        when: { header: "X-HubSpot-Signature-Version", equals: "v2" },
        algorithm: "sha256",
        encoding: "hex",
        content: ["secret", "method", "url", "body"],
      },
      {
        kind: "digest",
        id: "hubspot-v1",
        label: "SHA-256 of client secret + body, hex",
        signature: [{ header: "X-HubSpot-Signature" }],
        algorithm: "sha256",
        encoding: "hex",
        content: ["secret", "body"],
      },
    ],
  },
  {
    id: "intercom",
    name: "Intercom",
    checkedAgainst:
      "https://developers.intercom.com/intercom-api-reference/v1.0/reference/signed-notifications",
    detect: [
      { anyHeader: ["X-Hub-Signature"], body: [{ path: "type", equals: "notification_event" }] },
      {
        body: [
          { path: "type", equals: "notification_event" },
          { path: "topic", exists: true },
          { path: "app_id", exists: true },
        ],
      },
    ],
    event: [{ body: "topic" }],
    signals: [
      [
        "X-Hub-Signature",
        "HMAC-SHA1 of the raw body with the app's client secret (a subscription's `hub_secret` in API 1.0), hex, `sha1=` prefix",
      ],
    ],
    schemes: [bodyHmac("intercom-sha1", "X-Hub-Signature", "sha1", "hex", "sha1=")],
  },
  {
    id: "zendesk",
    name: "Zendesk",
    checkedAgainst: "https://developer.zendesk.com/documentation/webhooks/verifying/",
    detect: [{ anyHeader: ["X-Zendesk-Webhook-Signature", "X-Zendesk-Webhook-Id"] }],
    event: [{ body: "type" }],
    signals: [
      [
        "X-Zendesk-Webhook-Signature",
        "HMAC-SHA256 of `timestamp + body` with the webhook signing secret, base64",
      ],
      ["X-Zendesk-Webhook-Signature-Timestamp", "Signing timestamp (part of the signed string)", "iso"],
      ["X-Zendesk-Webhook-Id", "Webhook id"],
      ["X-Zendesk-Webhook-Invocation-Id", "Invocation id, one per event and the same on retries"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "zendesk-sha256",
        label: "HMAC-SHA256 of `timestamp + body`, base64",
        signature: [{ header: "X-Zendesk-Webhook-Signature" }],
        algorithm: "sha256",
        encoding: "base64",
        format: { type: "plain" },
        content: [{ from: { header: "X-Zendesk-Webhook-Signature-Timestamp" } }, "body"],
      },
    ],
  },
  {
    id: "notion",
    name: "Notion",
    checkedAgainst: "https://developers.notion.com/reference/v2-webhooks",
    detect: [
      { anyHeader: ["X-Notion-Signature"] },
      {
        body: [
          { path: "workspace_id", exists: true },
          { path: "subscription_id", exists: true },
          { path: "integration_id", exists: true },
        ],
      },
    ],
    event: [{ body: "type" }],
    signals: [
      [
        "X-Notion-Signature",
        "HMAC-SHA256 of the raw body keyed with the subscription's verification_token, hex, `sha256=` prefix",
      ],
    ],
    schemes: [bodyHmac("notion-sha256", "X-Notion-Signature", "sha256", "hex", "sha256=")],
  },
  {
    id: "typeform",
    name: "Typeform",
    checkedAgainst: "https://www.typeform.com/developers/webhooks/secure-your-webhooks/",
    detect: [
      { anyHeader: ["Typeform-Signature"] },
      {
        body: [
          { path: "event_type", equals: "form_response" },
          { path: "form_response.form_id", exists: true },
        ],
      },
    ],
    event: [{ body: "event_type" }],
    signals: [
      ["Typeform-Signature", "HMAC-SHA256 of the raw body with the webhook secret, base64, `sha256=` prefix"],
    ],
    schemes: [bodyHmac("typeform-sha256", "Typeform-Signature", "sha256", "base64", "sha256=")],
  },
  {
    id: "calendly",
    name: "Calendly",
    checkedAgainst: "https://developer.calendly.com/api-docs/overview/webhooks/webhook-signatures",
    detect: [
      { anyHeader: ["Calendly-Webhook-Signature"] },
      {
        body: [
          { path: "event", startsWith: ["invitee.", "routing_form_submission."] },
          { path: "created_by", startsWith: "https://api.calendly.com/" },
        ],
      },
    ],
    event: [{ body: "event" }],
    signals: [
      [
        "Calendly-Webhook-Signature",
        "Signed timestamp `t` and `v1` signature: HMAC-SHA256 of `t.body`, hex; 3-minute window",
      ],
    ],
    schemes: [timestampedPairs("calendly-v1", "Calendly-Webhook-Signature", "s", 180)],
  },
  {
    id: "cal-com",
    name: "Cal.com",
    checkedAgainst:
      "https://github.com/calcom/cal.com/blob/main/packages/features/webhooks/lib/sendPayload.ts",
    detect: [
      { anyHeader: ["X-Cal-Signature-256"] },
      {
        body: [
          { path: "triggerEvent", exists: true },
          { path: "createdAt", exists: true },
          { path: "payload", exists: true },
        ],
      },
    ],
    event: [{ body: "triggerEvent" }],
    signals: [
      [
        "X-Cal-Signature-256",
        "HMAC-SHA256 of the raw body with the webhook secret, hex (`no-secret-provided` when the webhook has none)",
      ],
    ],
    schemes: [bodyHmac("cal-com-sha256", "X-Cal-Signature-256", "sha256", "hex")],
  },
  {
    id: "box",
    name: "Box",
    checkedAgainst: "https://developer.box.com/guides/webhooks/v2/",
    detect: [
      { anyHeader: ["BOX-DELIVERY-ID", "BOX-DELIVERY-TIMESTAMP", "BOX-SIGNATURE-PRIMARY"] },
      { userAgent: "Box-WH-Client/" },
    ],
    event: [{ body: "trigger" }],
    signals: [
      ["BOX-DELIVERY-ID", "Delivery id (changes on retries; the body's id does not)"],
      ["BOX-DELIVERY-TIMESTAMP", "Send time, RFC 3339 (signed, 10-minute window)", "iso"],
      [
        "BOX-SIGNATURE-PRIMARY",
        "HMAC-SHA256 of the raw body followed by the delivery timestamp, with the primary key, base64",
      ],
      ["BOX-SIGNATURE-SECONDARY", "The same with the secondary key"],
      ["BOX-SIGNATURE-VERSION", "Signature version (always 1)"],
      ["BOX-SIGNATURE-ALGORITHM", "Signature algorithm (always HmacSHA256)"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "box-sha256",
        label:
          "HMAC-SHA256 of the raw body followed by the delivery timestamp, base64, with either key; 10-minute window",
        signature: [{ header: "BOX-SIGNATURE-PRIMARY" }, { header: "BOX-SIGNATURE-SECONDARY" }],
        algorithm: "sha256",
        encoding: "base64",
        format: { type: "plain" },
        content: ["body", { from: { header: "BOX-DELIVERY-TIMESTAMP" } }],
        timestamp: { from: { header: "BOX-DELIVERY-TIMESTAMP" }, unit: "iso", toleranceSeconds: 600 },
      },
    ],
  },
  {
    id: "dropbox",
    name: "Dropbox",
    checkedAgainst: "https://github.com/dropbox/mdwebhook/blob/master/app.py",
    detect: [
      { anyHeader: ["X-Dropbox-Signature"] },
      { body: [{ path: "list_folder.accounts", exists: true }] },
    ],
    signals: [["X-Dropbox-Signature", "HMAC-SHA256 of the raw body with the app secret, hex"]],
    schemes: [bodyHmac("dropbox-sha256", "X-Dropbox-Signature", "sha256", "hex")],
  },
  {
    id: "contentful",
    name: "Contentful",
    checkedAgainst:
      "https://github.com/contentful/node-apps-toolkit/blob/master/src/requests/sign-request.ts",
    detect: [{ anyHeader: ["X-Contentful-Topic", "X-Contentful-Webhook-Name"] }],
    event: [{ header: "X-Contentful-Topic" }],
    signals: [
      ["X-Contentful-Topic", "Topic (e.g. ContentManagement.Entry.publish)"],
      ["X-Contentful-Webhook-Name", "Name of the webhook"],
      [
        "X-Contentful-Signature",
        "HMAC-SHA256 of `method\\npath\\nsigned headers as name:value;...\\nbody`, hex",
      ],
      ["X-Contentful-Timestamp", "Signing time, epoch milliseconds", "ms"],
      ["X-Contentful-Signed-Headers", "The headers included in the signature"],
    ],
    schemes: [
      {
        kind: "unverifiable",
        id: "contentful-canonical",
        label: "HMAC-SHA256 of a canonical request (method, path, signed headers, body), hex",
        signature: [{ header: "X-Contentful-Signature" }],
        reason:
          "Contentful signs a canonical form of the whole request; check it with Contentful's node-apps-toolkit (verifyRequest).",
      },
    ],
  },
  {
    id: "webflow",
    name: "Webflow",
    checkedAgainst: "https://developers.webflow.com/data/v1.0.0/docs/verifying-webhook-signatures",
    detect: [{ anyHeader: ["x-webflow-signature", "x-webflow-timestamp"] }],
    event: [{ body: "triggerType" }],
    signals: [
      ["x-webflow-signature", "HMAC-SHA256 of `timestamp:body` with the webhook secret, hex"],
      ["x-webflow-timestamp", "Signing time, epoch milliseconds (5-minute window)", "ms"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "webflow-sha256",
        label: "HMAC-SHA256 of `timestamp:body`, hex; 5-minute window",
        signature: [{ header: "x-webflow-signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "plain" },
        content: [{ from: { header: "x-webflow-timestamp" } }, { text: ":" }, "body"],
        timestamp: { from: { header: "x-webflow-timestamp" }, unit: "ms", toleranceSeconds: 300 },
      },
    ],
  },
  {
    id: "pagerduty",
    name: "PagerDuty",
    checkedAgainst: "https://github.com/PagerDuty/go-pagerduty/blob/main/webhookv3/webhookv3_test.go",
    detect: [
      { anyHeader: ["X-PagerDuty-Signature"] },
      { userAgent: "PagerDuty-Webhook/" },
      {
        body: [
          { path: "event.event_type", exists: true },
          { path: "event.resource_type", exists: true },
        ],
      },
    ],
    event: [{ body: "event.event_type" }],
    signals: [
      [
        "X-PagerDuty-Signature",
        "HMAC-SHA256 of the raw body, hex, as `v1=<hex>` (comma-separated during secret rotation)",
      ],
      ["X-Webhook-Id", "Webhook id"],
      ["X-Webhook-Subscription", "Webhook subscription id"],
    ],
    schemes: [
      {
        ...bodyHmac("pagerduty-v1", "X-PagerDuty-Signature", "sha256", "hex"),
        label: "HMAC-SHA256 of the raw body, hex, as `v1=<hex>`",
        format: { type: "pairs", separator: ",", key: "v1" },
      },
    ],
  },
  {
    id: "asana",
    name: "Asana",
    checkedAgainst: "https://github.com/Asana/devrel-examples/blob/master/python/webhooks_v5/server.py",
    detect: [{ anyHeader: ["X-Hook-Signature", "X-Hook-Secret"] }],
    event: [{ body: "events[0].action" }],
    signals: [
      ["X-Hook-Signature", "HMAC-SHA256 of the raw body with the secret from the handshake, hex"],
      ["X-Hook-Secret", "Handshake: the shared secret, sent once when the webhook is created (echo it back)"],
    ],
    schemes: [bodyHmac("asana-sha256", "X-Hook-Signature", "sha256", "hex")],
  },
  {
    id: "trello",
    name: "Trello",
    detect: [{ anyHeader: ["X-Trello-Webhook"] }],
    event: [{ body: "action.type" }],
    signals: [
      [
        "X-Trello-Webhook",
        "HMAC-SHA1 of the raw body followed by the callback URL, keyed with the app secret, base64",
      ],
    ],
    schemes: [
      {
        ...bodyHmac("trello-sha1", "X-Trello-Webhook", "sha1", "base64"),
        label: "HMAC-SHA1 of the raw body followed by the callback URL, base64",
        content: ["body", "url"],
      },
    ],
  },
  {
    id: "docusign",
    name: "DocuSign",
    checkedAgainst:
      "https://www.docusign.com/blog/developers/manually-authenticating-hmac-signatures-docusign-connect-webhook-configurations",
    detect: [
      { anyHeader: ["X-DocuSign-Signature-1"] },
      {
        body: [
          { path: "event", startsWith: ["envelope-", "recipient-"] },
          { path: "data.envelopeId", exists: true },
        ],
      },
    ],
    event: [{ body: "event" }],
    signals: [
      ["X-DocuSign-Signature-1", "HMAC-SHA256 of the raw body with a Connect HMAC key, base64"],
      ["X-DocuSign-Signature-2", "The same with the second Connect HMAC key"],
      ["X-Authorization-Digest", "The HMAC's digest algorithm (HmacSHA256)"],
    ],
    schemes: [
      {
        ...bodyHmac("docusign-sha256", "X-DocuSign-Signature-1", "sha256", "base64"),
        signature: [{ header: "X-DocuSign-Signature-1" }, { header: "X-DocuSign-Signature-2" }],
      },
    ],
  },
  {
    id: "xero",
    name: "Xero",
    checkedAgainst: "https://developer.xero.com/documentation/webhooks/configuring-your-server",
    detect: [{ anyHeader: ["x-xero-signature"] }],
    event: [{ body: "events[0].eventType" }],
    signals: [["x-xero-signature", "HMAC-SHA256 of the raw body with the webhook key, base64"]],
    schemes: [bodyHmac("xero-sha256", "x-xero-signature", "sha256", "base64")],
  },
  {
    id: "segment",
    name: "Segment",
    checkedAgainst:
      "https://github.com/segmentio/segment-docs/blob/develop/src/connections/destinations/catalog/webhooks/index.md",
    detect: [
      { userAgent: "Segment/" },
      {
        body: [
          { path: "type", oneOf: ["track", "identify", "page", "screen", "group", "alias"] },
          { path: "messageId", exists: true },
        ],
      },
    ],
    event: [{ body: "event" }, { body: "type" }],
    signals: [["X-Signature", "HMAC-SHA1 of the raw body with the shared secret, hex"]],
    schemes: [bodyHmac("segment-sha1", "X-Signature", "sha1", "hex")],
  },
  {
    id: "meta",
    name: "Meta (Facebook, Instagram, WhatsApp)",
    checkedAgainst:
      "https://github.com/fbsamples/graph-api-webhooks-samples/blob/main/typescript-server/src/utils/validate-x-hub.ts",
    detect: [
      {
        body: [
          {
            path: "object",
            oneOf: ["page", "instagram", "whatsapp_business_account", "user", "permissions", "application"],
          },
          { path: "entry", exists: true },
        ],
      },
    ],
    event: [{ body: "entry[0].changes[0].field" }, { body: "object" }],
    signals: [
      ["X-Hub-Signature-256", "HMAC-SHA256 of the raw body with the app secret, hex, `sha256=` prefix"],
      ["X-Hub-Signature", "HMAC-SHA1 of the raw body with the app secret, hex, `sha1=` prefix"],
    ],
    schemes: [
      bodyHmac("meta-sha256", "X-Hub-Signature-256", "sha256", "hex", "sha256="),
      bodyHmac("meta-sha1", "X-Hub-Signature", "sha1", "hex", "sha1="),
    ],
  },
  {
    id: "twitch",
    name: "Twitch EventSub",
    checkedAgainst: "https://dev.twitch.tv/docs/eventsub/handling-webhook-events",
    detect: [
      {
        anyHeader: [
          "Twitch-Eventsub-Message-Id",
          "Twitch-Eventsub-Message-Signature",
          "Twitch-Eventsub-Message-Type",
        ],
      },
    ],
    event: [{ header: "Twitch-Eventsub-Subscription-Type" }, { header: "Twitch-Eventsub-Message-Type" }],
    signals: [
      ["Twitch-Eventsub-Message-Id", "Message id (part of the signed message; drop repeats)"],
      ["Twitch-Eventsub-Message-Retry", "Retry count"],
      [
        "Twitch-Eventsub-Message-Type",
        "Message type (notification, webhook_callback_verification, revocation)",
      ],
      ["Twitch-Eventsub-Message-Signature", "HMAC-SHA256 of `id + timestamp + body`, hex, `sha256=` prefix"],
      ["Twitch-Eventsub-Message-Timestamp", "Send time, RFC 3339 (signed; rejected after 10 minutes)", "iso"],
      ["Twitch-Eventsub-Subscription-Type", "Subscription type, the event name (e.g. channel.follow)"],
      ["Twitch-Eventsub-Subscription-Version", "Subscription version"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "twitch-sha256",
        label: "HMAC-SHA256 of `message id + timestamp + body`, hex, `sha256=` prefix; 10-minute window",
        signature: [{ header: "Twitch-Eventsub-Message-Signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "plain", prefix: "sha256=" },
        content: [
          { from: { header: "Twitch-Eventsub-Message-Id" } },
          { from: { header: "Twitch-Eventsub-Message-Timestamp" } },
          "body",
        ],
        timestamp: {
          from: { header: "Twitch-Eventsub-Message-Timestamp" },
          unit: "iso",
          toleranceSeconds: 600,
        },
      },
    ],
  },
  {
    id: "mux",
    name: "Mux",
    checkedAgainst: "https://www.mux.com/docs/core/verify-webhook-signatures",
    detect: [{ anyHeader: ["Mux-Signature"] }],
    event: [{ body: "type" }],
    signals: [["Mux-Signature", "Signed timestamp `t` and `v1` signature: HMAC-SHA256 of `t.body`, hex"]],
    schemes: [timestampedPairs("mux-v1", "Mux-Signature", "s", 300)],
  },
  {
    id: "workos",
    name: "WorkOS",
    checkedAgainst: "https://github.com/workos/workos-node/blob/main/src/webhooks/webhooks.spec.ts",
    detect: [{ anyHeader: ["WorkOS-Signature"] }],
    event: [{ body: "event" }],
    signals: [["WorkOS-Signature", "Signed timestamp `t` and `v1` signature: HMAC-SHA256 of `t.body`, hex"]],
    schemes: [timestampedPairs("workos-v1", "WorkOS-Signature", "epoch", 180)],
  },
];
