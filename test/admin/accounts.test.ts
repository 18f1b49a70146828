/**
 * Accounts through the admin API: several keys of one account spend one balance, share one
 * per-minute window and one idempotency scope, and read the account's figures at /v1/me; a key
 * made without an account has one of its own. Each mistake is refused naming its field.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bearer, createTestApp, json, type TestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { type AdminClient, adminClient } from "./helpers.ts";

const plans = {
  free: { id: "free", label: "Free", rpm: 100, monthlyCredits: 10, minCredits: 2 },
  tiny: { id: "tiny", label: "Tiny", rpm: 5, monthlyCredits: 1000, minCredits: 1 },
  builder: { id: "builder", label: "Builder", rpm: 300, monthlyCredits: 100_000, minCredits: 1 },
};

const call = (app: TestApp, key: string, headers: Record<string, string> = {}) =>
  app.app.inject({
    method: "POST",
    url: "/v1/tool/echo",
    headers: { ...json(bearer(key)), ...headers },
    payload: { value: 1 },
  });

const credits = async (app: TestApp, key: string) =>
  (await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json();

/** An account and two keys of it, made through the admin API. */
async function team(admin: AdminClient, body: object = { name: "acme", plan: "free" }) {
  const account = await admin.post("/accounts", body);
  assert.equal(account.statusCode, 201, account.body);
  const id = account.json().id as string;
  const made = [];
  for (const name of ["ci", "laptop"]) {
    const key = await admin.post("/keys", { account_id: id, name });
    assert.equal(key.statusCode, 201, key.body);
    made.push(key.json() as { id: string; key: string; account_id: string });
  }
  return { id, keys: made };
}

describe("admin API: accounts", () => {
  it("creates an account, shown with its balance and key count, read back and listed", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const created = await admin.post("/accounts", {
      name: "acme",
      plan: "builder",
      monthly_allowance: 500,
      metadata: { crm: "c-7" },
    });
    assert.equal(created.statusCode, 201, created.body);
    const account = created.json();
    assert.match(account.id, /^acc_[0-9A-Za-z]{16}$/);
    assert.deepEqual(account, {
      id: account.id,
      name: "acme",
      plan: "builder",
      own_monthly_allowance: 500,
      monthly_allowance: 500,
      credits_used: 0,
      monthly_remaining: 500,
      credits_remaining: 500,
      grants: [],
      metadata: { crm: "c-7" },
      alerts: null,
      key_count: 0,
      created_at: "2026-11-15T12:00:10.000Z",
    });
    assert.deepEqual((await admin.get(`/accounts/${account.id}`)).json(), account);
    const key = await admin.post("/keys", { account_id: account.id, name: "ci" });
    assert.equal(key.statusCode, 201, key.body);
    assert.equal(key.json().account_id, account.id);
    assert.equal(key.json().plan, "builder");
    assert.equal(key.json().monthly_allowance, 500);
    assert.equal((await admin.get(`/accounts/${account.id}`)).json().key_count, 1);
    const keys = (await admin.get(`/accounts/${account.id}/keys`)).json();
    assert.deepEqual(
      keys.keys.map((k: { id: string }) => k.id),
      [key.json().id],
    );
    assert.equal(keys.next_cursor, null);
  });

  it("gives a key made without an account a one-key account of its own, as before", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const key = (await admin.post("/keys", { plan: "builder", name: "solo", monthly_allowance: 40 })).json();
    assert.match(key.account_id, /^acc_[0-9A-Za-z]{16}$/);
    const account = (await admin.get(`/accounts/${key.account_id}`)).json();
    assert.deepEqual(
      [account.name, account.plan, account.own_monthly_allowance, account.key_count],
      ["solo", "builder", 40, 1],
    );
    const read = await credits(app, key.key);
    assert.deepEqual([read.account_id, read.plan, read.monthly_allowance], [key.account_id, "builder", 40]);
  });

  it("pages through accounts oldest first, each once", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      app.clock.advance(1000);
      made.push((await admin.post("/accounts", { name: `a${i}`, plan: "free" })).json().id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await admin.get(`/accounts?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(answer.statusCode, 200, answer.body);
      const body = answer.json();
      seen.push(...body.accounts.map((a: { id: string }) => a.id));
      cursor = body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(seen, made);
    assertProblem(await admin.get("/accounts?cursor=bm9wZQ"), 400, "validation_error");
  });

  it("makes the keys of one account spend one balance, and read the account's figures", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const { id, keys } = await team(admin);
    const [ci, laptop] = keys as [(typeof keys)[0], (typeof keys)[0]];
    assert.equal((await call(app, ci.key)).statusCode, 200);
    assert.equal((await call(app, laptop.key)).statusCode, 200);
    assert.equal((await call(app, ci.key)).statusCode, 200);
    for (const key of [ci, laptop]) {
      const read = await credits(app, key.key);
      assert.deepEqual(
        [read.account_id, read.credits_used, read.credits_remaining, read.monthly_allowance],
        [id, 9, 1, 10],
      );
    }
    const usage = (
      await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(laptop.key) })
    ).json();
    assert.equal(usage.credits_used, 9);
    assert.equal(usage.calls, 3);
    assert.deepEqual(
      usage.recent.map((r: { key_id: string }) => r.key_id),
      [ci.id, laptop.id, ci.id],
    );
    const adminUsage = (await admin.get(`/accounts/${id}/usage`)).json();
    assert.equal(adminUsage.account_id, id);
    assert.equal(adminUsage.credits.credits_used, 9);
    assert.deepEqual(adminUsage.usage.recent, usage.recent);
    const account = (await admin.get(`/accounts/${id}`)).json();
    assert.deepEqual([account.credits_used, account.credits_remaining, account.key_count], [9, 1, 2]);
    // 9 of 10 used (a call costs 3): the next call of either key is refused.
    assertProblem(await call(app, ci.key), 402, "insufficient_credits");
    assertProblem(await call(app, laptop.key), 402, "insufficient_credits");
  });

  it("gives the account grants, and changes its plan, for all of its keys at once", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const { id, keys } = await team(admin);
    const [ci, laptop] = keys as [(typeof keys)[0], (typeof keys)[0]];
    await credits(app, ci.key); // remembered by the key cache
    const granted = await admin.post(`/accounts/${id}/grants`, { credits: 5, reason: "pilot" });
    assert.equal(granted.statusCode, 201, granted.body);
    const pilot = granted.json();
    assert.deepEqual(pilot, {
      id: pilot.id,
      account_id: id,
      credits: 5,
      remaining: 5,
      expires_at: null,
      category: "promotional",
      reference: null,
      created_at: "2026-11-15T12:00:10.000Z",
    });
    for (const key of [ci, laptop]) {
      const read = await credits(app, key.key);
      assert.deepEqual([read.monthly_allowance, read.credits_remaining], [10, 15]);
    }
    const changed = await admin.patch(`/accounts/${id}`, { plan: "builder", name: "acme inc" });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual([changed.json().plan, changed.json().name], ["builder", "acme inc"]);
    for (const key of [ci, laptop]) assert.equal((await credits(app, key.key)).plan, "builder");
    // A key's plan route acts on its account: the other key sees it too.
    const back = await admin.patch(`/keys/${laptop.id}`, { plan: "free", monthly_allowance: 20 });
    assert.equal(back.statusCode, 200, back.body);
    const read = await credits(app, ci.key);
    assert.deepEqual([read.plan, read.monthly_allowance, read.credits_remaining], ["free", 20, 25]);
    // A key's grant too: it lapses when the month ends, so it is spent first.
    assert.equal((await admin.post(`/keys/${ci.id}/grants`, { credits: 1 })).statusCode, 200);
    const both = await credits(app, laptop.key);
    assert.equal(both.credits_remaining, 26);
    assert.deepEqual(
      both.grants.map((g: { remaining: number; expires_at: string | null }) => [g.remaining, g.expires_at]),
      [
        [1, "2026-12-01T00:00:00.000Z"],
        [5, null],
      ],
    );
    const listed = (await admin.get(`/accounts/${id}/grants`)).json().grants;
    assert.deepEqual(
      listed.map((g: { credits: number }) => g.credits),
      [1, 5],
    );

    const audit = (await admin.get(`/audit?target=${id}`)).json().entries as {
      action: string;
      details: Record<string, unknown>;
    }[];
    assert.deepEqual(
      audit.map((e) => [e.action, e.details]),
      [
        [
          "credits.grant",
          {
            grant_id: listed[0].id,
            credits: 1,
            category: "promotional",
            expires_at: "2026-12-01T00:00:00.000Z",
            reference: null,
            key_id: ci.id,
          },
        ],
        ["accounts.update", { plan: "free", monthly_allowance: 20, key_id: laptop.id }],
        ["accounts.update", { plan: "builder", name: "acme inc" }],
        [
          "credits.grant",
          {
            grant_id: pilot.id,
            credits: 5,
            category: "promotional",
            expires_at: null,
            reference: null,
            reason: "pilot",
          },
        ],
        ["accounts.create", { name: "acme", plan: "free", monthly_allowance: null, metadata: {} }],
      ],
    );
  });

  it("shares one per-minute window between the keys of an account", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const { keys } = await team(admin, { name: "acme", plan: "tiny" });
    const [ci, laptop] = keys as [(typeof keys)[0], (typeof keys)[0]];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(app, i % 2 ? laptop.key : ci.key)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    const limited = await call(app, laptop.key);
    assertProblem(limited, 429, "rate_limited");
    assertProblem(await call(app, ci.key), 429, "rate_limited");
    // Another account's key has a window of its own.
    const solo = (await admin.post("/keys", { plan: "tiny" })).json();
    assert.equal((await call(app, solo.key)).statusCode, 200);
  });

  it("makes one call of the same Idempotency-Key sent by two keys of an account", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const { id, keys } = await team(admin);
    const [ci, laptop] = keys as [(typeof keys)[0], (typeof keys)[0]];
    const first = await call(app, ci.key, { "idempotency-key": "order-1" });
    assert.equal(first.statusCode, 200);
    const again = await call(app, laptop.key, { "idempotency-key": "order-1" });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers["idempotent-replayed"], "true");
    assert.equal(again.body, first.body);
    assert.equal((await admin.get(`/accounts/${id}`)).json().credits_used, 3);
    // Another account's key with the same Idempotency-Key makes a call of its own.
    const solo = (await admin.post("/keys", { plan: "free" })).json();
    const own = await call(app, solo.key, { "idempotency-key": "order-1" });
    assert.equal(own.headers["idempotent-replayed"], undefined);
  });

  it("refuses each mistake naming its field, and unknown accounts with 404 account_not_found", async (t) => {
    const app = await createTestApp({ plans }, t);
    const admin = await adminClient(app);
    const { id } = await team(admin);
    const both = await admin.post("/keys", { account_id: id, plan: "free", monthly_allowance: 3 });
    assertProblem(both, 400, "validation_error");
    assert.deepEqual(Object.keys(both.json().fields).sort(), ["monthly_allowance", "plan"]);
    const neither = await admin.post("/keys", { name: "x" });
    assertProblem(neither, 400, "validation_error");
    assert.deepEqual(neither.json().fields, { plan: "is required" });
    assertProblem(await admin.post("/keys", { account_id: "acc_missing" }), 404, "account_not_found");
    assert.deepEqual(Object.keys((await admin.post("/keys", { account_id: "key_wrong" })).json().fields), [
      "account_id",
    ]);
    for (const [path, body, field] of [
      ["/accounts", { plan: "free" }, "name"],
      ["/accounts", { name: "x", plan: "gold" }, "plan"],
      ["/accounts", { name: "x", plan: "free", monthly_allowance: -1 }, "monthly_allowance"],
      ["/accounts", { name: "x", plan: "free", extra: 1 }, "extra"],
    ] as const) {
      const answer = await admin.post(path, body);
      assertProblem(answer, 400, "validation_error");
      assert.ok(field in answer.json().fields, `${JSON.stringify(body)}: ${answer.body}`);
    }
    assertProblem(await admin.patch(`/accounts/${id}`, {}), 400, "validation_error");
    for (const answer of [
      await admin.get("/accounts/acc_missing"),
      await admin.patch("/accounts/acc_missing", { name: "x" }),
      await admin.get("/accounts/acc_missing/keys"),
      await admin.get("/accounts/acc_missing/usage"),
      await admin.post("/accounts/acc_missing/grants", { credits: 1 }),
    ])
      assertProblem(answer, 404, "account_not_found");
  });
});
