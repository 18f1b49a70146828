/**
 * Whole-tool tests on realistic captures: real GitHub payloads from @octokit/webhooks-examples sent
 * with GitHub's headers, providers' documented sample shapes, and the edge cases of the parsing
 * rules (CRLF and LF, folded and repeated headers, BOM, forms holding JSON, top-level arrays, huge
 * integers, millisecond epochs, offsets, zone-less dates, body only, request line only).
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, test } from "node:test";
import { outputErrors, rawRequest, row, run } from "../../../test/helpers/tools/webhook-payload-inspector.ts";
import { UnprocessableInputError } from "../tool.ts";
import { webhookPayloadInspector } from "./index.ts";
import { OVERVIEW_PROPERTIES } from "./schema.ts";

/** Read, not imported: the type checker would infer a type for all 2 MB of it. */
const githubExamples = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve("@octokit/webhooks-examples/api.github.com/index.json"),
    "utf8",
  ),
) as { readonly name: string; readonly examples: readonly unknown[] }[];

const GITHUB_SECRET = "It's a Secret to Everybody";

function githubCapture(event: string, body: string, eol = "\r\n"): string {
  const signature = createHmac("sha256", GITHUB_SECRET).update(body).digest("hex");
  return rawRequest(
    [
      "POST /payload HTTP/1.1",
      "Host: localhost:4567",
      "X-GitHub-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958",
      "X-GitHub-Hook-ID: 292430182",
      "User-Agent: GitHub-Hookshot/044aadd",
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-GitHub-Event: ${event}`,
      `X-Hub-Signature-256: sha256=${signature}`,
    ],
    body,
    eol,
  );
}

describe("real GitHub deliveries (@octokit/webhooks-examples)", () => {
  for (const definition of githubExamples) {
    const example = definition.examples[0];
    if (example === undefined) continue;
    test(definition.name, () => {
      const body = JSON.stringify(example);
      const out = run(githubCapture(definition.name, body), GITHUB_SECRET);
      assert.equal(outputErrors(out), null);
      assert.equal(row(out, "Provider"), "GitHub");
      assert.equal(row(out, "Event Type"), definition.name);
      assert.equal(row(out, "Format"), "JSON");
      assert.equal(row(out, "Valid JSON"), "Yes");
      assert.equal(row(out, "Body Size"), `${Buffer.byteLength(body)} B`);
      assert.equal(row(out, "Header Count"), "8");
      assert.equal(out.verification.status, "valid");
      // JSON.stringify output has no huge integers or reordered keys to lose, so the layouts agree.
      if (!/"\d+":/.test(body)) assert.equal(out.formatted, JSON.stringify(example, null, 2));
      assert.ok(
        out.signals.some(
          (s) => s.header === "X-GitHub-Delivery" && s.meaning === "GitHub delivery id (GUID)",
        ),
      );
      for (const stamp of out.timestamps) assert.match(stamp.utc, / GMT$/);
    });
  }

  test("CRLF and LF give the same result", () => {
    const body = JSON.stringify(githubExamples.find((d) => d.name === "push")?.examples[0]);
    const crlf = run(githubCapture("push", body, "\r\n"), GITHUB_SECRET);
    const lf = run(githubCapture("push", body, "\n"), GITHUB_SECRET);
    assert.deepEqual(lf, crlf);
    assert.ok(crlf.timestamps.length > 0);
  });
});

describe("overview rows", () => {
  test("always all twelve, in the description's order, with — where they do not apply", () => {
    const out = run("just some text");
    assert.deepEqual(
      out.overview.map((r) => r.property),
      [...OVERVIEW_PROPERTIES],
    );
    assert.deepEqual(
      out.overview.map((r) => r.value),
      ["—", "Text", "—", "14 B", "14", "0", "—", "—", "—", "—", "—", "0"],
    );
  });

  test("a request line alone", () => {
    const out = run("POST /hooks/github HTTP/1.1");
    assert.equal(row(out, "Request Line"), "POST /hooks/github HTTP/1.1");
    assert.equal(row(out, "Format"), "Empty");
    assert.equal(row(out, "Body Size"), "0 B");
    assert.equal(out.formatted, "");
  });

  test("a body alone", () => {
    const out = run('{"type":"ping"}');
    assert.equal(row(out, "Request Line"), "—");
    assert.equal(row(out, "Header Count"), "0");
    assert.equal(row(out, "Depth"), "1");
    assert.equal(row(out, "Total Keys"), "1");
  });

  test("invalid JSON says No and shows the body as given", () => {
    const out = run(rawRequest(["Content-Type: application/json"], '{"a": 1,,}'));
    assert.equal(row(out, "Valid JSON"), "No");
    assert.equal(row(out, "Depth"), "—");
    assert.equal(out.formatted, '{"a": 1,,}');
    assert.match(out.values.jsonError ?? "", /line 1, column 9/);
  });
});

describe("parsing edge cases end to end", () => {
  test("folded and repeated headers, a BOM-led body", () => {
    const body = '\ufeff{"event":"x"}';
    const out = run(
      ["POST / HTTP/1.1", "X-Trace: a", "X-Trace: b", "X-Note: first", "\tsecond", "", body].join("\r\n"),
    );
    assert.deepEqual(out.headers, [
      { header: "X-Trace", value: "a" },
      { header: "X-Trace", value: "b" },
      { header: "X-Note", value: "first second" },
    ]);
    assert.equal(row(out, "Body Size"), `${Buffer.byteLength(body)} B`);
    assert.equal(row(out, "Characters"), "14");
    assert.equal(row(out, "Valid JSON"), "Yes");
  });

  test("a form's Valid JSON row names every field that holds JSON, valid or not", () => {
    const form = (body: string) =>
      row(run(rawRequest(["Content-Type: application/x-www-form-urlencoded"], body)), "Valid JSON");
    assert.equal(form("a=1&b=2"), "No");
    assert.equal(form("a=%7B%7D&b=%5B1%5D&c=x"), "No (fields a and b hold valid JSON)");
    assert.equal(form("a=%7B%7D&b=%7Bnope"), "No (field a holds valid JSON; field b holds invalid JSON)");
  });

  test("a Slack interactive payload: a form field holding JSON", () => {
    const json = JSON.stringify({
      type: "block_actions",
      api_app_id: "A02",
      team: { id: "T9TK3CUKW", domain: "example" },
      user: { id: "UA8RXUSPL" },
      actions: [{ action_id: "approve", action_ts: "1548426417.840180" }],
      message: { ts: "1548261231.000200" },
    });
    const out = run(
      rawRequest(["Content-Type: application/x-www-form-urlencoded"], `payload=${encodeURIComponent(json)}`),
    );
    assert.equal(row(out, "Format"), "Form (URL-encoded)");
    // A form is not JSON itself; the row names the field that holds JSON.
    assert.equal(row(out, "Valid JSON"), "No (field payload holds valid JSON)");
    assert.equal(row(out, "Depth"), "3");
    assert.equal(row(out, "Total Keys"), "12");
    assert.equal(row(out, "Provider"), "Slack");
    assert.equal(row(out, "Event Type"), "block_actions");
    assert.deepEqual(
      out.timestamps.map((t) => [t.field, t.utc]),
      [
        ["payload.actions[0].action_ts", "Fri, 25 Jan 2019 14:26:57 GMT"],
        ["payload.message.ts", "Wed, 23 Jan 2019 16:33:51 GMT"],
      ],
    );
    assert.ok(out.formatted.startsWith('{\n  "payload": {\n    "type": "block_actions",'));
  });

  test("a top-level array (SendGrid events) with millisecond and second epochs", () => {
    const body =
      '[{"email":"a@example.com","timestamp":1700000000,"event":"processed","sg_event_id":"e1"},{"event":"open","sg_event_id":"e2","timestamp_ms":1700000000123}]';
    const out = run(rawRequest(["Content-Type: application/json"], body));
    assert.equal(row(out, "Provider"), "SendGrid");
    assert.equal(row(out, "Event Type"), "processed");
    assert.deepEqual(
      out.timestamps.map((t) => [t.field, t["raw-value"], t.kind]),
      [
        ["[0].timestamp", "1700000000", "epoch-seconds"],
        ["[1].timestamp_ms", "1700000000123", "epoch-milliseconds"],
      ],
    );
  });

  test("huge integers are kept exactly in formatted", () => {
    const out = run('{"id":12345678901234567890123,"user_id":9007199254740993}');
    assert.equal(out.formatted, '{\n  "id": 12345678901234567890123,\n  "user_id": 9007199254740993\n}');
  });

  test("offsets are applied and zone-less date-times are read as UTC (Mailchimp form)", () => {
    const out = run(
      "type=subscribe&fired_at=2009-03-26+21%3A35%3A57&data%5Bemail%5D=api%40mailchimp.com&data%5Bsent_at%5D=2009-03-26T23%3A35%3A57%2B02%3A00",
    );
    assert.equal(row(out, "Provider"), "Mailchimp");
    assert.deepEqual(
      out.timestamps.map((t) => [t.field, t.utc, t.kind]),
      [
        ["fired_at", "Thu, 26 Mar 2009 21:35:57 GMT", "iso8601-no-zone"],
        ['["data[sent_at]"]', "Thu, 26 Mar 2009 21:35:57 GMT", "iso8601"],
      ],
    );
  });

  test("Shopify topic header, Stripe body type, GitLab fallback to object_kind", () => {
    assert.equal(
      row(run(rawRequest(["X-Shopify-Topic: orders/create"], "{}")), "Event Type"),
      "orders/create",
    );
    assert.equal(
      row(run('{"object":"event","id":"evt_1","livemode":true,"type":"invoice.paid"}'), "Event Type"),
      "invoice.paid",
    );
    assert.equal(
      row(
        run(rawRequest(["X-Gitlab-Instance: gitlab.com"], '{"object_kind":"merge_request"}')),
        "Event Type",
      ),
      "merge_request",
    );
  });

  test("header timestamps are explained with their date", () => {
    const out = run(rawRequest(["X-Slack-Request-Timestamp: 1700000000", "X-Slack-Signature: v0=00"], "{}"));
    assert.equal(
      out.signals[0]?.meaning,
      "Slack request timestamp, epoch seconds (signed, 5-minute window): Tue, 14 Nov 2023 22:13:20 GMT",
    );
  });

  test("an unrecognised sender still gets its signature, event and delivery headers flagged", () => {
    const out = run(
      rawRequest(
        [
          "X-Acme-Event: thing.created",
          "X-Acme-Delivery: d-1",
          "X-Acme-Signature: abc",
          "Idempotency-Key: k1",
          "Accept: */*",
        ],
        "{}",
      ),
    );
    assert.equal(row(out, "Provider"), "—");
    assert.equal(row(out, "Event Type"), "thing.created");
    assert.deepEqual(
      out.signals.map((s) => s.header),
      ["X-Acme-Event", "X-Acme-Delivery", "X-Acme-Signature", "Idempotency-Key"],
    );
  });

  test("Gitea is told apart from GitHub although it sends GitHub's headers too", () => {
    const out = run(rawRequest(["X-GitHub-Event: push", "X-Gitea-Event: push", "X-Gitea-Delivery: 1"], "{}"));
    assert.equal(row(out, "Provider"), "Gitea");
    assert.equal(
      out.signals.find((s) => s.header === "X-GitHub-Event")?.meaning,
      "GitHub-compatible copy of the event name",
    );
  });
});

describe("the tool definition", () => {
  test("metadata", () => {
    assert.equal(webhookPayloadInspector.slug, "webhook-payload-inspector");
    assert.equal(webhookPayloadInspector.version, "1.2.0");
    assert.deepEqual(webhookPayloadInspector.defaults, { weight: 5, maxBodyBytes: 1048576 });
  });

  test("an empty or blank payload is unprocessable", () => {
    for (const payload of ["", "   ", "\r\n\t\n", "\ufeff"]) {
      assert.throws(() => webhookPayloadInspector.run({ payload }), UnprocessableInputError);
    }
  });

  test("every example runs and matches the output schema", () => {
    for (const example of webhookPayloadInspector.examples) {
      const out = webhookPayloadInspector.run(example.input as { payload: string });
      assert.equal(outputErrors(out), null, example.title);
    }
  });
});
