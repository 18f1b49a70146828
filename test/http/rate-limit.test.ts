/**
 * Fixed one-minute windows per key, aligned to the UTC minute.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { DEFAULT_PLANS } from "../../src/core/kernel/settings.ts";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

const LIMIT = 5;

describe("rate limits", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await createTestApp(
      {
        at: "2026-11-15T12:00:15.400Z",
        plans: {
          ...DEFAULT_PLANS,
          free: { id: "free", label: "Free", rpm: LIMIT, monthlyCredits: 1000, minCredits: 2 },
        },
      },
      suite,
    );
  });

  it("admits exactly the limit in a window, then 429 with Retry-After equal to retry_after", async () => {
    const key = await t.key();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await t.app.inject({
        method: i % 2 ? "GET" : "POST",
        url: i % 2 ? "/v1/me/credits" : "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: i % 2 ? undefined : { value: 1 },
      });
      statuses.push(res.statusCode);
      assert.equal(res.headers.ratelimit, `"minute";r=${LIMIT - i - 1};t=45`);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    const limited = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1 },
    });
    assert.equal(limited.statusCode, 429);
    const body = limited.json();
    assert.equal(body.code, "rate_limited");
    assert.equal(body.retry_after, 45);
    assert.equal(limited.headers["retry-after"], "45");
    assert.equal(limited.headers.ratelimit, '"minute";r=0;t=45');
    assert.equal(body.credits_used, undefined);
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(credits.statusCode, 429);
    assert.equal(await t.store.creditsUsed((await t.recordOf(key)).accountId, "2026-11"), 9);
  });

  it("opens a fresh window at the next UTC minute", async () => {
    const key = await t.key();
    for (let i = 0; i < LIMIT; i++)
      await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(
      (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).statusCode,
      429,
    );
    t.clock.set("2026-11-15T12:00:59.999Z");
    const last = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(last.statusCode, 429);
    assert.equal(last.headers["retry-after"], "1");
    t.clock.set("2026-11-15T12:01:00.000Z");
    const fresh = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(fresh.statusCode, 200);
    assert.equal(fresh.headers.ratelimit, `"minute";r=${LIMIT - 1};t=60`);
  });

  it("takes no slot for 401s and unknown slugs, one per other request", async () => {
    t.clock.set("2026-11-15T12:05:00.000Z");
    const key = await t.key();
    for (let i = 0; i < 10; i++) {
      assert.equal(
        (
          await t.app.inject({
            method: "POST",
            url: "/v1/tool/nope",
            headers: json(bearer(key)),
            payload: {},
          })
        ).statusCode,
        404,
      );
      assert.equal(
        (await t.app.inject({ method: "GET", url: "/v1/tool/nope", headers: bearer(key) })).statusCode,
        404,
      );
      assert.equal(
        (
          await t.app.inject({
            method: "GET",
            url: "/v1/me/credits",
            // Another last character: a key that ends in "x" stays itself with an "x".
            headers: bearer(`${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`),
          })
        ).statusCode,
        401,
      );
    }
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: "{bad",
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.headers.ratelimit, `"minute";r=${LIMIT - 1};t=60`);
  });

  it("gives each plan its own limit", async () => {
    t.clock.set("2026-11-15T12:07:00.000Z");
    const builder = await t.key("builder");
    for (let i = 0; i < LIMIT + 3; i++) {
      assert.equal(
        (await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(builder) })).statusCode,
        200,
      );
    }
  });
});
