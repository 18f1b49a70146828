/**
 * The admin API's own rate limit: each admin key may make TOOLRUN_ADMIN_RPM requests a minute, in
 * fixed windows aligned to the UTC minute like customer keys', answered with the same headers; one
 * more is 429 `rate_limited` with `Retry-After` and changes nothing. It shares nothing with the
 * customer keys' windows, nor with another admin key's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bearer, createTestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { adminClient } from "./helpers.ts";

const LIMIT = 5;

describe("admin API rate limit", () => {
  it("answers 429 rate_limited with Retry-After past TOOLRUN_ADMIN_RPM requests a minute, per admin key", async (t) => {
    const app = await createTestApp({ adminRpm: LIMIT, at: "2026-11-15T12:00:15.400Z" }, t);
    const admin = await adminClient(app, "ops");
    const other = await adminClient(app, "other");
    const customer = await app.key("free");
    const answers = [];
    for (let i = 0; i < LIMIT; i++) answers.push(await admin.get("/keys"));
    for (const [i, res] of answers.entries()) {
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers["ratelimit-policy"], `"minute";q=${LIMIT};w=60`);
      assert.equal(res.headers.ratelimit, `"minute";r=${LIMIT - 1 - i};t=45`);
    }
    const refused = await admin.post("/keys", { plan: "free", name: "one too many" });
    const body = assertProblem(refused, 429, "rate_limited");
    assert.equal(refused.headers["retry-after"], "45");
    assert.equal(body.retry_after, 45);
    assert.match(String(body.detail), new RegExp(`${LIMIT} requests per minute`));
    // Refused before the route ran: no key was made.
    const listed = await other.get("/keys");
    assert.equal(listed.statusCode, 200);
    assert.equal(
      (listed.json().keys as { name: string }[]).some((k) => k.name === "one too many"),
      false,
    );
    // The customer key's window is its own.
    const me = await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(customer) });
    assert.equal(me.statusCode, 200);
    assert.equal(me.headers.ratelimit, `"minute";r=59;t=45`);
    app.clock.advance(45_000);
    assert.equal((await admin.get("/keys")).statusCode, 200);
  });
});
