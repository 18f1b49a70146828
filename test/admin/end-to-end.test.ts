/**
 * An operator's session on the admin API, end to end in one app: create a key, call a tool with
 * it, grant credits, expire it, revoke another, switch a tool off, and read the audit log showing
 * each, with who did it, on what, when, and the request that carried it. A CLI action (through the
 * same core function) is in the same log, by `cli` and the user.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { setToolSwitch } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { adminClient } from "./helpers.ts";

it("create, call, grant, expire, revoke another, switch a tool off: each in the audit log", async (t) => {
  const app = await createTestApp(
    { plans: { free: { id: "free", label: "Free", rpm: 100, monthlyCredits: 3, minCredits: 2 } } },
    t,
  );
  const admin = await adminClient(app, "alice's laptop");
  const created = await admin.post("/keys", { plan: "free", name: "customer", metadata: { crm: "c-1" } });
  assert.equal(created.statusCode, 201);
  const { id, key, account_id: accountId } = created.json();
  const call = () =>
    app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: json(bearer(key)),
      payload: { value: 1 },
    });

  const first = await call();
  assert.equal(first.statusCode, 200);
  assert.equal(first.json().credits_remaining, 0);
  assertProblem(await call(), 402, "insufficient_credits");

  const grant = await admin.post(`/keys/${id}/grants`, { credits: 3, reason: "trial extension" });
  assert.equal(grant.json().monthly_allowance, 3);
  const paid = await call();
  assert.equal(paid.statusCode, 200);
  assert.equal(paid.json().credits_remaining, 0);

  const expire = await admin.patch(`/keys/${id}`, { expires_at: "2026-11-15T12:00:10Z" });
  assert.equal(expire.json().status, "expired");
  assertProblem(await call(), 401, "invalid_api_key");

  const other = (await admin.post("/keys", { plan: "free", name: "other" })).json();
  const revoke = await admin.post(`/keys/${other.id}/revoke`);
  assert.equal(revoke.json().status, "revoked");

  const off = await admin.patch("/tools/heavy-text", { enabled: false });
  assert.equal(off.json().enabled, false);
  await setToolSwitch(app.deps, cliActor("bob"), "heavy-text", { enabled: true });

  const log = await admin.get("/audit");
  assert.equal(log.statusCode, 200);
  const entries = (log.json().entries as Record<string, unknown>[]).filter(
    (e) => e.action !== "admin_keys.create",
  );
  const byAdmin = { type: "admin_key", id: admin.id };
  const granted = entries.find((e) => e.action === "credits.grant")?.details as
    | { grant_id: string }
    | undefined;
  const grantId = granted?.grant_id ?? "";
  assert.match(grantId, /^grt_[0-9A-Za-z]{16}$/);
  assert.deepEqual(
    entries.map((e) => [e.action, e.target, e.actor, e.details]),
    [
      ["tools.set", "heavy-text", { type: "cli", id: "bob" }, { enabled: true }],
      ["tools.set", "heavy-text", byAdmin, { enabled: false }],
      ["keys.revoke", other.id, byAdmin, {}],
      [
        "keys.create",
        other.id,
        byAdmin,
        {
          account_id: other.account_id,
          plan: "free",
          monthly_allowance: null,
          name: "other",
          expires_at: null,
          metadata: {},
        },
      ],
      ["keys.update", id, byAdmin, { expires_at: "2026-11-15T12:00:10.000Z" }],
      [
        "credits.grant",
        accountId,
        byAdmin,
        {
          grant_id: grantId,
          credits: 3,
          category: "promotional",
          expires_at: "2026-12-01T00:00:00.000Z",
          reference: null,
          key_id: id,
          reason: "trial extension",
        },
      ],
      [
        "keys.create",
        id,
        byAdmin,
        {
          account_id: accountId,
          plan: "free",
          name: "customer",
          monthly_allowance: null,
          expires_at: null,
          metadata: { crm: "c-1" },
        },
      ],
    ],
  );
  const requestIds = [off, revoke, expire, grant, created].map((res) => res.headers["x-request-id"]);
  const adminEntries = entries.filter((e) => (e.actor as { type: string }).type === "admin_key");
  assert.deepEqual(
    adminEntries.filter((e) => e.action !== "keys.create" || e.target === id).map((e) => e.request_id),
    requestIds,
  );
  assert.equal(entries[0]?.request_id, null, "a CLI action carries no request id");
  assert.ok(entries.every((e) => e.at === "2026-11-15T12:00:10.000Z"));
  assert.doesNotMatch(log.body, new RegExp(key), "no secret in the log");

  const aboutKey = (await admin.get(`/audit?target=${id}`)).json().entries as { action: string }[];
  assert.deepEqual(
    aboutKey.map((e) => e.action),
    ["keys.update", "keys.create"],
  );
  const aboutAccount = (await admin.get(`/audit?target=${accountId}`)).json().entries as { action: string }[];
  assert.deepEqual(
    aboutAccount.map((e) => e.action),
    ["credits.grant"],
  );
  const paged = (await admin.get("/audit?limit=2")).json();
  assert.equal(paged.entries.length, 2);
  const rest = (await admin.get(`/audit?limit=100&cursor=${paged.next_cursor}`)).json();
  assert.equal(paged.entries.length + rest.entries.length, entries.length + 1);
  assert.equal(rest.next_cursor, null);
});
