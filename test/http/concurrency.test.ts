/**
 * Money under concurrency: many simultaneous calls on a key whose balance covers only some.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { bearer, createTestApp, json, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

describe("credits under concurrent calls", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await createTestApp(
      {
        plans: { free: { id: "free", label: "Free", rpm: 1000, monthlyCredits: 1000, minCredits: 2 } },
      },
      suite,
    );
  });

  it("admits exactly the affordable number of simultaneous calls and refuses the rest with 402", async () => {
    const key = await t.key("free", 50);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: { value: i },
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    // 50 credits at 3 a call: 16 calls fit, 2 credits are left, the other 24 are refused.
    assert.equal(statuses.filter((s) => s === 200).length, 16);
    assert.equal(statuses.filter((s) => s === 402).length, 24);
    for (const r of responses.filter((x) => x.statusCode === 402)) {
      assert.equal(r.json().code, "insufficient_credits");
      assert.equal(r.json().credits_used, 0);
      assert.equal(r.json().credits_remaining, 2);
    }
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => r.json().credits_remaining);
    assert.deepEqual(
      [...remaining].sort((a, b) => a - b),
      Array.from({ length: 16 }, (_, i) => 2 + 3 * i),
    );
    const credits = (
      await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
    ).json();
    const usage = (
      await t.app.inject({ method: "GET", url: "/v1/me/usage?limit=100", headers: bearer(key) })
    ).json();
    assert.deepEqual(
      [credits.credits_used, credits.credits_remaining, usage.credits_used, usage.calls],
      [48, 2, 48, 16],
    );
  });

  it("with refunds in the mix, never admits more than is affordable; every figure agrees", async () => {
    const key = await t.key("free", 50);
    const calls = Array.from({ length: 40 }, (_, i) =>
      t.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: i, mode: i % 10 === 0 ? "unprocessable" : "ok" },
      }),
    );
    const responses = await Promise.all(calls);
    const byStatus = new Map<number, number>();
    for (const r of responses) byStatus.set(r.statusCode, (byStatus.get(r.statusCode) ?? 0) + 1);
    const ok = byStatus.get(200) ?? 0;
    const refunded = byStatus.get(422) ?? 0;
    const refused = byStatus.get(402) ?? 0;
    assert.equal(ok + refunded + refused, 40);
    // Each success holds 3 of the 50 credits for good; refunded calls give theirs back. How many
    // calls fit depends on whether a 422 is refunded before later calls reserve (the store may
    // commit simultaneous reservations together), never on anything but the ledger: at most 16
    // succeed, the balance ran out (calls were refused), and every figure below agrees.
    assert.ok(ok <= 16 && ok + refunded >= 16 && refused > 0, `ok ${ok}, refunded ${refunded}`);
    assert.ok(refunded > 0);
    const spent = ok * 3;
    for (const r of responses.filter((x) => x.statusCode === 402)) {
      assert.equal(r.json().credits_used, 0);
    }
    const credits = (
      await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
    ).json();
    assert.equal(credits.credits_used, spent);
    assert.equal(credits.credits_remaining, 50 - spent);
    const usage = (
      await t.app.inject({ method: "GET", url: "/v1/me/usage?limit=100", headers: bearer(key) })
    ).json();
    assert.equal(usage.credits_used, spent);
    assert.equal(usage.calls, ok + refunded);
    assert.deepEqual(usage.by_tool, [{ tool: "echo", calls: ok + refunded, credits: spent }]);
    const charged = usage.recent.filter((c: { status: string }) => c.status === "charged");
    assert.equal(charged.length, ok);
    assert.equal(
      charged.reduce((sum: number, c: { credits: number }) => sum + c.credits, 0),
      spent,
    );
    const minRemaining = Math.min(
      ...responses.filter((r) => r.statusCode === 200).map((r) => r.json().credits_remaining),
    );
    assert.equal(minRemaining, 2);
  });

  it("a refunded call leaves the balance exactly where it was", async () => {
    const key = await t.key("free");
    const before = (
      await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
    ).json();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: { value: 1, mode: "crash" },
        }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.statusCode),
      Array(10).fill(500),
    );
    const afterCredits = (
      await t.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
    ).json();
    assert.equal(afterCredits.credits_used, before.credits_used);
  });
});
