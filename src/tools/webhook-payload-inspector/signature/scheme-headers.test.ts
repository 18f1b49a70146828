/**
 * Senders the table does not know, recognised by a header that names its scheme, and the
 * ambiguous signature headers that do not.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { rawRequest, row, run } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";

// docs.github.com, "Validating webhook deliveries", "Testing the webhook payload validation":
// secret "It's a Secret to Everybody", payload "Hello, World!".
const SECRET = "It's a Secret to Everybody";
const BODY = "Hello, World!";
const SIGNATURE = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

const unknownSender = (signatureHeaders: string[], body = BODY) =>
  rawRequest(
    ["POST /hooks HTTP/1.1", "Host: ci.example.org", "Content-Type: text/plain", ...signatureHeaders],
    body,
  );

describe("X-Hub-Signature-256 from a sender the table does not know", () => {
  test("GitHub's documented known answer verifies with the header alone", () => {
    const out = run(unknownSender([`X-Hub-Signature-256: ${SIGNATURE}`]), SECRET);
    assert.equal(row(out, "Provider"), "—");
    assert.equal(out.verification.status, "valid");
    assert.equal(out.verification.scheme, "hub-signature-256");
    assert.equal(out.verification.header, "X-Hub-Signature-256");
  });

  test("an altered body is invalid, with the reason, not unverifiable", () => {
    const out = run(unknownSender([`X-Hub-Signature-256: ${SIGNATURE}`], "Hello, World?"), SECRET);
    assert.equal(out.verification.status, "invalid");
    assert.match(out.verification.reason, /does not match/);
    assert.match(out.verification.reason, /X-Hub-Signature-256 names its scheme/);
  });

  test("a wrong secret is invalid too", () => {
    const out = run(unknownSender([`X-Hub-Signature-256: ${SIGNATURE}`]), "not the secret");
    assert.equal(out.verification.status, "invalid");
  });

  test("a value that is not a sha256= hex digest is malformed, so invalid", () => {
    const out = run(unknownSender(["X-Hub-Signature-256: sha256=zzzz"]), SECRET);
    assert.equal(out.verification.status, "invalid");
    assert.match(out.verification.reason, /malformed/);
  });

  test("without a secret the named scheme is reported", () => {
    const out = run(unknownSender([`X-Hub-Signature-256: ${SIGNATURE}`]));
    assert.equal(out.verification.status, "not_requested");
    assert.equal(out.verification.scheme, "hub-signature-256");
  });
});

describe("X-Hub-Signature, whose prefix names the algorithm", () => {
  test("sha1= is HMAC-SHA1 and sha256= is HMAC-SHA256 of the body; a mismatch is invalid", () => {
    const sha1 = `sha1=${createHmac("sha1", SECRET).update(BODY).digest("hex")}`;
    assert.equal(
      run(unknownSender([`X-Hub-Signature: ${sha1}`]), SECRET).verification.scheme,
      "hub-signature-sha1",
    );
    assert.equal(run(unknownSender([`X-Hub-Signature: ${sha1}`]), SECRET).verification.status, "valid");
    assert.equal(
      run(unknownSender([`X-Hub-Signature: ${sha1}`], "other"), SECRET).verification.status,
      "invalid",
    );
    const sha256 = run(unknownSender([`X-Hub-Signature: ${SIGNATURE}`]), SECRET);
    assert.equal(sha256.verification.scheme, "hub-signature-sha256");
    assert.equal(sha256.verification.status, "valid");
  });
});

describe("ambiguous signature headers", () => {
  test("X-Signature is tried as a plain HMAC and the answer says what was tried", () => {
    const out = run(unknownSender(["X-Signature: t=1700000000,v1=abcdef"]), SECRET);
    assert.equal(out.verification.status, "unverifiable");
    assert.match(out.verification.reason, /\(x-signature\) does not name a scheme/i);
    assert.match(out.verification.reason, /Tried: an HMAC of the raw body alone/);
  });

  test("a plain HMAC of the body in X-Signature is still found", () => {
    const hex = createHmac("sha256", SECRET).update(BODY).digest("hex");
    const out = run(unknownSender([`X-Signature: ${hex}`]), SECRET);
    assert.equal(out.verification.status, "valid");
    assert.equal(out.verification.scheme, "generic-hmac-sha256-hex");
  });
});
