/**
 * Grants racing calls on PostgreSQL, the calls on one instance and the grants on another sharing
 * the database: no credit spent past the allowance and the grants, no grant lost, every charged
 * credit taken from exactly one pool. The admin API reads the key uncached, so the final figures do not wait for a notification.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { adminClient } from "./helpers.ts";

const db = testDatabaseUrl();

describe("grants racing calls on PostgreSQL, two instances", { skip: db.skip }, () => {
  const url = db.url ?? "";
  const schema = uniqueSchema();
  after(() => dropSchema(url, schema));

  it("charges exactly what the 200s say, within the allowance and every grant", async (t) => {
    const plans = { free: { id: "free", label: "Free", rpm: 1000, monthlyCredits: 9, minCredits: 2 } };
    const calls = await createTestApp({ plans, store: await createPostgresStore({ url, schema }) }, t);
    const grants = await createTestApp({ plans, store: await createPostgresStore({ url, schema }) }, t);
    const admin = await adminClient(grants);
    const { id, key } = (await admin.post("/keys", { plan: "free" })).json();
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, () =>
        calls.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: { value: 1 },
        }),
      ),
      ...Array.from({ length: 10 }, () => admin.post(`/keys/${id}/grants`, { credits: 3 })),
    ]);
    assert.ok(answers.slice(30).every((a) => a.statusCode === 200));
    const called = answers.slice(0, 30);
    assert.ok(called.every((c) => c.statusCode === 200 || c.statusCode === 402));
    const paid = called.filter((c) => c.statusCode === 200).length;
    const usage = (await admin.get(`/keys/${id}/usage`)).json();
    const grantsLeft = usage.credits.grants.reduce(
      (sum: number, g: { remaining: number }) => sum + g.remaining,
      0,
    );
    assert.equal(usage.credits.monthly_allowance, 9);
    assert.equal(usage.credits.credits_used, 9);
    assert.equal(usage.credits.credits_used + (30 - grantsLeft), paid * 3);
    assert.equal(usage.credits.credits_remaining, 39 - paid * 3);
    assert.equal(usage.usage.by_tool[0].credits, paid * 3);
    assert.equal(usage.usage.calls, paid);
  });
});
