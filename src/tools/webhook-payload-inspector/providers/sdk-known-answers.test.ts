/**
 * Known answers from providers' own SDK test suites, run through the whole inspector: the
 * provider is recognised and its scheme verifies the published signature, and a changed byte
 * fails it. Each case names the file its values come from (see also `checkedAgainst`).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { rawRequest, row, run } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";

interface KnownAnswer {
  readonly provider: string;
  readonly source: string;
  readonly secret: string;
  readonly head: readonly string[];
  readonly body: string;
  /** Unix seconds at which the answer is fresh, for schemes with a window. */
  readonly now?: number;
}

const ANSWERS: readonly KnownAnswer[] = [
  {
    provider: "SendGrid",
    source: "github.com/sendgrid/sendgrid-nodejs packages/eventwebhook/src/eventwebhook.spec.js",
    secret:
      "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==",
    head: [
      "X-Twilio-Email-Event-Webhook-Signature: MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=",
      "X-Twilio-Email-Event-Webhook-Timestamp: 1588788367",
    ],
    body: JSON.stringify({ category: "example_payload", event: "test_event", message_id: "message_id" }),
  },
  {
    provider: "LINE",
    source: "github.com/line/line-bot-sdk-nodejs test/validate-signature.spec.ts",
    secret: "test_secret",
    head: ["x-line-signature: t7Hn4ZDHqs6e+wdvI5TyQIvzie0DmMUmuXEBqyyE/tM="],
    body: JSON.stringify({ hello: "world" }),
  },
  {
    provider: "GoCardless",
    source:
      "github.com/gocardless/gocardless-nodejs src/__tests__/webhooks.test.ts with src/fixtures/webhook_body.json, compacted as the test does",
    secret: "ED7D658C-D8EB-4941-948B-3973214F2D49",
    head: ["Webhook-Signature: 2693754819d3e32d7e8fcb13c729631f316c6de8dc1cf634d6527f1c07276e7e"],
    body: JSON.stringify({
      events: [
        {
          id: "EV00BD05S5VM2T",
          created_at: "2018-07-05T09:13:51.404Z",
          resource_type: "subscriptions",
          action: "created",
          links: { subscription: "SB0003JJQ2MR06" },
          details: {
            origin: "api",
            cause: "subscription_created",
            description: "Subscription created via the API.",
          },
          metadata: {},
        },
        {
          id: "EV00BD05TB8K63",
          created_at: "2018-07-05T09:13:56.893Z",
          resource_type: "mandates",
          action: "created",
          links: { mandate: "MD000AMA19XGEC" },
          details: { origin: "api", cause: "mandate_created", description: "Mandate created via the API." },
          metadata: {},
        },
      ],
    }),
  },
  {
    provider: "OpenAI",
    source:
      'github.com/openai/openai-node tests/api-resources/webhooks.test.ts ("taken from a real webhook event")',
    secret: "whsec_RdvaYFYUXuIFuEbvZHwMfYFhUf7aMYjYcmM24+Aj40c=",
    head: [
      "webhook-id: wh_685c059ae39c8190af8c71ed1022a24d",
      "webhook-timestamp: 1750861210",
      "webhook-signature: v1,gUAg4R2hWouRZqRQG4uJypNS8YK885G838+EHb4nKBY=",
    ],
    body: '{"id": "evt_685c059ae3a481909bdc86819b066fb6", "object": "event", "created_at": 1750861210, "type": "response.completed", "data": {"id": "resp_123"}}',
    now: 1750861210,
  },
];

describe("providers' SDK known answers", () => {
  for (const answer of ANSWERS) {
    test(`${answer.provider} (${answer.source})`, () => {
      const request = rawRequest(["Content-Type: application/json", ...answer.head], answer.body);
      const now = answer.now === undefined ? undefined : answer.now * 1000;
      const out = run(request, answer.secret, now);
      assert.equal(row(out, "Provider"), answer.provider);
      assert.equal(out.verification.status, "valid", out.verification.reason);
      // One added space before the closing bracket: the same JSON, different bytes.
      const altered = run(`${request.slice(0, -1)} ${request.slice(-1)}`, answer.secret, now);
      assert.equal(altered.verification.status, "invalid", altered.verification.reason);
    });
  }
});
