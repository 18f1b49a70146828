/**
 * Rotating a key with a grace (`grace_seconds`), Stripe's "roll key": the old secret keeps working
 * beside the new one until the grace ends, then answers 401 like any rotated-away secret. One old
 * secret at most; revocation and the key's expiry end it too; the grace is in the key's view and in
 * the audit log. Without a grace, rotation is as it always was.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_GRACE_SECONDS } from "../../src/core/admin/input.ts";
import { bearer, createTestApp, json, type TestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { type AdminClient, adminClient } from "./helpers.ts";

async function setUp(t: Parameters<typeof createTestApp>[1]) {
  const app = await createTestApp({}, t);
  const admin = await adminClient(app);
  const created = (await admin.post("/keys", { plan: "free" })).json() as { id: string; key: string };
  return { app, admin, ...created };
}

/** The status `GET /v1/me/credits` answers `key` with (and the problem's detail when refused). */
async function me(app: TestApp, key: string): Promise<{ status: number; detail?: string }> {
  const res = await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) });
  if (res.statusCode === 200) return { status: 200 };
  return { status: res.statusCode, detail: assertProblem(res, 401, "invalid_api_key").detail as string };
}

async function rotate(admin: AdminClient, id: string, body?: unknown) {
  const res = await admin.post(`/keys/${id}/rotate`, body);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as {
    key: string;
    prefix: string;
    previous_prefix: string | null;
    previous_secret_expires_at: string | null;
  };
}

describe("admin API: rotating a key with a grace", () => {
  it("keeps the old secret working beside the new one until the grace ends, not a millisecond longer", async (t) => {
    const { app, admin, id, key: old } = await setUp(t);
    const oldPrefix = old.slice(0, 12);
    const rotated = await rotate(admin, id, { grace_seconds: 600 });
    assert.equal(rotated.previous_prefix, oldPrefix);
    assert.equal(rotated.previous_secret_expires_at, "2026-11-15T12:10:10.000Z");
    assert.deepEqual([(await me(app, old)).status, (await me(app, rotated.key)).status], [200, 200]);
    const view = (await admin.get(`/keys/${id}`)).json();
    assert.deepEqual(
      [view.prefix, view.previous_prefix, view.previous_secret_expires_at],
      [rotated.prefix, oldPrefix, "2026-11-15T12:10:10.000Z"],
    );
    const listed = (await admin.get("/keys")).json().keys.find((k: { id: string }) => k.id === id);
    assert.equal(listed.previous_secret_expires_at, "2026-11-15T12:10:10.000Z");

    app.clock.advance(600_000 - 1);
    assert.equal((await me(app, old)).status, 200, "a millisecond before the end");
    app.clock.advance(1);
    const refused = await me(app, old);
    assert.equal(refused.status, 401);
    assert.match(
      refused.detail ?? "",
      /rotated; this old secret stopped working at 2026-11-15T12:10:10\.000Z/,
    );
    assert.equal((await me(app, rotated.key)).status, 200);
    const after = (await admin.get(`/keys/${id}`)).json();
    assert.deepEqual([after.previous_prefix, after.previous_secret_expires_at], [null, null]);
  });

  it("lets either secret spend the same account's credits during the grace", async (t) => {
    const { app, admin, id, key: old } = await setUp(t);
    const { key: fresh } = await rotate(admin, id, { grace_seconds: 60 });
    const call = (key: string) =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/echo",
        headers: json(bearer(key)),
        payload: { value: 1 },
      });
    assert.equal((await call(old)).statusCode, 200);
    assert.equal((await call(fresh)).statusCode, 200);
    const used = async (key: string) =>
      (await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) })).json()
        .credits_used;
    assert.equal(await used(old), await used(fresh));
    assert.ok((await used(fresh)) > 0);
  });

  it("rotates as before without a grace: no body, an empty body or {} end the old secret at once", async (t) => {
    const { app, admin, id, key } = await setUp(t);
    let old = key;
    for (const payload of [undefined, "", "{}"]) {
      const res = await app.app.inject({
        method: "POST",
        url: `/admin/v1/keys/${id}/rotate`,
        headers: payload === undefined ? bearer(admin.key) : json(bearer(admin.key)),
        ...(payload === undefined ? {} : { payload }),
      });
      assert.equal(res.statusCode, 200, res.body);
      const rotated = res.json();
      assert.deepEqual([rotated.previous_prefix, rotated.previous_secret_expires_at], [null, null]);
      assert.deepEqual([(await me(app, old)).status, (await me(app, rotated.key)).status], [401, 200]);
      assert.match((await me(app, old)).detail ?? "", /The API key is not valid/);
      old = rotated.key;
    }
  });

  it("keeps one old secret at most: rotating again during a grace ends the older one at once", async (t) => {
    const { app, admin, id, key: first } = await setUp(t);
    const second = await rotate(admin, id, { grace_seconds: 3600 });
    const third = await rotate(admin, id, { grace_seconds: 60 });
    assert.equal(third.previous_prefix, second.prefix);
    assert.equal(third.previous_secret_expires_at, "2026-11-15T12:01:10.000Z");
    assert.deepEqual(
      [(await me(app, first)).status, (await me(app, second.key)).status, (await me(app, third.key)).status],
      [401, 200, 200],
    );
    const fourth = await rotate(admin, id);
    assert.deepEqual(
      [
        (await me(app, second.key)).status,
        (await me(app, third.key)).status,
        (await me(app, fourth.key)).status,
      ],
      [401, 401, 200],
      "a rotation without a grace leaves no old secret working",
    );
  });

  it("ends the old secret when the key is revoked", async (t) => {
    const { app, admin, id, key: old } = await setUp(t);
    await rotate(admin, id, { grace_seconds: 3600 });
    const revoked = (await admin.post(`/keys/${id}/revoke`)).json();
    assert.deepEqual([revoked.previous_prefix, revoked.previous_secret_expires_at], [null, null]);
    const refused = await me(app, old);
    assert.equal(refused.status, 401);
    assert.match(refused.detail ?? "", /revoked/);
  });

  it("applies the key's expiry to both secrets", async (t) => {
    const { app, admin, id, key: old } = await setUp(t);
    const { key: fresh } = await rotate(admin, id, { grace_seconds: 3600 });
    const patched = await admin.patch(`/keys/${id}`, { expires_at: "2026-11-15T12:05:00Z" });
    assert.equal(patched.json().previous_secret_expires_at, "2026-11-15T13:00:10.000Z");
    app.clock.set("2026-11-15T12:05:00.000Z");
    for (const key of [old, fresh]) assert.match((await me(app, key)).detail ?? "", /expired at/);
    assert.equal((await admin.get(`/keys/${id}`)).json().previous_secret_expires_at, null);
  });

  it("audits the grace with the rotation, and a rotation without one as before", async (t) => {
    const { admin, id } = await setUp(t);
    const graced = await rotate(admin, id, { grace_seconds: 900 });
    const plain = await rotate(admin, id);
    const entries = (await admin.get(`/audit?target=${id}`)).json().entries as {
      action: string;
      details: Record<string, unknown>;
    }[];
    assert.deepEqual(
      entries.filter((e) => e.action === "keys.rotate").map((e) => e.details),
      [
        { prefix: plain.prefix },
        {
          prefix: graced.prefix,
          grace_seconds: 900,
          previous_secret_expires_at: "2026-11-15T12:15:10.000Z",
        },
      ],
    );
  });

  it("refuses a grace that is not a whole number of seconds from 1 to 7 days, naming grace_seconds, and rotates nothing", async (t) => {
    const { app, admin, id, key } = await setUp(t);
    for (const grace of [0, -5, MAX_GRACE_SECONDS + 1, 1.5, "60", null, true]) {
      const refused = assertProblem(
        await admin.post(`/keys/${id}/rotate`, { grace_seconds: grace }),
        400,
        "validation_error",
      );
      assert.ok(
        Object.hasOwn(refused.fields as Record<string, string>, "grace_seconds"),
        `${JSON.stringify(grace)}: ${JSON.stringify(refused.fields)}`,
      );
    }
    const unknown = assertProblem(
      await admin.post(`/keys/${id}/rotate`, { grace: 60 }),
      400,
      "validation_error",
    );
    assert.match(JSON.stringify(unknown.fields), /grace/);
    assertProblem(await admin.post(`/keys/${id}/rotate`, [60]), 400, "validation_error");
    const notJson = await app.app.inject({
      method: "POST",
      url: `/admin/v1/keys/${id}/rotate`,
      headers: json(bearer(admin.key)),
      payload: "{grace",
    });
    assertProblem(notJson, 400, "validation_error");
    assert.equal((await me(app, key)).status, 200, "the key was not rotated");
    assert.equal(
      (await rotate(admin, id, { grace_seconds: MAX_GRACE_SECONDS })).previous_secret_expires_at,
      "2026-11-22T12:00:10.000Z",
    );
  });
});
