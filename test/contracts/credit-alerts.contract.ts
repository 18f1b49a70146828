/**
 * Credit alerts, the same for every adapter: `credits.threshold` written by the store in the
 * transaction of the charge that reaches a threshold, each at most once per account and month,
 * and `credits.depleted` once per account and month. Each adapter's test file calls
 * `describeCreditAlertsContract` with a database two instances can open.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it, type TestContext } from "node:test";
import { DEFAULT_CREDIT_ALERTS, depletedEvent } from "../../src/core/kernel/credit-alerts.ts";
import { periodOf } from "../../src/core/kernel/credits.ts";
import type { CreditAlerts, Store } from "../../src/ports/store.ts";
import { accountOf, newKey, reservation } from "./store.contract.ts";
import { newEndpoint, type WebhookDatabase } from "./webhook-store.contract.ts";

/** The current month: a change of an account's terms re-aims the month the database's clock is in. */
const PERIOD = periodOf(new Date()).id;
const ALLOWANCE = 100;

interface SentEvent {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export function describeCreditAlertsContract(
  name: string,
  makeDatabase: () => Promise<WebhookDatabase>,
): void {
  describe(`Credit alerts contract: ${name}`, () => {
    /** `count` instances on one new database, configured, with an endpoint taking both events. */
    async function stores(t: TestContext, count = 1, alerts: CreditAlerts = DEFAULT_CREDIT_ALERTS) {
      const db = await makeDatabase();
      const opened: Store[] = [];
      for (let i = 0; i < count; i++) opened.push(await db.open());
      t.after(async () => {
        for (const store of opened) await store.close();
        await db.cleanup();
      });
      const [first] = opened as [Store];
      await first.configureCreditAlerts(
        { alerts, metering: true, planAllowances: { free: 1000 }, fallbackAllowance: 1000 },
        PERIOD,
      );
      await first.createWebhookEndpoint(newEndpoint({ events: ["credits.threshold", "credits.depleted"] }));
      return opened;
    }

    async function newAccountKey(store: Store): Promise<string> {
      const key = newKey({ monthlyAllowance: ALLOWANCE });
      await store.createKey(key);
      return key.id;
    }

    /** A call of `credits` that runs and is charged. */
    async function charge(store: Store, keyId: string, credits: number, period = PERIOD) {
      const outcome = await store.runCall(
        reservation(keyId, { credits, allowance: ALLOWANCE, period }),
        () => ({ ok: true, value: "ran" }),
      );
      assert.equal(outcome.status, "charged");
    }

    /** A call of `credits` reserved (its credits held), whose tool then fails: refunded. */
    async function reserveAndRefund(store: Store, keyId: string, credits: number) {
      const outcome = await store.runReservedCall(
        reservation(keyId, { credits, allowance: ALLOWANCE }),
        () => ({ ok: false, httpStatus: 502, error: new Error("upstream down") }),
      );
      assert.equal(outcome.status, "refunded");
    }

    /** Every event waiting for delivery, in the order written. */
    async function sent(store: Store): Promise<SentEvent[]> {
      const claimed = await store.claimWebhookDeliveries({
        now: "2100-01-01T00:00:00.000Z",
        leaseUntil: "2100-01-01T00:01:00.000Z",
        claim: randomUUID(),
        limit: 100,
      });
      return claimed.map(({ event }) => ({
        id: event.id,
        type: event.type,
        data: JSON.parse(event.data) as Record<string, unknown>,
      }));
    }

    const thresholds = (events: readonly SentEvent[]) =>
      events
        .filter((e) => e.type === "credits.threshold")
        .map(
          (e) =>
            (e.data.threshold as { kind: string; value: number }).kind +
            ":" +
            (e.data.threshold as { value: number }).value,
        );

    it("fires a threshold in the charge that reaches it, with the figures and the period", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const keyId = await newAccountKey(store);
      await charge(store, keyId, 30);
      await charge(store, keyId, 30);
      assert.deepEqual(await sent(store), []);
      await charge(store, keyId, 30);
      const [event, ...more] = await sent(store);
      assert.deepEqual(more, []);
      assert.deepEqual(event, {
        id: `evt_thr_${accountOf(keyId)}_${PERIOD}_used_percent_80`,
        type: "credits.threshold",
        data: {
          account_id: accountOf(keyId),
          period: PERIOD,
          threshold: { kind: "used_percent", value: 80 },
          used: 90,
          allowance: ALLOWANCE,
          remaining: 10,
        },
      });
      await charge(store, keyId, 10);
      assert.deepEqual(thresholds(await sent(store)), ["used_percent:100"]);
    });

    it("fires each threshold once while refunds make use hover around it", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const keyId = await newAccountKey(store);
      await charge(store, keyId, 79);
      await reserveAndRefund(store, keyId, 2);
      assert.deepEqual(thresholds(await sent(store)), ["used_percent:80"]);
      await reserveAndRefund(store, keyId, 2);
      await reserveAndRefund(store, keyId, 5);
      await charge(store, keyId, 1);
      assert.equal(await store.creditsUsed(accountOf(keyId), PERIOD), 80);
      assert.deepEqual(await sent(store), []);
    });

    it("fires every threshold one charge reaches, lowest first", async (t) => {
      const alerts = { usedPercent: [50, 80, 100], remainingBelow: [30] };
      const [store] = (await stores(t, 1, alerts)) as [Store];
      const keyId = await newAccountKey(store);
      await charge(store, keyId, 85);
      assert.deepEqual(thresholds(await sent(store)), [
        "used_percent:50",
        "remaining_below:30",
        "used_percent:80",
      ]);
      await charge(store, keyId, 15);
      assert.deepEqual(thresholds(await sent(store)), ["used_percent:100"]);
    });

    it("uses the account's own thresholds, and the configuration's again once they are removed", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const keyId = await newAccountKey(store);
      const accountId = accountOf(keyId);
      assert.equal(await store.updateAccount(accountId, { alerts: { remainingBelow: [40] } }), true);
      assert.deepEqual((await store.getAccount(accountId))?.alerts, { remainingBelow: [40] });
      await charge(store, keyId, 60);
      const [event] = await sent(store);
      assert.deepEqual(event?.data, {
        account_id: accountId,
        period: PERIOD,
        threshold: { kind: "remaining_below", value: 40 },
        used: 60,
        allowance: ALLOWANCE,
        remaining: 40,
      });
      // Its own usedPercent is left out: the configuration's 80 and 100 still hold.
      await charge(store, keyId, 20);
      assert.deepEqual(thresholds(await sent(store)), ["used_percent:80"]);
      assert.equal(await store.updateAccount(accountId, { alerts: { usedPercent: [90] } }), true);
      await charge(store, keyId, 15);
      assert.deepEqual(thresholds(await sent(store)), ["used_percent:90"]);
      // Back to the configuration's: the change itself reaches 80 (marked already) and not 100.
      assert.equal(await store.updateAccount(accountId, { alerts: null }), true);
      assert.equal((await store.getAccount(accountId))?.alerts, null);
      assert.deepEqual(await sent(store), []);
      await charge(store, keyId, 5);
      assert.deepEqual(thresholds(await sent(store)), ["used_percent:100"]);
    });

    it("fires a threshold that a change of the account's allowance reaches, with that change", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const keyId = await newAccountKey(store);
      await charge(store, keyId, 50);
      assert.equal(await store.updateAccount(accountOf(keyId), { monthlyAllowance: 60 }), true);
      const [event] = await sent(store);
      assert.deepEqual(event?.data, {
        account_id: accountOf(keyId),
        period: PERIOD,
        threshold: { kind: "used_percent", value: 80 },
        used: 50,
        allowance: 60,
        remaining: 10,
      });
    });

    it("starts again each month", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const keyId = await newAccountKey(store);
      await charge(store, keyId, 90, "2026-10");
      await charge(store, keyId, 90, "2026-11");
      const events = await sent(store);
      assert.deepEqual(
        events.map((e) => [e.id, e.data.period]),
        [
          [`evt_thr_${accountOf(keyId)}_2026-10_used_percent_80`, "2026-10"],
          [`evt_thr_${accountOf(keyId)}_2026-11_used_percent_80`, "2026-11"],
        ],
      );
    });

    it("fires each threshold once when two instances charge the account at once", async (t) => {
      const [one, two] = (await stores(t, 2)) as [Store, Store];
      const keyId = await newAccountKey(one);
      await Promise.all(Array.from({ length: 20 }, (_, i) => charge(i % 2 === 0 ? one : two, keyId, 5)));
      assert.equal(await one.creditsUsed(accountOf(keyId), PERIOD), 100);
      assert.deepEqual(thresholds(await sent(one)).sort(), ["used_percent:100", "used_percent:80"]);
    });

    it("writes nothing when metering is off", async (t) => {
      const [store] = (await stores(t)) as [Store];
      await store.configureCreditAlerts(
        {
          alerts: DEFAULT_CREDIT_ALERTS,
          metering: false,
          planAllowances: { free: 1000 },
          fallbackAllowance: 1000,
        },
        PERIOD,
      );
      const keyId = await newAccountKey(store);
      await charge(store, keyId, 100);
      assert.deepEqual(await sent(store), []);
    });

    it("records the month's first refusal once, with its event, across instances", async (t) => {
      const [one, two] = (await stores(t, 2)) as [Store, Store];
      const keyId = await newAccountKey(one);
      const accountId = accountOf(keyId);
      const now = new Date();
      const event = depletedEvent(
        { accountId, period: PERIOD, used: 99, allowance: ALLOWANCE, credits: 2, tool: "calc" },
        now,
      );
      assert.equal(await one.recordDepletion(accountId, PERIOD, now.toISOString(), [event]), true);
      assert.equal(await one.recordDepletion(accountId, PERIOD, now.toISOString(), [event]), false);
      assert.equal(await two.recordDepletion(accountId, PERIOD, now.toISOString(), [event]), false);
      const [sentEvent, ...more] = await sent(one);
      assert.deepEqual(more, []);
      assert.deepEqual(sentEvent, {
        id: `evt_dep_${accountId}_${PERIOD}`,
        type: "credits.depleted",
        data: {
          account_id: accountId,
          period: PERIOD,
          used: 99,
          allowance: 100,
          remaining: 1,
          credits: 2,
          tool: "calc",
        },
      });
      assert.equal(await two.recordDepletion(accountId, "2099-01", now.toISOString(), []), true);
    });
  });
}
