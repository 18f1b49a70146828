/**
 * The admin API's keys, grants, usage and switches: what each answers, and how each mistake is
 * refused naming its field.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { adminClient } from "./helpers.ts";

describe("admin API: keys", () => {
  it("creates a key shown once, which then works on /v1 with what was set", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const created = await admin.post("/keys", {
      plan: "builder",
      name: "acme",
      monthly_allowance: 500,
      metadata: { customer: "cus_42" },
      expires_at: "2027-01-01T00:00:00+01:00",
    });
    assert.equal(created.statusCode, 201, created.body);
    const key = created.json();
    assert.match(key.key, /^tr_live_[0-9A-Za-z]{32}$/);
    assert.equal(key.prefix, key.key.slice(0, 12));
    assert.match(key.account_id, /^acc_[0-9A-Za-z]{16}$/);
    assert.deepEqual(
      { ...key, id: undefined, key: undefined, prefix: undefined, account_id: undefined },
      {
        id: undefined,
        account_id: undefined,
        key: undefined,
        prefix: undefined,
        name: "acme",
        plan: "builder",
        status: "active",
        own_monthly_allowance: 500,
        monthly_allowance: 500,
        metadata: { customer: "cus_42" },
        expires_at: "2026-12-31T23:00:00.000Z",
        created_at: "2026-11-15T12:00:10.000Z",
        revoked_at: null,
        previous_prefix: null,
        previous_secret_expires_at: null,
        tools: null,
        access: "full",
      },
    );
    const read = await admin.get(`/keys/${key.id}`);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().key, undefined, "the secret is never shown again");
    assert.doesNotMatch(read.body, new RegExp(key.key));
    const credits = await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key.key) });
    assert.equal(credits.statusCode, 200);
    assert.equal(credits.json().monthly_allowance, 500);
    assert.equal(credits.json().plan, "builder");
  });

  it("lists keys oldest first a page at a time, each once", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      app.clock.advance(1000);
      made.push((await admin.post("/keys", { plan: "free", name: `k${i}` })).json().id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await admin.get(`/keys?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(res.statusCode, 200);
      const page = res.json() as { keys: { id: string }[]; next_cursor: string | null };
      assert.ok(page.keys.length <= 2);
      seen.push(...page.keys.map((k) => k.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(seen, made);
  });

  it("updates only what is sent; null puts the allowance back to the plan's and the expiry to never", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const id = (await admin.post("/keys", { plan: "free", name: "a", metadata: { x: "1" } })).json().id;
    const planned = await admin.patch(`/keys/${id}`, { plan: "builder", monthly_allowance: 7 });
    assert.equal(planned.statusCode, 200);
    assert.equal(planned.json().plan, "builder");
    assert.equal(planned.json().name, "a");
    assert.equal(planned.json().monthly_allowance, 7);
    assert.deepEqual(planned.json().metadata, { x: "1" });
    const renamed = await admin.patch(`/keys/${id}`, {
      name: "b",
      monthly_allowance: null,
      metadata: { y: "2" },
      expires_at: "2030-01-01T00:00:00Z",
    });
    assert.equal(renamed.json().name, "b");
    assert.equal(renamed.json().own_monthly_allowance, null);
    assert.equal(renamed.json().monthly_allowance, 100_000);
    assert.deepEqual(renamed.json().metadata, { y: "2" });
    assert.equal(renamed.json().expires_at, "2030-01-01T00:00:00.000Z");
    const never = await admin.patch(`/keys/${id}`, { expires_at: null });
    assert.equal(never.json().expires_at, null);
  });

  it("rotates a key (new secret once, old one refused at once) and revokes it", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const created = (await admin.post("/keys", { plan: "free" })).json();
    const rotated = await admin.post(`/keys/${created.id}/rotate`);
    assert.equal(rotated.statusCode, 200);
    const fresh = rotated.json().key as string;
    assert.notEqual(fresh, created.key);
    const me = (key: string) =>
      app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
    assertProblem(await me(created.key), 401, "invalid_api_key");
    assert.equal((await me(fresh)).statusCode, 200);
    const revoked = await admin.post(`/keys/${created.id}/revoke`);
    assert.equal(revoked.statusCode, 200);
    assert.equal(revoked.json().status, "revoked");
    assertProblem(await me(fresh), 401, "invalid_api_key");
    assertProblem(await admin.post(`/keys/${created.id}/revoke`), 409, "key_revoked");
    assertProblem(await admin.post(`/keys/${created.id}/rotate`), 409, "key_revoked");
    assertProblem(await admin.post(`/keys/${created.id}/grants`, { credits: 5 }), 409, "key_revoked");
  });

  it("refuses to update a revoked key: 409 key_revoked, nothing changed, nothing audited", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const created = (await admin.post("/keys", { plan: "free", name: "before" })).json();
    assert.equal((await admin.post(`/keys/${created.id}/revoke`)).statusCode, 200);
    const refused = await admin.patch(`/keys/${created.id}`, { name: "after", plan: "builder" });
    assertProblem(refused, 409, "key_revoked");
    const read = (await admin.get(`/keys/${created.id}`)).json();
    assert.equal(read.name, "before");
    assert.equal(read.plan, "free");
    const audit = (await admin.get(`/audit?target=${created.id}`)).json();
    assert.deepEqual(
      (audit.entries as { action: string }[]).map((entry) => entry.action),
      ["keys.revoke", "keys.create"],
    );
  });

  it("a grant through a key is spent after the allowance, shown in /v1/me/credits, and lapses at month end", async (t) => {
    const app = await createTestApp(
      { plans: { free: { id: "free", label: "Free", rpm: 100, monthlyCredits: 6, minCredits: 2 } } },
      t,
    );
    const admin = await adminClient(app);
    const { id, key } = (await admin.post("/keys", { plan: "free" })).json();
    const call = () =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: 1 },
      });
    assert.equal((await call()).statusCode, 200);
    assert.equal((await call()).statusCode, 200);
    assertProblem(await call(), 402, "insufficient_credits");
    const granted = await admin.post(`/keys/${id}/grants`, { credits: 4, reason: "support ticket 12" });
    assert.equal(granted.statusCode, 200);
    assert.equal(granted.json().monthly_allowance, 6);
    const credits = (
      await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
    ).json();
    const [grant] = credits.grants;
    assert.match(grant.id, /^grt_[0-9A-Za-z]{16}$/);
    assert.deepEqual(credits.grants, [
      { id: grant.id, remaining: 4, expires_at: "2026-12-01T00:00:00.000Z", category: "promotional" },
    ]);
    assert.deepEqual(
      [credits.monthly_allowance, credits.credits_used, credits.monthly_remaining, credits.credits_remaining],
      [6, 6, 0, 4],
    );
    const paid = await call();
    assert.equal(paid.statusCode, 200);
    assert.equal(paid.json().credits_remaining, 1);
    const usage = (await admin.get(`/keys/${id}/usage`)).json();
    assert.equal(usage.key_id, id);
    assert.equal(usage.credits.credits_used, 6);
    assert.equal(usage.credits.credits_remaining, 1);
    assert.equal(usage.usage.credits_used, 6);
    assert.equal(usage.usage.calls, 3);
    assert.deepEqual(usage.usage.by_tool, [{ tool: "echo", calls: 3, credits: 9 }]);
    app.clock.set("2026-12-01T00:00:00.000Z");
    const december = (
      await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
    ).json();
    assert.deepEqual(
      [december.monthly_allowance, december.credits_used, december.credits_remaining, december.grants],
      [6, 0, 6, []],
    );
  });

  it("a call refused 402 with an Idempotency-Key runs on its retry once a grant covers it", async (t) => {
    const app = await createTestApp(
      { plans: { free: { id: "free", label: "Free", rpm: 100, monthlyCredits: 2, minCredits: 2 } } },
      t,
    );
    const admin = await adminClient(app);
    const { id, key } = (await admin.post("/keys", { plan: "free" })).json();
    const call = () =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json({ ...bearer(key), "idempotency-key": "order-7" }),
        payload: { value: 1 },
      });
    assertProblem(await call(), 402, "insufficient_credits");
    await admin.post(`/keys/${id}/grants`, { credits: 1 });
    const ran = await call();
    assert.equal(ran.statusCode, 200);
    assert.equal(ran.json().credits_remaining, 0);
    const replay = await call();
    assert.equal(replay.headers["idempotent-replayed"], "true");
    const { credits } = (await admin.get(`/keys/${id}/usage`)).json();
    assert.deepEqual([credits.credits_used, credits.credits_remaining, credits.grants], [2, 0, []]);
  });

  it("never lets a call spend a credit twice or lose a grant when grants and calls race", async (t) => {
    const app = await createTestApp(
      { plans: { free: { id: "free", label: "Free", rpm: 1000, monthlyCredits: 9, minCredits: 2 } } },
      t,
    );
    const admin = await adminClient(app);
    const { id, key } = (await admin.post("/keys", { plan: "free" })).json();
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, () =>
        app.app.inject({
          method: "POST",
          url: "/v1/tool/echo",
          headers: json(bearer(key)),
          payload: { value: 1 },
        }),
      ),
      ...Array.from({ length: 10 }, () => admin.post(`/keys/${id}/grants`, { credits: 3 })),
    ]);
    const calls = answers.slice(0, 30);
    assert.ok(answers.slice(30).every((a) => a.statusCode === 200));
    const paid = calls.filter((c) => c.statusCode === 200).length;
    assert.ok(calls.every((c) => c.statusCode === 200 || c.statusCode === 402));
    const credits = (
      await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })
    ).json();
    assert.equal(credits.monthly_allowance, 9);
    assert.equal(credits.credits_used, 9);
    const grantsLeft = credits.grants.reduce((sum: number, g: { remaining: number }) => sum + g.remaining, 0);
    assert.equal(
      credits.credits_used + (30 - grantsLeft),
      paid * 3,
      "each credit charged once, from one pool",
    );
    assert.equal(credits.credits_remaining, 39 - paid * 3);
    assert.equal((await admin.get(`/keys/${id}/usage`)).json().usage.by_tool[0].credits, paid * 3);
  });

  it("reads and sets tool switches, and a switched-off tool answers 503 to its next call", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const key = await app.key("builder");
    const listed = (await admin.get("/tools")).json().tools as {
      slug: string;
      enabled: boolean;
      api: boolean;
    }[];
    assert.ok(listed.some((tool) => tool.slug === "echo" && tool.enabled && tool.api));
    const off = await admin.patch("/tools/echo", { enabled: false });
    assert.equal(off.statusCode, 200);
    assert.equal(off.json().enabled, false);
    assert.equal(off.json().api, true);
    const call = await app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1 },
    });
    assertProblem(call, 503, "tool_disabled");
    assert.equal((await admin.patch("/tools/echo", { api: false })).json().enabled, false);
    assertProblem(await admin.patch("/tools/nope", { enabled: true }), 404, "tool_not_found");
  });
});

describe("admin API: mistakes, each named", () => {
  it("refuses bad bodies and parameters with 400 naming every field, and unknown ids with 404", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const fields = async (res: Promise<import("fastify").LightMyRequestResponse>) =>
      assertProblem(await res, 400, "validation_error").fields;
    assert.deepEqual(await fields(admin.post("/keys", { plan: "gold" })), {
      plan: "must be one of: free, builder",
    });
    assert.deepEqual(await fields(admin.post("/keys", { name: "x" })), { plan: "is required" });
    assert.deepEqual(
      await fields(
        admin.post("/keys", {
          plan: "free",
          monthly_allowance: -1,
          expires_at: "tomorrow",
          colour: "red",
        }),
      ),
      {
        monthly_allowance: "must be at least 0",
        expires_at: `must match the pattern ${"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$"}`,
        colour: "is not a known field",
      },
    );
    // Of the right form but no day of the calendar: refused, not rolled over to 2 March.
    assert.deepEqual(
      await fields(admin.post("/keys", { plan: "free", expires_at: "2027-02-30T00:00:00Z" })),
      {
        expires_at: "must be a valid date-time",
      },
    );
    const metadata = await fields(
      admin.post("/keys", { plan: "free", metadata: { "bad name": "x", ok: 3 } }),
    );
    assert.ok(typeof metadata === "object" && metadata !== null && "metadata" in metadata);
    assert.deepEqual(await fields(admin.patch("/keys/key_x", {})), { body: "must have at least 1 member" });
    assert.deepEqual(await fields(admin.post("/keys/key_x/grants", { credits: 0 })), {
      credits: "must be at least 1",
    });
    assert.deepEqual(await fields(admin.get("/keys?limit=0")), { limit: "must be at least 1" });
    assert.deepEqual(await fields(admin.get("/keys?cursor=bm9wZQ")), { cursor: "is not a valid cursor" });
    assert.deepEqual(await fields(admin.get("/audit?cursor=bm9wZQ")), { cursor: "is not a valid cursor" });
    assert.deepEqual(await fields(admin.get("/keys?sort=name")), { sort: "is not a known field" });
    const malformed = assertProblem(
      await app.app.inject({
        method: "POST",
        url: "/admin/v1/keys",
        headers: json(bearer(admin.key)),
        payload: "{not json",
      }),
      400,
      "validation_error",
    );
    assert.equal(malformed.fields, undefined);
    assertProblem(await admin.get("/keys/key_missing"), 404, "key_not_found");
    assertProblem(await admin.patch("/keys/key_missing", { name: "x" }), 404, "key_not_found");
    assertProblem(await admin.post("/keys/key_missing/rotate"), 404, "key_not_found");
    assertProblem(await admin.post("/keys/key_missing/grants", { credits: 1 }), 404, "key_not_found");
    assertProblem(await admin.get("/keys/key_missing/usage"), 404, "key_not_found");
    const wrongMethod = await app.app.inject({
      method: "DELETE",
      url: "/admin/v1/keys/key_x",
      headers: bearer(admin.key),
    });
    assertProblem(wrongMethod, 405, "method_not_allowed");
    assert.equal(wrongMethod.headers.allow, "GET, HEAD, PATCH");
  });

  it("reads a body that is not JSON as a tool call does, with the same detail and no fields", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const key = await app.key("builder");
    for (const payload of ["", "  \n", "{not json", '{"plan":"free",']) {
      const refused = assertProblem(
        await app.app.inject({
          method: "POST",
          url: "/admin/v1/keys",
          headers: json(bearer(admin.key)),
          payload,
        }),
        400,
        "validation_error",
      );
      const call = assertProblem(
        await app.app.inject({ method: "POST", url: "/v1/tool/echo", headers: json(bearer(key)), payload }),
        400,
        "validation_error",
      );
      assert.equal(refused.detail, call.detail, JSON.stringify(payload));
      assert.equal(refused.fields, undefined);
    }
  });
});
