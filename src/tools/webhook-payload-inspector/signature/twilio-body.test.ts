/**
 * Twilio with a JSON body signs the URL, which carries `bodySHA256`, the hex SHA-256 of the body;
 * the body must match it. Known answers from twilio-node's own tests,
 * github.com/twilio/twilio-node spec/unit/webhooks/webhooks.spec.js: token "12345",
 * body '{"property": "value", "boolean": true}', its SHA-256 0a1ff763...e6620, and the signatures
 * of https://mycompany.com/myapp.php?foo=1&bar=2&bodySHA256=... and ...myapp.php?bodySHA256=...
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { rawRequest, row, run } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";

const TOKEN = "12345";
const BODY = '{"property": "value", "boolean": true}';
const BODY_SHA256 = "0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620";
const FULL = {
  target: `/myapp.php?foo=1&bar=2&bodySHA256=${BODY_SHA256}`,
  signature: "a9nBmqA0ju/hNViExpshrM61xv4=",
};
const SHORT = { target: `/myapp.php?bodySHA256=${BODY_SHA256}`, signature: "y77kIzt2vzLz71DgmJGsen2scGs=" };

const twilio = (target: string, signature: string, body = BODY) =>
  rawRequest(
    [
      `POST ${target} HTTP/1.1`,
      "Host: mycompany.com",
      "Content-Type: application/json",
      `X-Twilio-Signature: ${signature}`,
    ],
    body,
  );

describe("Twilio with a JSON body", () => {
  test("twilio-node's known answers verify: URL signature and body hash", () => {
    for (const { target, signature } of [FULL, SHORT]) {
      const out = run(twilio(target, signature), TOKEN);
      assert.equal(row(out, "Provider"), "Twilio");
      assert.equal(out.verification.status, "valid", out.verification.reason);
    }
  });

  test("a changed body fails the bodySHA256 check even though the URL signature matches", () => {
    const out = run(twilio(FULL.target, FULL.signature, BODY.replace("value", "valuE")), TOKEN);
    assert.equal(out.verification.status, "invalid");
    assert.match(
      out.verification.reason,
      /signature matches, but the URL's `bodySHA256`.*is not the SHA-256 of the body/,
    );
  });

  test("a changed bodySHA256 changes the signed URL, so the signature fails", () => {
    const target = FULL.target.slice(0, -1); // twilio-node: "should fail validation of post body with wrong hash"
    assert.equal(run(twilio(target, FULL.signature), TOKEN).verification.status, "invalid");
  });

  test("a JSON body without bodySHA256 in the URL is not covered by the signature", () => {
    // A valid URL signature, made here: the URL alone, as Twilio signs a request with a JSON body.
    const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
    const signature = createHmac("sha1", TOKEN).update(url).digest("base64");
    const out = run(twilio("/myapp.php?foo=1&bar=2", signature), TOKEN);
    assert.equal(out.verification.status, "invalid");
    assert.match(out.verification.reason, /signature matches, but the body is not covered/);
  });
});
