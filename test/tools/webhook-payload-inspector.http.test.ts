/**
 * The webhook payload inspector end to end over HTTP: a call charged 5 credits, a blank payload
 * answered 422 and refunded, a missing or non-string payload answered 400 by field, and a body over
 * the 1 MiB limit answered 413.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, type TestApp, toolClient, untilSuiteEnds } from "../helpers/app.ts";

describe("webhook-payload-inspector over HTTP", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let client: ReturnType<typeof toolClient>;
  const post = (payload: unknown) => client.post(payload);
  const used = () => client.creditsUsed();

  before(async () => {
    t = await createTestApp({ tools }, suite);
    client = toolClient(t, "webhook-payload-inspector", await t.key("free"));
  });

  it("inspects a GitHub delivery for 5 credits", async () => {
    const body = '{"zen":"Design for failure.","hook_id":292430182}';
    const res = await post({
      payload: `POST /hook HTTP/1.1\r\nX-GitHub-Event: ping\r\nContent-Type: application/json\r\n\r\n${body}`,
    });
    assert.equal(res.statusCode, 200, res.body);
    const envelope = res.json();
    assert.equal(envelope.tool, "webhook-payload-inspector");
    assert.equal(envelope.tool_version, "1.2.0");
    assert.equal(envelope.credits_used, 5);
    assert.equal(envelope.credits_remaining, 995);
    const rows = new Map(
      envelope.outputs.overview.map((r: { property: string; value: string }) => [r.property, r.value]),
    );
    assert.equal(rows.get("Provider"), "GitHub");
    assert.equal(rows.get("Event Type"), "ping");
    assert.equal(rows.get("Body Size"), `${Buffer.byteLength(body)} B`);
    assert.equal(envelope.outputs.verification.status, "not_requested");
  });

  it("answers 422 for a blank payload and refunds it", async () => {
    const spent = await used();
    const res = await post({ payload: " \r\n " });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, "unprocessable_input");
    assert.match(res.json().detail, /^The payload is empty/);
    assert.equal(res.json().credits_used, 0);
    assert.equal(await used(), spent);
  });

  it("answers 400 naming the payload when it is missing or not a string, and unknown fields", async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{}, { payload: "is required" }],
      [{ payload: 42 }, { payload: "must be a string" }],
      [{ payload: "x", secret: 1 }, { secret: "must be a string" }],
      [{ payload: "x", verify: true }, { verify: "is not a known field" }],
    ];
    for (const [payload, fields] of cases) {
      const res = await post(payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, "validation_error");
      assert.deepEqual(res.json().fields, fields, JSON.stringify(payload));
    }
  });

  it("answers 413 for a body over 1 MiB", async () => {
    const res = await post({ payload: "x".repeat(1024 * 1024) });
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(res.json().code, "payload_too_large");
  });
});
