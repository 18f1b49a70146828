/**
 * Secrets that cannot be what the scheme needs are invalid with that reason, never valid: a lenient
 * decoder would turn a mistyped secret into some key.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { rawRequest, run } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";

// The Standard Webhooks specification's test vector (github.com/standard-webhooks/standard-webhooks,
// libraries' tests): secret, message id, timestamp, body and signature.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const request = rawRequest(
  [
    `webhook-id: ${VECTOR.id}`,
    `webhook-timestamp: ${VECTOR.timestamp}`,
    `webhook-signature: ${VECTOR.signature}`,
  ],
  VECTOR.body,
);
const check = (secret: string) => run(request, secret, (VECTOR.timestamp + 10) * 1000).verification;

describe("Standard Webhooks secrets", () => {
  test("the vector's secret verifies, with or without the whsec_ prefix", () => {
    assert.equal(check(VECTOR.secret).status, "valid");
    assert.equal(check(VECTOR.secret.slice("whsec_".length)).status, "valid");
  });

  // Node's base64 decoder skips characters outside the alphabet, so these decoded to the right key.
  for (const malformed of [
    `${VECTOR.secret}!`,
    `${VECTOR.secret.slice(0, 10)} ${VECTOR.secret.slice(10)}`,
    "whsec_",
    "whsec_MfKQ9",
  ]) {
    test(`${JSON.stringify(malformed)} is not base64: invalid, with that reason`, () => {
      const verification = check(malformed);
      assert.equal(verification.status, "invalid");
      assert.match(verification.reason, /must be standard base64/);
    });
  }

  test("URL-safe base64 is not what the libraries decode", () => {
    assert.equal(check("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa-_").status, "invalid");
  });
});

describe("public keys given as the secret", () => {
  test("a Discord key that is not 64 hex characters is invalid, not unverifiable", () => {
    const discord = rawRequest(
      [`X-Signature-Ed25519: ${"ab".repeat(64)}`, "X-Signature-Timestamp: 1700000000"],
      '{"type":1,"application_id":"1"}',
    );
    const verification = run(discord, "not-a-key").verification;
    assert.equal(verification.scheme, "discord-ed25519");
    assert.equal(verification.status, "invalid");
    assert.match(verification.reason, /cannot be the key/);
  });
});
