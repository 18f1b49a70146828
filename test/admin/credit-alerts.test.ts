/**
 * Credit alerts through the admin API and the tool calls, on every store this machine runs: an
 * account's own thresholds set, shown and reset with PATCH, each mistake refused naming its field;
 * and the calls of an account reaching its thresholds and running out, each event delivered once
 * to a local receiver that checks it with the `standardwebhooks` library.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import { createWebhookDeliverer } from "../../src/core/admin/webhook-delivery.ts";
import { bearer, createTestApp, json, type TestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { storesToTest } from "../helpers/stores.ts";
import { startReceiver, verified } from "../helpers/webhook-receiver.ts";
import { adminClient } from "./helpers.ts";

/** echo costs 3 credits; the account may spend 10, so its fourth call is refused. */
const ALLOWANCE = 10;

const call = (app: TestApp, key: string) =>
  app.app.inject({ method: "POST", url: "/v1/tool/echo", headers: json(bearer(key)), payload: { value: 1 } });

for (const { name, make } of storesToTest({ postgres: "system" })) {
  describe(`credit alerts (${name})`, () => {
    async function setup(t: TestContext) {
      // The real time, so the receiver's check of the signature's timestamp holds.
      const app = await createTestApp({ store: await make(), at: new Date().toISOString() }, t);
      const admin = await adminClient(app);
      const account = await admin.post("/accounts", {
        name: "acme",
        plan: "free",
        monthly_allowance: ALLOWANCE,
      });
      assert.equal(account.statusCode, 201, account.body);
      const id = account.json().id as string;
      const key = await admin.post("/keys", { account_id: id, name: "ci" });
      assert.equal(key.statusCode, 201, key.body);
      return { app, admin, id, key: key.json().key as string };
    }

    it("sets an account's own thresholds, shows them, and resets them with null", async (t) => {
      const { admin, id } = await setup(t);
      assert.equal((await admin.get(`/accounts/${id}`)).json().alerts, null);
      const changed = await admin.patch(`/accounts/${id}`, {
        alerts: { usedPercent: [90, 50, 90], remainingBelow: [5] },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json().alerts, { usedPercent: [50, 90], remainingBelow: [5] });
      assert.deepEqual((await admin.get(`/accounts/${id}`)).json().alerts, {
        usedPercent: [50, 90],
        remainingBelow: [5],
      });
      const reset = await admin.patch(`/accounts/${id}`, { alerts: null });
      assert.equal(reset.json().alerts, null);
    });

    it("refuses bad thresholds naming the field", async (t) => {
      const { admin, id } = await setup(t);
      for (const alerts of [
        { usedPercent: [0] },
        { usedPercent: [101] },
        { usedPercent: [50.5] },
        { usedPercent: "80" },
        { remainingBelow: [-1] },
        { remainingBelow: Array.from({ length: 21 }, (_, i) => i) },
        { usedPercent: [80], other: [1] },
        [80],
      ]) {
        const problem = assertProblem(
          await admin.patch(`/accounts/${id}`, { alerts }),
          400,
          "validation_error",
        );
        assert.match(JSON.stringify(problem.fields), /alerts/, JSON.stringify(alerts));
      }
      assert.equal((await admin.get(`/accounts/${id}`)).json().alerts, null);
    });

    it("sends each threshold and the month's first refusal once, signed", async (t) => {
      const { app, admin, id, key } = await setup(t);
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const made = await admin.post("/webhooks", {
        url: receiver.url,
        events: ["credits.threshold", "credits.depleted"],
      });
      assert.equal(made.statusCode, 201, made.body);
      const { id: endpointId, secret } = made.json() as { id: string; secret: string };
      for (const status of [200, 200, 200, 402, 402]) assert.equal((await call(app, key)).statusCode, status);
      // The stores date the events by the database's clock: the deliverer's is moved past it.
      app.clock.advance(60_000);
      const deliverer = createWebhookDeliverer({
        store: app.store,
        upstream: createHttpUpstream(),
        now: app.clock.now,
        scheduleMs: [1000],
      });
      assert.equal(await deliverer.deliverDue(), 2);
      assert.equal(await deliverer.deliverDue(), 0, "nothing is sent twice");
      // Each on its own: the threshold is dated by the database's clock, the refusal by the app's.
      const bodies = receiver.received
        .map((delivery) => verified(secret, delivery))
        .sort((a, b) => b.type.localeCompare(a.type));
      const period = new Date().toISOString().slice(0, 7);
      assert.deepEqual(
        bodies.map((b) => [b.type, b.data]),
        [
          [
            "credits.threshold",
            {
              account_id: id,
              period,
              threshold: { kind: "used_percent", value: 80 },
              used: 9,
              allowance: ALLOWANCE,
              remaining: 1,
            },
          ],
          [
            "credits.depleted",
            { account_id: id, period, used: 9, allowance: ALLOWANCE, remaining: 1, credits: 3, tool: "echo" },
          ],
        ],
      );
      const deliveries = (await admin.get(`/webhooks/${endpointId}/deliveries`)).json().deliveries;
      assert.deepEqual(deliveries.map((d: { event_id: string }) => d.event_id).sort(), [
        `evt_dep_${id}_${period}`,
        `evt_thr_${id}_${period}_used_percent_80`,
      ]);
    });
  });
}
