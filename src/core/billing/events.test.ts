import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PaymentEvent } from "../../ports/payments.ts";
import { decide } from "./events.ts";

const OURS = { toolrun_account: "acc_AAAAAAAAAAAAAAAA", toolrun_pack: "starter", toolrun_credits: "1000" };

function event(type: string, paymentStatus: string, metadata: Record<string, string> = OURS): PaymentEvent {
  return {
    id: "evt_1",
    type,
    session: {
      id: "cs_test_1",
      paymentStatus,
      clientReferenceId: metadata.toolrun_account ?? null,
      metadata,
    },
  };
}

const owed = {
  grant: { accountId: "acc_AAAAAAAAAAAAAAAA", credits: 1000, sessionId: "cs_test_1", packId: "starter" },
};

describe("which Stripe events grant what", () => {
  it("a completed, paid session grants its pack's credits to its account, the session id the reference", () => {
    assert.deepEqual(decide(event("checkout.session.completed", "paid")), owed);
  });

  it("a completed session not paid yet grants nothing; its async success grants", () => {
    assert.ok("ignored" in decide(event("checkout.session.completed", "unpaid")));
    assert.deepEqual(decide(event("checkout.session.async_payment_succeeded", "paid")), owed);
  });

  it("a failed or expired session, and any other event, grant nothing", () => {
    for (const type of ["checkout.session.async_payment_failed", "checkout.session.expired"])
      assert.ok("ignored" in decide(event(type, "unpaid")), type);
    assert.ok("ignored" in decide({ id: "evt_2", type: "charge.refunded", session: null }));
    assert.ok("ignored" in decide({ id: "evt_3", type: "charge.dispute.created", session: null }));
  });

  it("another application's checkout, without our metadata or with credits that are not a count, grants nothing", () => {
    assert.ok("ignored" in decide(event("checkout.session.completed", "paid", { order: "42" })));
    for (const credits of ["0", "-5", "1.5", "many", ""])
      assert.ok(
        "ignored" in
          decide(event("checkout.session.completed", "paid", { ...OURS, toolrun_credits: credits })),
        credits,
      );
  });
});
