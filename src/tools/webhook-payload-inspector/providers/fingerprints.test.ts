/**
 * Fingerprints rest on what a provider has always sent: older, still-delivered shapes of its
 * events are recognised too (issue 20). Bodies are the providers' published samples.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { row, run } from "../test-support.ts";

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
