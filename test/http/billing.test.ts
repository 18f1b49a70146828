/**
 * Buying credits with Stripe Checkout, over HTTP, against a local fake of Stripe: a key's
 * checkout names its account and pack, and the signed events of a paid session grant the pack's
 * credits once, however often they come; a bad or stale signature grants nothing; an unpaid
 * session grants only on its async success; an unknown account is answered 200 and logged.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createStripePayments } from "../../src/adapters/stripe/payments.ts";
import type { Billing } from "../../src/core/billing/packs.ts";
import { adminClient } from "../admin/helpers.ts";
import { bearer, createTestApp, json, PUBLIC_URL, type TestApp, untilSuiteEnds } from "../helpers/app.ts";
import {
  eventOf,
  FAKE_SECRET_KEY,
  FAKE_WEBHOOK_SECRET,
  type FakeStripe,
  signed,
  startFakeStripe,
} from "../helpers/fake-stripe.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { assertProblem } from "../helpers/problem.ts";

const WEBHOOK = "/v1/billing/stripe/webhook";

function billingOn(fake: FakeStripe, price = "price_starter"): Billing {
  return {
    packs: [
      { id: "starter", name: "Starter, 1,000 credits", credits: 1000, price },
      { id: "large", name: "Large, 50,000 credits", credits: 50_000, price: "price_large" },
    ],
    payments: createStripePayments({
      secretKey: FAKE_SECRET_KEY,
      webhookSecret: FAKE_WEBHOOK_SECRET,
      apiBase: fake.base,
    }),
  };
}

describe("buying credits with Stripe Checkout", () => {
  const suite = untilSuiteEnds();
  const log = collectLog();
  let fake: FakeStripe;
  let t: TestApp;
  before(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({ appOptions: { ...log.options.appOptions, billing: billingOn(fake) } }, suite);
  });
  after(() => fake.close());

  const checkout = (key: string, body: unknown) =>
    t.app.inject({
      method: "POST",
      url: "/v1/billing/checkout",
      headers: json(bearer(key)),
      payload: JSON.stringify(body),
    });
  const remaining = async (key: string): Promise<number> =>
    (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json()
      .credits_remaining;
  const accountOf = async (key: string): Promise<string> => (await t.recordOf(key)).accountId;
  /** Stripe's delivery of an event about a session made for the account, signed at the app's time. */
  const deliver = (event: Record<string, unknown>, signature?: string) => {
    const payload = JSON.stringify(event);
    return t.app.inject({
      method: "POST",
      url: WEBHOOK,
      headers: {
        "content-type": "application/json",
        "stripe-signature": signature ?? signed(payload, { at: t.clock.now() }),
      },
      payload,
    });
  };
  /** A session of the pack for the account, made through the checkout route and the fake. */
  async function boughtSession(key: string, pack = "starter") {
    const answer = await checkout(key, { pack });
    assert.equal(answer.statusCode, 200, answer.body);
    const session = fake.sessions.find((s) => s.url === answer.json().url);
    assert.ok(session, "the answer's url is the session's checkout page");
    return session;
  }

  it("creates a Checkout Session for the key's account and the pack, and answers its url", async () => {
    const key = await t.key("free");
    const session = await boughtSession(key, "large");
    const account = await accountOf(key);
    assert.equal(session.mode, "payment");
    assert.equal(session.price, "price_large");
    assert.equal(session.client_reference_id, account);
    assert.deepEqual(session.metadata, {
      toolrun_account: account,
      toolrun_pack: "large",
      toolrun_credits: "50000",
    });
    assert.equal(session.success_url, `${PUBLIC_URL}/account?checkout=success`);
    assert.equal(session.cancel_url, `${PUBLIC_URL}/account?checkout=cancelled`);
  });

  it("lets a read-only key buy", async () => {
    const key = await t.key("free", null, { access: "read" });
    await boughtSession(key);
  });

  it("refuses an unknown pack, naming the field, and a body without one", async () => {
    const key = await t.key("free");
    const problem = assertProblem(await checkout(key, { pack: "huge" }), 400, "validation_error");
    assert.deepEqual(problem.fields, { pack: "must be one of starter, large" });
    assert.ok("pack" in (assertProblem(await checkout(key, {}), 400, "validation_error").fields as object));
    assertProblem(
      await t.app.inject({
        method: "POST",
        url: "/v1/billing/checkout",
        headers: json(bearer(key)),
        payload: "{",
      }),
      400,
      "validation_error",
    );
  });

  it("refuses bodies past their limits with 413, the checkout's and the webhook's", async () => {
    const key = await t.key("free");
    assertProblem(await checkout(key, { pack: "x".repeat(5 * 1024) }), 413, "payload_too_large");
    const huge = JSON.stringify({ id: "evt_huge", padding: "x".repeat(600 * 1024) });
    assertProblem(
      await t.app.inject({
        method: "POST",
        url: WEBHOOK,
        headers: {
          "content-type": "application/json",
          "stripe-signature": signed(huge, { at: t.clock.now() }),
        },
        payload: huge,
      }),
      413,
      "payload_too_large",
    );
  });

  it("needs a key to buy", async () => {
    assertProblem(
      await t.app.inject({ method: "POST", url: "/v1/billing/checkout", headers: json(), payload: "{}" }),
      401,
      "invalid_api_key",
    );
  });

  it("grants a paid session's credits once, however many times its event comes", async () => {
    const key = await t.key("free");
    const session = await boughtSession(key);
    const before = await remaining(key);
    const event = eventOf(session, "checkout.session.completed", "paid", t.clock.now());
    const first = await deliver(event);
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { received: true, outcome: "granted" });
    assert.equal(await remaining(key), before + 1000);
    const again = await deliver(event);
    assert.deepEqual(again.json(), { received: true, outcome: "already_granted" });
    const atOnce = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    assert.deepEqual(
      atOnce.map((a) => a.json().outcome),
      Array.from({ length: 5 }, () => "already_granted"),
    );
    assert.equal(await remaining(key), before + 1000);
  });

  it("grants once when several deliveries of a new session arrive at once", async () => {
    const key = await t.key("free");
    const session = await boughtSession(key);
    const before = await remaining(key);
    const event = eventOf(session, "checkout.session.completed", "paid", t.clock.now());
    const outcomes = (await Promise.all(Array.from({ length: 4 }, () => deliver(event)))).map(
      (a) => a.json().outcome,
    );
    assert.deepEqual(outcomes.toSorted(), [
      "already_granted",
      "already_granted",
      "already_granted",
      "granted",
    ]);
    assert.equal(await remaining(key), before + 1000);
  });

  it("records the grant in the audit log with the session id", async () => {
    const key = await t.key("free");
    const session = await boughtSession(key);
    await deliver(eventOf(session, "checkout.session.completed", "paid", t.clock.now()));
    const admin = await adminClient(t);
    const audit = await admin.get(`/audit?target=${await accountOf(key)}`);
    assert.equal(audit.statusCode, 200, audit.body);
    const grants = (audit.json().entries as { details: Record<string, unknown> }[]).filter((e) =>
      Object.values(e.details).includes(session.id),
    );
    assert.equal(grants.length, 1, audit.body);
    assert.equal(grants[0]?.details.credits, 1000);
  });

  it("grants an unpaid session nothing until its async payment succeeds", async () => {
    const key = await t.key("free");
    const session = await boughtSession(key);
    const before = await remaining(key);
    const completed = await deliver(eventOf(session, "checkout.session.completed", "unpaid", t.clock.now()));
    assert.deepEqual(completed.json(), { received: true, outcome: "ignored" });
    assert.equal(await remaining(key), before);
    const failed = await deliver(
      eventOf(session, "checkout.session.async_payment_failed", "unpaid", t.clock.now()),
    );
    assert.deepEqual(failed.json(), { received: true, outcome: "ignored" });
    assert.equal(await remaining(key), before);
    const succeeded = await deliver(
      eventOf(session, "checkout.session.async_payment_succeeded", "paid", t.clock.now()),
    );
    assert.deepEqual(succeeded.json(), { received: true, outcome: "granted" });
    assert.equal(await remaining(key), before + 1000);
  });

  it("refuses a bad, missing or stale signature with 400 and grants nothing", async () => {
    const key = await t.key("free");
    const session = await boughtSession(key);
    const before = await remaining(key);
    const event = eventOf(session, "checkout.session.completed", "paid", t.clock.now());
    const payload = JSON.stringify(event);
    const wrongSecret = signed(payload, { at: t.clock.now(), secret: "whsec_someoneelse0123456789" });
    assertProblem(await deliver(event, wrongSecret), 400, "payment_signature_invalid");
    const stale = signed(payload, { at: new Date(t.clock.now().getTime() - 301_000) });
    assertProblem(await deliver(event, stale), 400, "payment_signature_invalid");
    const otherBody = signed(JSON.stringify({ ...event, id: "evt_other" }), { at: t.clock.now() });
    assertProblem(await deliver(event, otherBody), 400, "payment_signature_invalid");
    assertProblem(
      await t.app.inject({ method: "POST", url: WEBHOOK, headers: json(), payload }),
      400,
      "payment_signature_invalid",
    );
    assert.equal(await remaining(key), before);
  });

  it("answers an event for an unknown account 200, grants nothing and logs it", async () => {
    const session = { id: "cs_test_nobody", client_reference_id: "acc_0000000000000000", metadata: {} };
    const metadata = {
      toolrun_account: "acc_0000000000000000",
      toolrun_pack: "starter",
      toolrun_credits: "1000",
    };
    const answer = await deliver(
      eventOf({ ...session, metadata }, "checkout.session.completed", "paid", t.clock.now()),
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json(), { received: true, outcome: "unknown_account" });
    const line = await log.lineWhere((l) => l.session_id === "cs_test_nobody");
    assert.equal(line.level, 40);
    assert.equal(line.account_id, "acc_0000000000000000");
  });

  it("ignores other events and other applications' checkouts with 200", async () => {
    const key = await t.key("free");
    const before = await remaining(key);
    const foreign = { id: "cs_test_foreign", client_reference_id: null, metadata: { order: "42" } };
    for (const event of [
      eventOf(foreign, "checkout.session.completed", "paid", t.clock.now()),
      { ...eventOf(foreign, "charge.refunded", "paid", t.clock.now()) },
    ]) {
      const answer = await deliver(event);
      assert.deepEqual(answer.json(), { received: true, outcome: "ignored" });
    }
    assert.equal(await remaining(key), before);
  });

  it("answers 502 when Stripe refuses the checkout, and nothing is bought", async (tc) => {
    const refused = await createTestApp({ appOptions: { billing: billingOn(fake, "price_unknown") } }, tc);
    const key = await refused.key("free");
    const count = fake.sessions.length;
    assertProblem(
      await refused.app.inject({
        method: "POST",
        url: "/v1/billing/checkout",
        headers: json(bearer(key)),
        payload: JSON.stringify({ pack: "starter" }),
      }),
      502,
      "payment_provider_unavailable",
    );
    assert.equal(fake.sessions.length, count);
  });
});

describe("billing off", () => {
  it("answers both routes 404 billing_disabled", async (tc) => {
    const t = await createTestApp({}, tc);
    const key = await t.key("free");
    assertProblem(
      await t.app.inject({
        method: "POST",
        url: "/v1/billing/checkout",
        headers: json(bearer(key)),
        payload: JSON.stringify({ pack: "starter" }),
      }),
      404,
      "billing_disabled",
    );
    assertProblem(
      await t.app.inject({
        method: "POST",
        url: WEBHOOK,
        headers: json({ "stripe-signature": "t=1,v1=00" }),
        payload: "{}",
      }),
      404,
      "billing_disabled",
    );
  });
});
