import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAccount } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { csrfTokenOf, sessionMember, signIn, startSession } from "../../src/core/admin/members.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient } from "./helpers.ts";

const ISSUER = "https://id.example";
const open = { signup: "open", signupPlan: "free" } as const;
const inviteOnly = { signup: "invite", signupPlan: "free" } as const;

async function team(t: TestApp): Promise<string> {
  const account = await createAccount(t.deps, cliActor("test"), {
    name: "team",
    plan: "builder",
    monthlyAllowance: null,
    metadata: {},
  });
  return account.id;
}

const person = (subject: string, email: string | null, emailVerified = true) => ({
  issuer: ISSUER,
  subject,
  email,
  emailVerified,
  name: `Person ${subject}`,
});

describe("members: sign-in decisions and the admin API", () => {
  it("an open sign-up makes a member and an account on the sign-up plan; the next sign-in finds it", async (t) => {
    const app = await createTestApp({}, t);
    const first = await signIn(app.deps, open, person("a", "Ann@Example.com"), "req-1");
    assert.ok(first.ok && first.created);
    assert.equal(first.member.email, "ann@example.com");
    const account = await app.store.getAccount(first.member.accountId);
    assert.equal(account?.plan, "free");
    const again = await signIn(app.deps, open, person("a", "ann@example.com"), null);
    assert.ok(again.ok && !again.created);
    assert.equal(again.member.id, first.member.id);
    const log = await app.store.listAudit({ limit: 5, cursor: null, target: first.member.id });
    assert.deepEqual(log.entries[0]?.actor, { type: "member", id: first.member.id });
    assert.equal(log.entries[0]?.action, "members.create");
  });

  it("invite-only refuses a stranger and admits an invited email into its account", async (t) => {
    const app = await createTestApp({}, t);
    const accountId = await team(app);
    const admin = await adminClient(app);
    assert.deepEqual(await signIn(app.deps, inviteOnly, person("s", "stranger@example.com"), null), {
      ok: false,
      reason: "not_invited",
    });
    const invited = await admin.post(`/accounts/${accountId}/members`, { email: "Bo@Example.com" });
    assert.equal(invited.statusCode, 201);
    assert.deepEqual(invited.json(), { account_id: accountId, email: "bo@example.com" });
    const bo = await signIn(app.deps, inviteOnly, person("b", "bo@example.com"), null);
    assert.ok(bo.ok);
    assert.equal(bo.member.accountId, accountId);
    // The invite is used: a second identity with the same email is a stranger again.
    assert.equal((await signIn(app.deps, inviteOnly, person("b2", "bo@example.com"), null)).ok, false);
  });

  it("an unverified email never joins an invited account (open sign-up gives it an account of its own)", async (t) => {
    const app = await createTestApp({}, t);
    const accountId = await team(app);
    const admin = await adminClient(app);
    await admin.post(`/accounts/${accountId}/members`, { email: "victim@example.com" });
    const unverified = person("x", "victim@example.com", false);
    assert.deepEqual(await signIn(app.deps, inviteOnly, unverified, null), {
      ok: false,
      reason: "not_invited",
    });
    const opened = await signIn(app.deps, open, unverified, null);
    assert.ok(opened.ok);
    assert.notEqual(opened.member.accountId, accountId);
    assert.equal(opened.member.email, null);
    assert.equal(await app.store.findInvite("victim@example.com"), accountId);
  });

  it("lists members by account, disables one (its session ends at once) and enables it, audited", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    const a = await signIn(app.deps, open, person("a", "a@example.com"), null);
    app.clock.advance(1000);
    const b = await signIn(app.deps, open, person("b", "b@example.com"), null);
    assert.ok(a.ok && b.ok);
    const all = await admin.get("/members?limit=1");
    assert.equal(all.statusCode, 200);
    assert.deepEqual(
      all.json().members.map((m: { id: string }) => m.id),
      [a.member.id],
    );
    const next = await admin.get(`/members?limit=1&cursor=${all.json().next_cursor}`);
    assert.deepEqual(
      next.json().members.map((m: { id: string }) => m.id),
      [b.member.id],
    );
    const ofB = await admin.get(`/members?account_id=${b.member.accountId}`);
    assert.deepEqual(
      ofB.json().members.map((m: { id: string }) => m.id),
      [b.member.id],
    );

    const token = await startSession(app.deps, a.member);
    assert.equal((await sessionMember(app.deps, token))?.id, a.member.id);
    const disabled = await admin.post(`/members/${a.member.id}/disable`);
    assert.equal(disabled.statusCode, 200);
    assert.equal(disabled.json().status, "disabled");
    assert.equal(await sessionMember(app.deps, token), null);
    assert.deepEqual(await signIn(app.deps, open, person("a", "a@example.com"), null), {
      ok: false,
      reason: "disabled",
    });
    const enabled = await admin.post(`/members/${a.member.id}/enable`);
    assert.equal(enabled.json().status, "active");
    assert.equal(await sessionMember(app.deps, token), null);
    const log = await admin.get(`/audit?target=${a.member.id}`);
    assert.deepEqual(
      log.json().entries.map((e: { action: string; actor: { type: string } }) => [e.action, e.actor.type]),
      [
        ["members.enable", "admin_key"],
        ["members.disable", "admin_key"],
        ["members.create", "member"],
      ],
    );
  });

  it("answers 404 and 400 as documented", async (t) => {
    const app = await createTestApp({}, t);
    const admin = await adminClient(app);
    assert.equal((await admin.post("/members/mem_nothere/disable")).json().code, "member_not_found");
    assert.equal((await admin.get("/members/mem_nothere")).statusCode, 404);
    const noAccount = await admin.post("/accounts/acc_nothere/members", { email: "x@example.com" });
    assert.equal(noAccount.json().code, "account_not_found");
    const bad = await admin.post(`/accounts/${await team(app)}/members`, { email: "not an email" });
    assert.equal(bad.statusCode, 400);
    assert.ok(bad.json().fields.email);
    assert.equal((await admin.get("/members?cursor=nonsense")).statusCode, 400);
  });

  it("a session's CSRF token is its own and says nothing of the session token", () => {
    const one = csrfTokenOf("a".repeat(43));
    assert.notEqual(one, csrfTokenOf("b".repeat(43)));
    assert.ok(!one.includes("a".repeat(8)));
  });
});
