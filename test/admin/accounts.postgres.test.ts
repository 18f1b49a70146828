/**
 * Several keys of one account calling at once through two instances on one PostgreSQL database,
 * their windows in one Redis: the account's balance is drained exactly (each 200 charged once, no
 * credit past the allowance, no refund lost), and its keys share one per-minute window.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { createRedisRateLimiter } from "../../src/adapters/redis/rate-limiter.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { bearer, createTestApp, json, type TestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { testDatabaseUrl, testRedisUrl, uniqueName } from "../helpers/services.ts";
import { adminClient } from "./helpers.ts";

const db = testDatabaseUrl();
const redis = testRedisUrl();

describe("an account's keys on two instances, PostgreSQL and Redis", { skip: db.skip || redis.skip }, () => {
  const url = db.url ?? "";
  const schema = uniqueSchema();
  after(() => dropSchema(url, schema));

  /** Two instances on the schema and one Redis prefix. */
  async function instances(t: Parameters<typeof createTestApp>[1], rpm: number): Promise<[TestApp, TestApp]> {
    const plans = {
      free: { id: "free", label: "Free", rpm, monthlyCredits: 100, minCredits: 2 },
      builder: { id: "builder", label: "Builder", rpm: 1000, monthlyCredits: 1000, minCredits: 1 },
    };
    const prefix = `${uniqueName("acc")}:`;
    const one = async () => {
      const limiter = createRedisRateLimiter({ url: redis.url ?? "", prefix });
      t.after(() => limiter.close());
      return createTestApp({ plans, limiter, store: await createPostgresStore({ url, schema }) }, t);
    };
    return [await one(), await one()];
  }

  /** A call of the echo tool; a refused one when `refunded` (422, its credits given back). */
  const call = (app: TestApp, key: string, refunded = false) =>
    app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: refunded ? { value: 1, mode: "unprocessable" } : { value: 1 },
    });

  it("drains one balance exactly, refunds included, whichever key and instance calls", async (t) => {
    const [a, b] = await instances(t, 10_000);
    const admin = await adminClient(a);
    const account = (await admin.post("/accounts", { name: "acme", plan: "free" })).json();
    const keys: string[] = [];
    for (let i = 0; i < 3; i++)
      keys.push((await admin.post("/keys", { account_id: account.id, name: `k${i}` })).json().key);
    // Every fifth call is answered 422 and refunded.
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => call(i % 2 ? a : b, keys[i % keys.length] as string, i % 5 === 4)),
    );
    const paid = answers.filter((r) => r.statusCode === 200).length;
    assert.ok(
      answers.every((r) => [200, 402, 422].includes(r.statusCode)),
      answers.map((r) => r.statusCode).join(),
    );
    const read = (await admin.get(`/accounts/${account.id}/usage`)).json();
    assert.equal(read.credits.credits_used, paid * 3);
    assert.equal(read.usage.credits_used, paid * 3);
    assert.ok(paid * 3 <= 100);
    // What is left goes to the last credit, on either instance, by any key.
    for (let i = 0; ; i++) {
      const more = await call(i % 2 ? a : b, keys[i % keys.length] as string);
      if (more.statusCode === 402) break;
      assert.equal(more.statusCode, 200, more.body);
    }
    const final = (await admin.get(`/accounts/${account.id}`)).json();
    assert.deepEqual([final.credits_used, final.credits_remaining], [99, 1]);
    for (const key of keys) {
      const credits = (
        await b.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
      ).json();
      assert.deepEqual([credits.account_id, credits.credits_used], [account.id, 99]);
    }
  });

  it("shares one per-minute window between the keys of an account, across instances", async (t) => {
    const [a, b] = await instances(t, 6);
    const admin = await adminClient(a);
    const account = (await admin.post("/accounts", { name: "acme", plan: "free" })).json();
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) keys.push((await admin.post("/keys", { account_id: account.id })).json().key);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(i % 2 ? a : b, keys[i % 2] as string)),
    );
    assert.equal(answers.filter((r) => r.statusCode === 200).length, 6);
    for (const r of answers.filter((r) => r.statusCode !== 200)) assertProblem(r, 429, "rate_limited");
  });
});
