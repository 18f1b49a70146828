/**
 * Signature checks against the known answers providers publish, the official signing libraries
 * (stripe, svix, standardwebhooks; test-only oracles), keys generated here for public-key schemes,
 * and tampered copies that must fail.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHash, createHmac, generateKeyPairSync, sign } from "node:crypto";
import { describe, test } from "node:test";
import { Webhook as StandardWebhook } from "standardwebhooks";
import Stripe from "stripe";
import { Webhook as SvixWebhook } from "svix";
import { NOW, rawRequest, row, run } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";

const nowSeconds = Math.floor(NOW / 1000);
const hmacHex = (algorithm: string, key: string | Buffer, message: string) =>
  createHmac(algorithm, key).update(message).digest("hex");
const hmacB64 = (algorithm: string, key: string | Buffer, message: string) =>
  createHmac(algorithm, key).update(message).digest("base64");

describe("GitHub (docs.github.com worked example)", () => {
  const head = (signature: string) => [
    "POST /hook HTTP/1.1",
    "X-GitHub-Event: ping",
    `X-Hub-Signature-256: ${signature}`,
  ];
  const documented = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

  test("the documented signature verifies", () => {
    const out = run(rawRequest(head(documented), "Hello, World!"), "It's a Secret to Everybody");
    assert.deepEqual(out.verification, {
      scheme: "github-sha256",
      header: "X-Hub-Signature-256",
      status: "valid",
      reason: "The signature matches: HMAC-SHA256 of the raw body, hex, `sha256=` prefix.",
    });
  });

  test("a tampered body or a wrong secret fails, and the two read the same", () => {
    const altered = run(
      rawRequest(head(documented), "Hello, World?"),
      "It's a Secret to Everybody",
    ).verification;
    const wrong = run(
      rawRequest(head(documented), "Hello, World!"),
      "It's a secret to everybody",
    ).verification;
    assert.equal(altered.status, "invalid");
    assert.equal(wrong.status, "invalid");
    assert.equal(altered.reason, wrong.reason);
    assert.match(altered.reason, /does not match/);
  });

  test("a final line break added when pasting is noticed and dropped", () => {
    const out = run(`${rawRequest(head(documented), "Hello, World!")}\n`, "It's a Secret to Everybody");
    assert.equal(out.verification.status, "valid");
    assert.match(out.verification.reason, /final line break/);
  });

  test("the legacy SHA-1 header is used when it is the only one", () => {
    const body = '{"zen":"Keep it logically awesome."}';
    const payload = rawRequest(
      ["X-GitHub-Event: ping", `X-Hub-Signature: sha1=${hmacHex("sha1", "s", body)}`],
      body,
    );
    assert.equal(run(payload, "s").verification.scheme, "github-sha1");
    assert.equal(run(payload, "s").verification.status, "valid");
  });

  test("a signature that is not hex is malformed", () => {
    const out = run(rawRequest(head("sha256=not-hex"), "x"), "s");
    assert.equal(out.verification.status, "invalid");
    assert.match(out.verification.reason, /malformed/);
  });

  test("without a secret nothing is checked, and the scheme is named", () => {
    const out = run(rawRequest(head(documented), "Hello, World!"));
    assert.equal(out.verification.status, "not_requested");
    assert.equal(out.verification.scheme, "github-sha256");
  });
});

describe("Slack (api.slack.com worked example)", () => {
  const body =
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
  const payload = rawRequest(
    [
      "Content-Type: application/x-www-form-urlencoded",
      "X-Slack-Request-Timestamp: 1531420618",
      "X-Slack-Signature: v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    ],
    body,
  );
  const secret = "8f742231b10e8888abcd99yyyzzz85a5";

  test("verifies within five minutes of the signed timestamp", () => {
    const out = run(payload, secret, (1531420618 + 120) * 1000);
    assert.equal(out.verification.status, "valid");
    assert.match(out.verification.reason, /2 minutes ago, within the window of 5 minutes/);
  });

  test("years later the signature still matches but has expired", () => {
    const out = run(payload, secret);
    assert.equal(out.verification.status, "expired");
    assert.match(
      out.verification.reason,
      /^The signature matches, but it was signed at Thu, 12 Jul 2018 18:36:58 GMT/,
    );
  });

  test("a changed field fails", () => {
    const out = run(payload.replace("roadrunner", "coyote"), secret, (1531420618 + 120) * 1000);
    assert.equal(out.verification.status, "invalid");
    assert.match(out.verification.reason, /does not match/);
  });
});

describe("Standard Webhooks and Svix", () => {
  const vector = {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  };
  const standard = (id: string, timestamp: number, signature: string, body: string) =>
    rawRequest(
      [`webhook-id: ${id}`, `webhook-timestamp: ${timestamp}`, `webhook-signature: ${signature}`],
      body,
    );

  test("the specification's test vector", () => {
    const out = run(
      standard(vector.id, vector.timestamp, vector.signature, vector.body),
      vector.secret,
      (vector.timestamp + 10) * 1000,
    );
    assert.equal(row(out, "Provider"), "Standard Webhooks");
    assert.equal(out.verification.status, "valid");
    assert.equal(out.formatted, '{\n  "test": 2432232314\n}');
  });

  test("signatures made by the standardwebhooks library, one of several listed", () => {
    const signer = new StandardWebhook("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    const body = '{"type":"invoice.paid","data":{"id":9007199254740993}}';
    const signature = signer.sign("msg_1", new Date(NOW), body);
    const out = run(standard("msg_1", nowSeconds, `v1,AAAA ${signature} v2,zzz`, body), vector.secret);
    assert.equal(out.verification.status, "valid");
    assert.equal(row(out, "Event Type"), "invoice.paid");
    const tampered = run(standard("msg_1", nowSeconds, signature, body.replace("993", "992")), vector.secret);
    assert.equal(tampered.verification.status, "invalid");
    const wrongId = run(standard("msg_2", nowSeconds, signature, body), vector.secret);
    assert.equal(wrongId.verification.status, "invalid");
  });

  test("a stale timestamp is rejected even with a good signature: expired", () => {
    const out = run(standard(vector.id, vector.timestamp, vector.signature, vector.body), vector.secret);
    assert.equal(out.verification.status, "expired");
    assert.match(out.verification.reason, /signature matches, but/);
  });

  test("Svix-signed requests, and Clerk recognised by its body on Svix headers", () => {
    const signer = new SvixWebhook(vector.secret);
    const body =
      '{"data":{"id":"user_29w83sxmDNGwOuEthce5gg56FcC","object":"user"},"object":"event","type":"user.created","timestamp":1654012591835}';
    const signature = signer.sign("msg_svix", new Date(NOW), body);
    const out = run(
      rawRequest(
        ["svix-id: msg_svix", `svix-timestamp: ${nowSeconds}`, `svix-signature: ${signature}`],
        body,
      ),
      vector.secret,
    );
    assert.equal(row(out, "Provider"), "Clerk");
    assert.equal(out.verification.scheme, "svix-v1");
    assert.equal(out.verification.status, "valid");
    assert.equal(out.timestamps[0]?.kind, "epoch-milliseconds");
  });
});

describe("Stripe (the stripe package's own signer)", () => {
  const stripe = new Stripe("sk_test_inspector");
  const body =
    '{"id":"evt_1","object":"event","type":"charge.succeeded","livemode":false,"created":1700000000}';
  const secret = "whsec_inspector_test";

  test("a fresh signature verifies; old or altered ones do not", () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: nowSeconds });
    const payload = rawRequest([`Stripe-Signature: ${header}`], body);
    assert.equal(run(payload, secret).verification.status, "valid");
    assert.equal(
      run(payload.replace("charge.succeeded", "charge.refunded"), secret).verification.status,
      "invalid",
    );
    const old = stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret,
      timestamp: nowSeconds - 301,
    });
    const stale = run(rawRequest([`Stripe-Signature: ${old}`], body), secret).verification;
    assert.equal(stale.status, "expired");
    assert.match(stale.reason, /5 minutes ago: outside Stripe's window of 5 minutes/);
    // Stale and altered: the signature does not match, which is what matters.
    const staleAltered = run(
      rawRequest([`Stripe-Signature: ${old}`], body.replace("evt_1", "evt_2")),
      secret,
    );
    assert.equal(staleAltered.verification.status, "invalid");
  });

  test("a mismatch shows the signature this secret gives beside the one received", () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: nowSeconds });
    const out = run(rawRequest([`Stripe-Signature: ${header}`], body), "whsec_another_secret").verification;
    assert.equal(out.status, "invalid");
    const received = /v1=([0-9a-f]{64})/.exec(header)?.[1];
    assert.equal(out.received, `v1=${received}`);
    const mine = createHmac("sha256", "whsec_another_secret").update(`${nowSeconds}.${body}`).digest("hex");
    assert.equal(out.expected, `v1=${mine}`);
    assert.equal(out.secretWarning, undefined, "a whsec_ secret has Stripe's shape");
    const matched = run(rawRequest([`Stripe-Signature: ${header}`], body), secret).verification;
    assert.equal(matched.expected, undefined, "nothing to compare when it matches");
  });

  test("a re-serialized body gets a hint: certain when the same JSON written another way matches", () => {
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    const header = stripe.webhooks.generateTestHeaderString({
      payload: pretty,
      secret,
      timestamp: nowSeconds,
    });
    const compacted = run(rawRequest([`Stripe-Signature: ${header}`], body), secret).verification;
    assert.equal(compacted.status, "invalid");
    assert.match(
      compacted.hint ?? "",
      /matches this JSON written pretty-printed with two-space indentation: the body was re-serialized/,
    );
    // Signed as sent, then keys reordered by a sorting serializer: no rewrite matches, but the
    // one-line body from a sender that indents its JSON says what probably happened.
    const sorted = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(pretty)).sort()));
    const reordered = run(rawRequest([`Stripe-Signature: ${header}`], sorted), secret).verification;
    assert.equal(reordered.status, "invalid");
    assert.match(reordered.hint ?? "", /sends its JSON pretty-printed, but this body is on one line/);
    const unchanged = run(rawRequest([`Stripe-Signature: ${header}`], pretty), "whsec_wrong").verification;
    assert.equal(unchanged.hint, undefined, "a wrong secret over the body as sent: no hint");
  });

  test("a secret without Stripe's whsec_ shape is warned about, and still used", () => {
    const header = stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: "sk_test_123",
      timestamp: nowSeconds,
    });
    const out = run(rawRequest([`Stripe-Signature: ${header}`], body), "sk_test_123").verification;
    assert.equal(out.status, "valid");
    assert.match(
      out.secretWarning ?? "",
      /Stripe's endpoint signing secrets start with `whsec_`; this secret does not/,
    );
  });

  test("a header without a v1 item is malformed", () => {
    const out = run(rawRequest([`Stripe-Signature: t=${nowSeconds},v0=abc`], body), secret);
    assert.equal(out.verification.status, "invalid");
    assert.match(out.verification.reason, /malformed/);
  });
});

describe("schemes that sign the URL", () => {
  const twilio = (head: string[]) =>
    rawRequest(
      [
        ...head,
        "Content-Type: application/x-www-form-urlencoded",
        "X-Twilio-Signature: 0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
      ],
      "CallSid=CA1234567890ABCDE&Caller=%2B12349013030&Digits=1234&From=%2B12349013030&To=%2B18005551212",
    );

  test("Twilio's documented example, URL rebuilt from the request line and Host", () => {
    const out = run(twilio(["POST /myapp.php?foo=1&bar=2 HTTP/1.1", "Host: mycompany.com"]), "12345");
    assert.equal(row(out, "Provider"), "Twilio");
    assert.equal(out.verification.status, "valid");
    assert.equal(
      run(twilio(["POST https://mycompany.com/myapp.php?foo=1&bar=2 HTTP/1.1"]), "12345").verification.status,
      "valid",
    );
    assert.equal(
      run(twilio(["POST /myapp.php?foo=1&bar=3 HTTP/1.1", "Host: mycompany.com"]), "12345").verification
        .status,
      "invalid",
    );
  });

  test("without the URL it cannot be verified, and says what is missing", () => {
    const out = run(twilio([]), "12345");
    assert.equal(out.verification.status, "unverifiable");
    assert.match(out.verification.reason, /request line/);
  });

  test("HubSpot's documented v1 and v2 examples", () => {
    const secret = "yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy";
    const body =
      '[{"eventId":1,"subscriptionId":12345,"portalId":62515,"occurredAt":1564113600000,"subscriptionType":"contact.creation","attemptNumber":0,"objectId":123,"changeSource":"CRM","changeFlag":"NEW","appId":54321}]';
    const v1 = run(
      rawRequest(
        [
          "X-HubSpot-Signature-Version: v1",
          "X-HubSpot-Signature: 232db2615f3d666fe21a8ec971ac7b5402d33b9a925784df3ca654d05f4817de",
        ],
        body,
      ),
      secret,
    );
    assert.equal(v1.verification.scheme, "hubspot-v1");
    assert.equal(v1.verification.status, "valid");
    assert.equal(row(v1, "Event Type"), "contact.creation");
    const v2 = run(
      [
        "GET /webhook_uri HTTP/1.1",
        "Host: www.example.com",
        "X-HubSpot-Signature-Version: v2",
        "X-HubSpot-Signature: eee2dddcc73c94d699f5e395f4b9d454a069a6855fbfa152e91e88823087200e",
      ].join("\n"),
      secret,
    );
    assert.equal(v2.verification.scheme, "hubspot-v2");
    assert.equal(v2.verification.status, "valid");
  });
});

describe("public-key schemes (keys generated here)", () => {
  test("Discord: Ed25519 over timestamp + body, the public key in hex as the secret", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const hexKey = publicKey.export({ format: "der", type: "spki" }).subarray(-32).toString("hex");
    const body = '{"type":1,"application_id":"1"}';
    const signature = sign(null, Buffer.from(`${nowSeconds}${body}`), privateKey).toString("hex");
    const payload = rawRequest(
      [`X-Signature-Ed25519: ${signature}`, `X-Signature-Timestamp: ${nowSeconds}`],
      body,
    );
    assert.equal(run(payload, hexKey).verification.status, "valid");
    assert.equal(run(payload.replace('"type":1', '"type":2'), hexKey).verification.status, "invalid");
    // A secret that cannot be the key is invalid, never valid.
    assert.equal(run(payload, "not a key").verification.status, "invalid");
  });

  test("SendGrid: ECDSA P-256 over timestamp + body, the key as base64 DER or PEM", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const body = '[{"email":"a@example.com","event":"delivered","sg_event_id":"x","timestamp":1700000000}]';
    const signature = sign("sha256", Buffer.from(`${nowSeconds}${body}`), privateKey).toString("base64");
    const payload = rawRequest(
      [
        `X-Twilio-Email-Event-Webhook-Signature: ${signature}`,
        `X-Twilio-Email-Event-Webhook-Timestamp: ${nowSeconds}`,
      ],
      body,
    );
    const der = publicKey.export({ format: "der", type: "spki" }).toString("base64");
    const pem = publicKey.export({ format: "pem", type: "spki" }).toString();
    assert.equal(run(payload, der).verification.status, "valid");
    assert.equal(run(payload, pem).verification.status, "valid");
    assert.equal(run(payload.replace("delivered", "bounce"), der).verification.status, "invalid");
  });

  test("Travis CI: RSA-SHA1 of the decoded payload field, Travis's key in PEM", () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const json = '{"id":1,"type":"push","status_message":"Passed","started_at":"2023-11-14T22:13:20Z"}';
    const signature = sign("sha1", Buffer.from(json), privateKey).toString("base64");
    const payload = rawRequest(
      [
        "Travis-Repo-Slug: octo/repo",
        `Signature: ${signature}`,
        "Content-Type: application/x-www-form-urlencoded",
      ],
      `payload=${encodeURIComponent(json)}`,
    );
    const out = run(payload, publicKey.export({ format: "pem", type: "spki" }).toString());
    assert.equal(row(out, "Provider"), "Travis CI");
    assert.equal(row(out, "Event Type"), "push");
    assert.equal(out.verification.status, "valid");
  });
});

describe("other schemes", () => {
  test("Netlify: an HS256 JWT whose sha256 claim is the body's hash", () => {
    const body = '{"id":"d1","site_id":"s1","state":"ready","deploy_ssl_url":"https://x.netlify.app"}';
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const head = b64({ alg: "HS256", typ: "JWT" });
    const claims = b64({ iss: "netlify", sha256: createHash("sha256").update(body).digest("hex") });
    const jwt = `${head}.${claims}.${createHmac("sha256", "jwt-secret").update(`${head}.${claims}`).digest("base64url")}`;
    const payload = rawRequest([`X-Webhook-Signature: ${jwt}`], body);
    assert.equal(run(payload, "jwt-secret").verification.status, "valid");
    assert.match(
      run(payload.replace("ready", "error"), "jwt-secret").verification.reason,
      /claim does not match/,
    );
    assert.equal(run(payload, "other").verification.status, "invalid");
  });

  test("GitLab's secret token is compared, not hashed", () => {
    const payload = rawRequest(
      ["X-Gitlab-Event: Push Hook", "X-Gitlab-Token: s3cret"],
      '{"object_kind":"push"}',
    );
    assert.equal(run(payload, "s3cret").verification.status, "valid");
    assert.equal(run(payload, "s3cret2").verification.status, "invalid");
  });

  test("Box: either of the two keys may sign", () => {
    const body = '{"type":"webhook_event","trigger":"FILE.UPLOADED"}';
    const stamp = new Date(NOW).toISOString();
    const good = hmacB64("sha256", "secondary-key", `${body}${stamp}`);
    const payload = rawRequest(
      [`BOX-DELIVERY-TIMESTAMP: ${stamp}`, "BOX-SIGNATURE-PRIMARY: AAAA", `BOX-SIGNATURE-SECONDARY: ${good}`],
      body,
    );
    assert.equal(run(payload, "secondary-key").verification.status, "valid");
  });

  test("Mailgun signs fields of the body", () => {
    const signature = hmacHex("sha256", "key-mg", "1700000000abc123");
    const body = JSON.stringify({
      signature: { timestamp: "1700000000", token: "abc123", signature },
      "event-data": { event: "delivered" },
    });
    const out = run(body, "key-mg");
    assert.equal(row(out, "Provider"), "Mailgun");
    assert.equal(out.verification.header, "body field `signature.signature`");
    assert.equal(out.verification.status, "valid");
  });

  test("providers that cannot be verified with a shared secret say why", () => {
    const paypal = run(
      rawRequest(["PAYPAL-TRANSMISSION-SIG: abc", "PAYPAL-TRANSMISSION-ID: 1"], '{"event_type":"X"}'),
      "s",
    );
    assert.equal(paypal.verification.status, "unverifiable");
    assert.match(paypal.verification.reason, /certificate/);
    const postmark = run('{"RecordType":"Delivery","MessageStream":"outbound","MessageID":"883953f4"}', "s");
    assert.equal(postmark.verification.status, "unverifiable");
    assert.match(postmark.verification.reason, /does not sign/);
  });

  test("a recognised provider without its signature header", () => {
    const out = run(rawRequest(["X-GitHub-Event: push"], "{}"), "s");
    assert.equal(out.verification.status, "unverifiable");
    assert.match(out.verification.reason, /no GitHub signature \(X-Hub-Signature-256 or X-Hub-Signature\)/);
  });
});

describe("unknown senders", () => {
  test("a plain HMAC of the body in a signature-like header is found", () => {
    const body = '{"hello":"world"}';
    const out = run(rawRequest([`X-Acme-Signature: sha512=${hmacHex("sha512", "k", body)}`], body), "k");
    assert.equal(row(out, "Provider"), "—");
    assert.equal(out.verification.status, "valid");
    assert.equal(out.verification.scheme, "generic-hmac-sha512-hex");
  });

  test("otherwise the result is unverifiable, never invalid", () => {
    assert.equal(run(rawRequest(["X-Acme-Signature: abc"], "{}"), "k").verification.status, "unverifiable");
    assert.equal(run(rawRequest(["X-Acme: 1"], "{}"), "k").verification.status, "unverifiable");
  });
});
