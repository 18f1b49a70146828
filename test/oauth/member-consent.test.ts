/**
 * The consent page with members' sign-in on: a signed-out person is offered "sign in"; a signed-in
 * member approves for their account with one button, no key typed, and the approval acts through
 * a key of the member's account made for it (audited as the member), which the member can revoke.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { signIn, startSession } from "../../src/core/admin/members.ts";
import { untilSuiteEnds } from "../helpers/app.ts";
import { type OAuthApp, Person, readForm, startOAuthApp } from "./helpers.ts";
import { IndependentClient } from "./independent-client.ts";

describe("the consent page for a signed-in member", () => {
  let t: OAuthApp;
  let client: IndependentClient;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp(
      {
        appOptions: {
          signin: {
            // Never reached here: the member's session is made directly.
            issuer: "http://127.0.0.1:9",
            clientId: "toolrun",
            clientSecret: "unused-secret",
            redirectUri: "http://127.0.0.1:9/signin/callback",
            secure: false,
            members: { signup: "open", signupPlan: "free" },
          },
        },
      },
      suite,
    );
    client = new IndependentClient(t.base, t.mcp);
    await client.discover();
  });

  async function atConsent(person: Person) {
    const registered = await client.register({ client_name: "Chat host" });
    const { url } = await client.authorizationUrl(registered);
    return person.openConsent(url);
  }

  it("offers a signed-out person to sign in, coming back to this page", async () => {
    const person = new Person(t.base);
    const { html } = await atConsent(person);
    assert.match(html, /<a href="\/signin\?return=\/oauth\/consent\/[A-Za-z0-9_-]+">sign in<\/a>/);
    assert.equal(readForm(html).fieldLabelled("API key"), "api_key");
  });

  it("lets a signed-in member approve for their account without a key", async () => {
    const made = await signIn(
      t.deps,
      { signup: "open", signupPlan: "free" },
      {
        issuer: "https://id.example",
        subject: "m1",
        email: "m@example.com",
        emailVerified: true,
        name: "Mia",
      },
      null,
    );
    assert.ok(made.ok);
    const person = new Person(t.base);
    person.setCookie("toolrun_session", await startSession(t.deps, made.member));
    const { html } = await atConsent(person);
    assert.match(html, /Signed in as <strong>Mia<\/strong>/);
    const forms = [...html.matchAll(/<form[\s\S]*?<\/form>/g)].map((m) => m[0]);
    const memberForm = forms.find((f) => f.includes('value="approve_member"')) ?? "";
    const csrf = /name="csrf" value="([^"]+)"/.exec(memberForm)?.[1] ?? "";
    const action = /action="([^"]+)"/.exec(memberForm)?.[1] ?? "";
    const answered = await person.request(action, {
      method: "POST",
      form: { csrf, decision: "approve_member" },
    });
    const landed = await person.follow(answered);
    assert.ok("left" in landed, "the browser goes back to the client");
    assert.ok(landed.left.searchParams.get("code"));

    const keys = await t.store.listAccountKeys(made.member.accountId);
    assert.equal(keys.length, 1);
    assert.equal(keys[0]?.name, "OAuth: Chat host");
    const key = keys[0];
    assert.ok(key);
    const authorizations = await t.store.listOAuthAuthorizations(key.id, t.clock.now().toISOString());
    assert.equal(authorizations.length, 1);
    const log = await t.store.listAudit({ limit: 5, cursor: null, target: key.id });
    assert.deepEqual(log.entries[0]?.actor, { type: "member", id: made.member.id });
  });

  it("refuses approve_member without a session (the form shows again)", async () => {
    const person = new Person(t.base);
    const { html } = await atConsent(person);
    const form = readForm(html);
    const answered = await person.request(form.action, {
      method: "POST",
      form: { csrf: form.hidden.csrf ?? "", decision: "approve_member" },
    });
    assert.equal(answered.status, 400);
    assert.match(await answered.text(), /Sign in again to approve for your account/);
  });
});
