import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

describe("GET /v1/me/credits and /v1/me/usage", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await createTestApp({ at: "2026-11-30T23:59:00.000Z" }, suite);
  });

  it("reports the calendar month in UTC and renews the allowance on the 1st", async () => {
    const key = await t.key("free", 10);
    const call = () =>
      t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: 1 },
      });
    assert.equal((await call()).statusCode, 200);
    assert.equal((await call()).statusCode, 200);
    assert.equal((await call()).statusCode, 200);
    assert.equal((await call()).statusCode, 402);
    const november = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.deepEqual(november.json(), {
      account_id: (await t.recordOf(key)).accountId,
      account_name: "test",
      plan: "free",
      monthly_allowance: 10,
      credits_used: 9,
      monthly_remaining: 1,
      credits_remaining: 1,
      grants: [],
      period_start: "2026-11-01T00:00:00.000Z",
      period_end: "2026-12-01T00:00:00.000Z",
      metering: true,
      key: { id: (await t.recordOf(key)).id, tools: null, access: "full" },
    });
    t.clock.set("2026-12-01T00:00:00.000Z");
    const december = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(december.json().credits_used, 0);
    assert.equal(december.json().credits_remaining, 10);
    assert.equal(december.json().period_start, "2026-12-01T00:00:00.000Z");
    assert.equal((await call()).statusCode, 200);
  });

  it("pages through usage and agrees with the credits to the credit", async () => {
    t.clock.set("2026-11-10T10:00:00.000Z");
    const key = await t.key("builder");
    for (let i = 0; i < 5; i++) {
      await t.app.inject({
        method: "POST",
        url: i === 4 ? "/v1/tool/heavy-text" : "/v1/tool/echo",
        headers: json({ ...bearer(key), "x-request-id": `call-${i}` }),
        payload: i === 4 ? { text: "hello" } : { value: i, mode: i === 2 ? "unprocessable" : "ok" },
      });
      t.clock.advance(1000);
    }
    const first = await t.app.inject({ method: "GET", url: "/v1/me/usage?limit=3", headers: bearer(key) });
    assert.equal(first.statusCode, 200);
    const page1 = first.json();
    assert.equal(page1.credits_used, 3 + 3 + 3 + 5);
    assert.equal(page1.calls, 5);
    assert.deepEqual(page1.by_tool, [
      { tool: "echo", calls: 4, credits: 9 },
      { tool: "heavy-text", calls: 1, credits: 5 },
    ]);
    assert.deepEqual(
      page1.recent.map((r: { request_id: string; status: string; credits: number; http_status: number }) => [
        r.request_id,
        r.status,
        r.credits,
        r.http_status,
      ]),
      [
        ["call-4", "charged", 5, 200],
        ["call-3", "charged", 3, 200],
        ["call-2", "refunded", 0, 422],
      ],
    );
    assert.equal(page1.recent[0].at, "2026-11-10T10:00:04.000Z");
    const second = await t.app.inject({
      method: "GET",
      url: `/v1/me/usage?limit=3&cursor=${page1.next_cursor}`,
      headers: bearer(key),
    });
    assert.deepEqual(
      second.json().recent.map((r: { request_id: string }) => r.request_id),
      ["call-1", "call-0"],
    );
    assert.equal(second.json().next_cursor, null);
    const credits = await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assert.equal(credits.json().credits_used, page1.credits_used);
  });

  it("names a bad limit or cursor", async () => {
    const key = await t.key("free");
    const limit = await t.app.inject({ method: "GET", url: "/v1/me/usage?limit=0", headers: bearer(key) });
    assert.equal(limit.statusCode, 400);
    assert.deepEqual(limit.json().fields, { limit: "must be at least 1" });
    const cursor = await t.app.inject({
      method: "GET",
      url: "/v1/me/usage?cursor=abc",
      headers: bearer(key),
    });
    assert.equal(cursor.statusCode, 400);
    assert.deepEqual(cursor.json().fields, { cursor: "is not a valid cursor" });
  });
});
