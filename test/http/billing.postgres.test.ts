/**
 * The Stripe webhook on two instances sharing one PostgreSQL database, as behind a load balancer:
 * the same paid session's event delivered to one, then to the other, grants once; delivered to
 * both at the same moment, it must grant once too.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { createStripePayments } from "../../src/adapters/stripe/payments.ts";
import type { Billing } from "../../src/core/billing/packs.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { bearer, createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import {
  eventOf,
  FAKE_SECRET_KEY,
  FAKE_WEBHOOK_SECRET,
  type FakeStripe,
  signed,
  startFakeStripe,
} from "../helpers/fake-stripe.ts";
import { testDatabaseUrl } from "../helpers/services.ts";

const db = testDatabaseUrl();

describe("the Stripe webhook on two instances sharing PostgreSQL", { skip: db.skip }, () => {
  const url = db.url ?? "";
  const schema = uniqueSchema();
  const suite = untilSuiteEnds();
  let fake: FakeStripe;
  let one: TestApp;
  let two: TestApp;
  after(async () => {
    await fake?.close();
    await dropSchema(url, schema);
  });

  before(async () => {
    fake = await startFakeStripe();
    const billing = (): Billing => ({
      packs: [{ id: "starter", name: "Starter", credits: 1000, price: "price_starter" }],
      payments: createStripePayments({
        secretKey: FAKE_SECRET_KEY,
        webhookSecret: FAKE_WEBHOOK_SECRET,
        apiBase: fake.base,
      }),
    });
    one = await createTestApp(
      { store: await createPostgresStore({ url, schema }), appOptions: { billing: billing() } },
      suite,
    );
    two = await createTestApp(
      {
        store: await createPostgresStore({ url, schema }),
        migrate: false,
        appOptions: { billing: billing() },
      },
      suite,
    );
  });

  /** A paid session's event for a new key's account, and the key. */
  async function paidEvent(): Promise<{ key: string; payload: string }> {
    const key = await one.key("free");
    const { accountId } = await one.recordOf(key);
    const session = {
      id: `cs_test_${accountId}`,
      client_reference_id: accountId,
      metadata: { toolrun_account: accountId, toolrun_pack: "starter", toolrun_credits: "1000" },
    };
    return {
      key,
      payload: JSON.stringify(eventOf(session, "checkout.session.completed", "paid", one.clock.now())),
    };
  }
  const deliver = (to: TestApp, payload: string) =>
    to.app.inject({
      method: "POST",
      url: "/v1/billing/stripe/webhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signed(payload, { at: to.clock.now() }),
      },
      payload,
    });
  const remaining = async (key: string): Promise<number> =>
    (await two.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json()
      .credits_remaining;

  it("grants once when the event comes to one instance, then again to the other", async () => {
    const { key, payload } = await paidEvent();
    const before = await remaining(key);
    assert.equal((await deliver(one, payload)).json().outcome, "granted");
    assert.equal((await deliver(two, payload)).json().outcome, "already_granted");
    assert.equal(await remaining(key), before + 1000);
  });

  it("grants once when the event comes to both instances at the same moment", async () => {
    const { key, payload } = await paidEvent();
    const before = await remaining(key);
    const outcomes = await Promise.all([deliver(one, payload), deliver(two, payload)]);
    assert.deepEqual(outcomes.map((o) => o.json().outcome).toSorted(), ["already_granted", "granted"]);
    assert.equal(await remaining(key), before + 1000);
  });
});
