/**
 * Provider table, part 2: payments and commerce. Data only (see ./provider-types.ts).
 */
import { bodyHmac } from "./provider-kit.ts";
import type { Provider } from "./provider-types.ts";

export const COMMERCE_PROVIDERS: readonly Provider[] = [
  {
    id: "stripe",
    name: "Stripe",
    checkedAgainst: "https://www.rubydoc.info/gems/stripe/Stripe/Webhook/Signature",
    detect: [
      { anyHeader: ["Stripe-Signature"] },
      {
        body: [
          { path: "object", equals: "event" },
          { path: "id", startsWith: "evt_" },
          { path: "livemode", exists: true },
        ],
      },
    ],
    event: [{ body: "type" }],
    signals: [
      [
        "Stripe-Signature",
        "Signed timestamp `t` and `v1` signature(s): HMAC-SHA256 of `t.body`, hex; accepted within 5 minutes",
      ],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "stripe-v1",
        label: "HMAC-SHA256 of `t.body`, hex, as `t=<epoch>,v1=<hex>`; 5-minute window",
        signature: [{ header: "Stripe-Signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "pairs", separator: ",", key: "v1" },
        content: [{ from: { pair: "t" } }, { text: "." }, "body"],
        timestamp: { from: { pair: "t" }, unit: "s", toleranceSeconds: 300 },
        prettyJson: true,
        secretShape: { prefix: "whsec_", what: "Stripe's endpoint signing secrets" },
      },
    ],
  },
  {
    id: "paddle",
    name: "Paddle",
    checkedAgainst: "https://developer.paddle.com/webhooks/signature-verification",
    detect: [
      { anyHeader: ["Paddle-Signature"] },
      {
        body: [
          { path: "event_type", exists: true },
          { path: "notification_id", startsWith: "ntf_" },
        ],
      },
    ],
    event: [{ body: "event_type" }],
    signals: [
      ["Paddle-Signature", "Signed timestamp `ts` and `h1` signature: HMAC-SHA256 of `ts:body`, hex"],
    ],
    schemes: [
      {
        kind: "hmac",
        id: "paddle-h1",
        label: "HMAC-SHA256 of `ts:body`, hex, as `ts=<epoch>;h1=<hex>`; Paddle's SDK allows 5 seconds",
        signature: [{ header: "Paddle-Signature" }],
        algorithm: "sha256",
        encoding: "hex",
        format: { type: "pairs", separator: ";", key: "h1" },
        content: [{ from: { pair: "ts" } }, { text: ":" }, "body"],
        timestamp: { from: { pair: "ts" }, unit: "s", toleranceSeconds: 5 },
      },
    ],
  },
  {
    id: "paypal",
    name: "PayPal",
    checkedAgainst:
      "https://github.com/paypal/PayPal-PHP-SDK/blob/master/sample/notifications/ValidateWebhookEvent.php",
    detect: [
      { anyHeader: ["PAYPAL-TRANSMISSION-SIG", "PAYPAL-TRANSMISSION-ID"] },
      {
        body: [
          { path: "id", startsWith: "WH-" },
          { path: "event_type", exists: true },
          { path: "resource_type", exists: true },
        ],
      },
    ],
    event: [{ body: "event_type" }],
    signals: [
      ["PAYPAL-TRANSMISSION-ID", "Transmission id (part of the signed string)"],
      ["PAYPAL-TRANSMISSION-TIME", "Transmission time, ISO 8601 (part of the signed string)", "iso"],
      [
        "PAYPAL-TRANSMISSION-SIG",
        "RSA signature, base64, over `transmission id|time|webhook id|CRC32 of the body`",
      ],
      ["PAYPAL-CERT-URL", "Where PayPal's signing certificate is"],
      ["PAYPAL-AUTH-ALGO", "Signature algorithm (SHA256withRSA)"],
      ["PAYPAL-AUTH-VERSION", "Signature version"],
    ],
    schemes: [
      {
        kind: "unverifiable",
        id: "paypal-rsa",
        label:
          "RSA (SHA256withRSA) with PayPal's certificate over transmission id, time, webhook id and CRC32 of the body",
        signature: [{ header: "PAYPAL-TRANSMISSION-SIG" }],
        reason:
          "PayPal signs with its own certificate (PAYPAL-CERT-URL), not a shared secret; check it with PayPal's verify-webhook-signature API.",
      },
    ],
  },
  {
    id: "square",
    name: "Square",
    checkedAgainst: "https://developer.squareup.com/docs/webhooks/step3validate",
    detect: [
      { anyHeader: ["x-square-hmacsha256-signature", "x-square-signature"] },
      {
        body: [
          { path: "merchant_id", exists: true },
          { path: "event_id", exists: true },
          { path: "data.type", exists: true },
        ],
      },
    ],
    event: [{ body: "type" }],
    signals: [
      [
        "x-square-hmacsha256-signature",
        "HMAC-SHA256 of the notification URL followed by the raw body, base64",
      ],
      ["x-square-signature", "HMAC-SHA1 of the notification URL followed by the raw body, base64 (legacy)"],
      ["square-environment", "Square environment (Production or Sandbox)"],
    ],
    schemes: [
      {
        ...bodyHmac("square-sha256", "x-square-hmacsha256-signature", "sha256", "base64"),
        label: "HMAC-SHA256 of the notification URL followed by the raw body, base64",
        content: ["url", "body"],
      },
      {
        ...bodyHmac("square-sha1", "x-square-signature", "sha1", "base64"),
        label: "HMAC-SHA1 of the notification URL followed by the raw body, base64 (legacy)",
        content: ["url", "body"],
      },
    ],
  },
  {
    id: "shopify",
    name: "Shopify",
    checkedAgainst: "https://shopify.dev/docs/api/shopify-app-remix/v3/authenticate/webhook",
    detect: [
      {
        anyHeader: [
          "X-Shopify-Topic",
          "X-Shopify-Hmac-Sha256",
          "X-Shopify-Shop-Domain",
          "X-Shopify-Webhook-Id",
        ],
      },
    ],
    event: [{ header: "X-Shopify-Topic" }],
    signals: [
      ["X-Shopify-Topic", "Shopify webhook topic (e.g. orders/create)"],
      ["X-Shopify-Hmac-Sha256", "HMAC-SHA256 of the raw body with the app's client secret, base64"],
      ["X-Shopify-Shop-Domain", "Shop that sent it (*.myshopify.com)"],
      ["X-Shopify-API-Version", "Admin API version of the payload"],
      ["X-Shopify-Webhook-Id", "Delivery id; use it to drop duplicates"],
      ["X-Shopify-Event-Id", "Event id, the same across subscriptions to one event"],
      ["X-Shopify-Triggered-At", "When the event happened", "iso"],
      ["X-Shopify-Sub-Topic", "Sub-topic (some topics only)"],
    ],
    schemes: [bodyHmac("shopify-sha256", "X-Shopify-Hmac-Sha256", "sha256", "base64")],
  },
  {
    id: "woocommerce",
    name: "WooCommerce",
    checkedAgainst: "https://developer.woocommerce.com/docs/apis/rest-api/v3/webhooks/",
    detect: [
      {
        anyHeader: ["X-WC-Webhook-Source", "X-WC-Webhook-Topic", "X-WC-Webhook-Signature", "X-WC-Webhook-ID"],
      },
    ],
    event: [{ header: "X-WC-Webhook-Topic" }],
    signals: [
      ["X-WC-Webhook-Source", "URL of the store that sent it"],
      ["X-WC-Webhook-Topic", "Topic, resource.event (e.g. order.created)"],
      ["X-WC-Webhook-Resource", "Resource (order, product, coupon, customer)"],
      ["X-WC-Webhook-Event", "Event (created, updated, deleted, restored)"],
      ["X-WC-Webhook-Signature", "HMAC-SHA256 of the raw body with the webhook secret, base64"],
      ["X-WC-Webhook-ID", "Webhook id"],
      ["X-WC-Webhook-Delivery-ID", "Delivery id"],
    ],
    schemes: [bodyHmac("woocommerce-sha256", "X-WC-Webhook-Signature", "sha256", "base64")],
  },
  {
    id: "coinbase-commerce",
    name: "Coinbase Commerce",
    checkedAgainst: "https://docs.cdp.coinbase.com/commerce/api-arcitecture/webhooks-security",
    detect: [{ anyHeader: ["X-CC-Webhook-Signature"] }],
    event: [{ body: "event.type" }],
    signals: [["X-CC-Webhook-Signature", "HMAC-SHA256 of the raw body with the shared webhook secret, hex"]],
    schemes: [bodyHmac("coinbase-commerce-sha256", "X-CC-Webhook-Signature", "sha256", "hex")],
  },
  {
    id: "razorpay",
    name: "Razorpay",
    checkedAgainst:
      "https://razorpay.com/docs/payments/payment-gateway/s2s-integration/test-s2s/best-practices/security",
    detect: [
      { anyHeader: ["X-Razorpay-Signature", "X-Razorpay-Event-Id"] },
      {
        body: [
          { path: "entity", equals: "event" },
          { path: "account_id", startsWith: "acc_" },
          { path: "event", exists: true },
        ],
      },
    ],
    event: [{ body: "event" }],
    signals: [
      ["X-Razorpay-Signature", "HMAC-SHA256 of the raw body with the webhook secret, hex"],
      ["X-Razorpay-Event-Id", "Event id, the same on retries"],
    ],
    schemes: [bodyHmac("razorpay-sha256", "X-Razorpay-Signature", "sha256", "hex")],
  },
  {
    id: "lemon-squeezy",
    name: "Lemon Squeezy",
    checkedAgainst:
      "https://github.com/lmsqueezy/laravel/blob/main/src/Http/Middleware/VerifyWebhookSignature.php",
    detect: [
      { anyHeader: ["X-Event-Name"], body: [{ path: "meta.event_name", exists: true }] },
      {
        body: [
          { path: "meta.event_name", exists: true },
          { path: "meta.test_mode", exists: true },
        ],
      },
    ],
    event: [{ header: "X-Event-Name" }, { body: "meta.event_name" }],
    signals: [
      ["X-Event-Name", "Lemon Squeezy event name"],
      ["X-Signature", "HMAC-SHA256 of the raw body with the signing secret, hex"],
    ],
    schemes: [bodyHmac("lemon-squeezy-sha256", "X-Signature", "sha256", "hex")],
  },
  {
    id: "gocardless",
    name: "GoCardless",
    checkedAgainst:
      "https://github.com/gocardless/gocardless-nodejs/blob/master/src/__tests__/webhooks.test.ts",
    detect: [
      {
        body: [
          { path: "events[0].resource_type", exists: true },
          { path: "events[0].action", exists: true },
          { path: "events[0].links", exists: true },
        ],
      },
    ],
    event: [{ body: "events[0].action" }],
    signals: [["Webhook-Signature", "HMAC-SHA256 of the raw body with the endpoint secret, hex"]],
    schemes: [bodyHmac("gocardless-sha256", "Webhook-Signature", "sha256", "hex")],
  },
  {
    id: "braintree",
    name: "Braintree",
    checkedAgainst:
      "https://github.com/braintree/braintree_node/blob/master/lib/braintree/webhook_notification_gateway.js",
    detect: [
      {
        body: [
          { path: "bt_signature", exists: true },
          { path: "bt_payload", exists: true },
        ],
      },
    ],
    signals: [],
    schemes: [
      {
        kind: "unverifiable",
        id: "braintree-signature",
        label:
          "`bt_signature` form field: `public_key|hex HMAC-SHA1 of bt_payload`, keyed with the SHA-1 of the private key; pairs joined by `&`",
        signature: [{ formField: "bt_signature" }],
        reason:
          "Braintree signs `bt_payload` with your API key pair; parse it with a Braintree SDK (webhookNotification.parse).",
      },
    ],
  },
  {
    id: "plaid",
    name: "Plaid",
    checkedAgainst: "https://plaid.com/docs/api/webhooks/webhook-verification/",
    detect: [
      { anyHeader: ["Plaid-Verification"] },
      {
        body: [
          { path: "webhook_type", exists: true },
          { path: "webhook_code", exists: true },
        ],
      },
    ],
    event: [{ body: "webhook_code" }],
    signals: [
      [
        "Plaid-Verification",
        "JWT (ES256) from Plaid; its `request_body_sha256` claim is the SHA-256 of the body",
      ],
    ],
    schemes: [
      {
        kind: "unverifiable",
        id: "plaid-jwt",
        label: "JWT (ES256) signed by Plaid, with the SHA-256 of the body as a claim",
        signature: [{ header: "Plaid-Verification" }],
        reason:
          "Plaid signs with a rotating key fetched from /webhook_verification_key/get, not a shared secret.",
      },
    ],
  },
];
