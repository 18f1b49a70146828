/**
 * Grants through the admin API on every store this machine runs: a grant made (201) with its
 * audit entry and its `credits.granted` event, the same reference answered 200 with that grant and
 * nothing written again, the grants listed in spend order and spent in it by calls, each mistake
 * refused naming its field.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { storesToTest } from "../helpers/stores.ts";
import { adminClient } from "./helpers.ts";

const plans = { free: { id: "free", label: "Free", rpm: 1000, monthlyCredits: 3, minCredits: 3 } };

for (const { name, make } of storesToTest({ postgres: "system" })) {
  describe(`account grants (${name})`, () => {
    async function setup(t: TestContext) {
      const app = await createTestApp({ plans, store: await make() }, t);
      const admin = await adminClient(app);
      const account = (await admin.post("/accounts", { name: "acme", plan: "free" })).json();
      const { key } = (await admin.post("/keys", { account_id: account.id })).json();
      const call = () =>
        app.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: { value: 1 },
        });
      const credits = async () =>
        (await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json();
      return { app, admin, id: account.id as string, call, credits };
    }

    it("makes a grant once per reference: 201 with its event and audit entry, then 200 with the same grant", async (t) => {
      const { app, admin, id } = await setup(t);
      const hook = await admin.post("/webhooks", {
        url: "https://example.com/hooks",
        events: ["credits.granted"],
      });
      assert.equal(hook.statusCode, 201, hook.body);
      const body = {
        credits: 500,
        category: "paid",
        reference: "cs_test_1",
        expires_at: "2027-11-15T12:00:00Z",
      };
      const made = await admin.post(`/accounts/${id}/grants`, body);
      assert.equal(made.statusCode, 201, made.body);
      const grant = made.json();
      assert.deepEqual(grant, {
        id: grant.id,
        account_id: id,
        credits: 500,
        remaining: 500,
        expires_at: "2027-11-15T12:00:00.000Z",
        category: "paid",
        reference: "cs_test_1",
        created_at: app.clock.now().toISOString(),
      });
      const again = await admin.post(`/accounts/${id}/grants`, { ...body, credits: 9 });
      assert.equal(again.statusCode, 200, again.body);
      assert.deepEqual(again.json(), grant);
      const audit = (await admin.get(`/audit?target=${id}`)).json().entries as { action: string }[];
      assert.deepEqual(
        audit.map((e) => e.action),
        ["credits.grant", "accounts.create"],
      );
      const deliveries = (await admin.get(`/webhooks/${hook.json().id}/deliveries`)).json().deliveries;
      assert.equal(deliveries.length, 1);
      const [claimed] = await app.store.claimWebhookDeliveries({
        now: "2999-01-01T00:00:00.000Z",
        leaseUntil: "2999-01-01T00:01:00.000Z",
        claim: "test",
        limit: 10,
      });
      assert.equal(claimed?.event.type, "credits.granted");
      assert.deepEqual(JSON.parse(claimed?.event.data ?? "{}"), {
        account_id: id,
        grant_id: grant.id,
        credits: 500,
        category: "paid",
        expires_at: "2027-11-15T12:00:00.000Z",
        reference: "cs_test_1",
      });
    });

    it("lists the live grants in spend order, and calls spend them in it after the allowance", async (t) => {
      const { admin, id, call, credits } = await setup(t);
      const never = (await admin.post(`/accounts/${id}/grants`, { credits: 3 })).json();
      const soon = (
        await admin.post(`/accounts/${id}/grants`, { credits: 3, expires_at: "2026-11-20T00:00:00Z" })
      ).json();
      const listed = (await admin.get(`/accounts/${id}/grants`)).json().grants;
      assert.deepEqual(
        listed.map((g: { id: string }) => g.id),
        [soon.id, never.id],
      );
      const first = await call();
      assert.equal(first.json().credits_remaining, 6, "the allowance first");
      const second = await call();
      assert.equal(second.json().credits_remaining, 3);
      const read = await credits();
      assert.deepEqual(
        [read.monthly_allowance, read.credits_used, read.monthly_remaining, read.credits_remaining],
        [3, 3, 0, 3],
      );
      assert.deepEqual(read.grants, [
        { id: never.id, remaining: 3, expires_at: null, category: "promotional" },
      ]);
      assert.equal((await call()).statusCode, 200);
      assertProblem(await call(), 402, "insufficient_credits");
      assert.deepEqual((await admin.get(`/accounts/${id}/grants`)).json().grants, []);
      const account = (await admin.get(`/accounts/${id}`)).json();
      assert.deepEqual([account.credits_remaining, account.monthly_remaining, account.grants], [0, 0, []]);
    });

    it("refuses a bad grant naming the field, and an unknown account with 404", async (t) => {
      const { admin, id } = await setup(t);
      for (const [body, field] of [
        [{ credits: 0 }, "credits"],
        [{}, "credits"],
        [{ credits: 5, category: "gift" }, "category"],
        [{ credits: 5, expires_at: "tomorrow" }, "expires_at"],
        [{ credits: 5, expires_at: "2026-11-01T00:00:00Z" }, "expires_at"],
        [{ credits: 5, reference: "" }, "reference"],
        [{ credits: 5, extra: true }, "extra"],
      ] as const) {
        const problem = assertProblem(
          await admin.post(`/accounts/${id}/grants`, body),
          400,
          "validation_error",
        );
        assert.match(JSON.stringify(problem.fields), new RegExp(field), JSON.stringify(body));
      }
      assertProblem(
        await admin.post("/accounts/acc_missing/grants", { credits: 5 }),
        404,
        "account_not_found",
      );
      assertProblem(await admin.get("/accounts/acc_missing/grants"), 404, "account_not_found");
      assert.deepEqual((await admin.get(`/accounts/${id}/grants`)).json().grants, []);
    });
  });
}
