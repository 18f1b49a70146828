/**
 * toolrun's own webhook deliveries, as its deliverer sends them (src/core/admin/webhook-delivery.ts):
 * recognised as the `toolrun` provider by the sender's User-Agent or by the body alone, the event
 * type read from `type`, and the signature made by the `standardwebhooks` library verified with
 * the endpoint's `whsec_` secret.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { NOW, rawRequest, row, run } from "../../../test/helpers/tools/webhook-payload-inspector.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ID = "evt_019ad2f3c1a57d3e9f4b2c6d8e0a1b3c";
const BODY =
  '{"type":"key.revoked","timestamp":"2023-11-14T22:13:20.000Z","data":{"key_id":"key_1a2b3c","name":"acme","plan":"builder","metadata":{},"revoked_at":"2023-11-14T22:13:20.000Z"}}';

function delivery(headers: { userAgent?: string } = {}, body = BODY): string {
  const sentAt = new Date(NOW - 30_000);
  const signature = new Webhook(SECRET).sign(ID, sentAt, body);
  return rawRequest(
    [
      "Content-Type: application/json",
      ...(headers.userAgent === undefined ? [] : [`User-Agent: ${headers.userAgent}`]),
      `webhook-id: ${ID}`,
      `webhook-timestamp: ${Math.floor(sentAt.getTime() / 1000)}`,
      `webhook-signature: ${signature}`,
    ],
    body,
  );
}

describe("toolrun's own deliveries", () => {
  test("recognised by the sender's User-Agent, and verified with the endpoint's whsec_ secret", () => {
    const out = run(delivery({ userAgent: "toolrun-webhooks" }), SECRET);
    assert.equal(row(out, "Provider"), "toolrun");
    assert.equal(row(out, "Event Type"), "key.revoked");
    assert.equal(out.verification.status, "valid", out.verification.reason);
    assert.equal(
      run(delivery({ userAgent: "toolrun-webhooks" }), "whsec_b3RoZXJzZWNyZXRvdGhlcnNlY3JldA==").verification
        .status,
      "invalid",
    );
  });

  test("recognised by the body alone behind a proxy that rewrote the User-Agent", () => {
    const out = run(delivery({ userAgent: "proxy/1.0" }), SECRET);
    assert.equal(row(out, "Provider"), "toolrun");
    const test = BODY.replace('"key.revoked"', '"webhook.test"');
    assert.equal(row(run(delivery({}, test), SECRET), "Event Type"), "webhook.test");
  });

  test("a Standard Webhooks body of another sender is not toolrun's", () => {
    const other = '{"type":"user.created","timestamp":"2023-11-14T22:13:20.000Z","data":{}}';
    assert.equal(row(run(delivery({}, other), SECRET), "Provider"), "Standard Webhooks");
  });
});
