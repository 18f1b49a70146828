/**
 * Fingerprints rest on what a provider has always sent: older, still-delivered shapes of its
 * events are recognised too. Bodies are the providers' published samples.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { rawRequest, row, run } from "../../../../test/helpers/tools/webhook-payload-inspector.ts";

describe("Postmark, with and without the members added later", () => {
  // postmarkapp.com/email-webhooks, "Delivery Webhook" sample: no RecordType, no MessageStream.
  const DELIVERY =
    '{"ServerId":23,"MessageID":"883953f4-6105-42a2-a16a-77a8eac79483","Recipient":"john@example.com","Tag":"welcome-email","DeliveredAt":"2014-08-01T13:28:10.2735393-04:00","Details":"Test delivery webhook details"}';
  // The same page, "Bounce Webhook" sample.
  const BOUNCE =
    '{"ID":42,"Type":"HardBounce","TypeCode":1,"Name":"Hard bounce","Tag":"Test","MessageID":"883953f4-6105-42a2-a16a-77a8eac79483","Description":"The server was unable to deliver your message (ex: unknown user, mailbox not found).","Details":"Test bounce details","Email":"john@example.com","BouncedAt":"2014-08-01T13:28:10.2735393-04:00","DumpAvailable":true,"Inactive":true,"CanActivate":true,"Subject":"Test subject"}';

  test("the documented delivery sample, without RecordType or MessageStream", () => {
    assert.equal(row(run(DELIVERY), "Provider"), "Postmark");
  });

  test("the documented bounce sample", () => {
    assert.equal(row(run(BOUNCE), "Provider"), "Postmark");
  });

  test("a current delivery event, with RecordType but without MessageStream", () => {
    const out = run(DELIVERY.replace("{", '{"RecordType":"Delivery",'));
    assert.equal(row(out, "Provider"), "Postmark");
    assert.equal(row(out, "Event Type"), "Delivery");
  });
});

describe("OpenAI, with and without the optional `object` member", () => {
  // openai-node src/resources/webhooks/webhooks.ts: every event type declares `object?: 'event'`.
  const head = ["Content-Type: application/json", "webhook-id: wh_685c059ae39c8190af8c71ed1022a24d"];

  test("an event without `object` is still OpenAI's", () => {
    const body =
      '{"id":"evt_685c059ae3a481909bdc86819b066fb6","created_at":1750861210,"type":"batch.completed","data":{"id":"batch_1"}}';
    const out = run(rawRequest(head, body));
    assert.equal(row(out, "Provider"), "OpenAI");
    assert.equal(row(out, "Event Type"), "batch.completed");
  });
});

describe("Segment, known by its User-Agent", () => {
  // segment-docs src/connections/destinations/catalog/webhooks/index.md, the "Delete" call: no messageId.
  test("the documented delete call", () => {
    const head = ["User-Agent: Segment/version", "Content-Type: application/json"];
    const body = '{"type":"delete","userId":"019mr8mf4r","timestamp":"2012-12-02T00:30:08.276Z"}';
    assert.equal(row(run(rawRequest(head, body)), "Provider"), "Segment");
  });
});

describe("Docker Hub, without the legacy callback_url", () => {
  // docs.docker.com docker-hub/repos/manage/webhooks: "The `callback_url` field is a legacy field and is no longer supported."
  test("the documented payload with callback_url removed", () => {
    const body =
      '{"push_data":{"pushed_at":1417566161,"pusher":"trustedbuilder","tag":"latest"},"repository":{"name":"testhook","namespace":"svendowideit","repo_name":"svendowideit/testhook","status":"Active"}}';
    assert.equal(row(run(rawRequest(["Content-Type: application/json"], body)), "Provider"), "Docker Hub");
  });
});
