/**
 * Members' sign-in, in process: the app with sign-in on, a local OpenID provider on a loopback
 * port, the browser's part played by following redirects. The attacks: a forged `state`, a
 * replayed code, a request without the CSRF token, the session cookie on `/v1` and `/mcp`, an
 * unverified email and an invite, secrets in the logs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { createStripePayments } from "../../src/adapters/stripe/payments.ts";
import { createAccount } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { addAccountGrant } from "../../src/core/admin/grants.ts";
import type { MemberSettings } from "../../src/core/admin/members.ts";
import type { Billing } from "../../src/core/billing/packs.ts";
import { reservation } from "../contracts/store.contract.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { FAKE_SECRET_KEY, FAKE_WEBHOOK_SECRET, startFakeStripe } from "../helpers/fake-stripe.ts";
import { type Person, startTestIdp, type TestIdp, throughProvider } from "../helpers/oidc-idp.ts";

const PUBLIC = "http://toolrun.test";
const REDIRECT = `${PUBLIC}/signin/callback`;

let idp: TestIdp;

const ann: Person = { sub: "ann", email: "Ann@Example.com", email_verified: true, name: "Ann Example" };

async function appWith(
  t: Parameters<typeof createTestApp>[1],
  members: MemberSettings,
  logs?: string[],
  billing?: Billing,
) {
  return createTestApp(
    {
      appOptions: {
        ...(billing && { billing }),
        signin: {
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          redirectUri: REDIRECT,
          secure: false,
          members,
        },
        ...(logs && {
          logger: {
            level: "info",
            stream: { write: (line: string) => void logs.push(line) },
          },
        }),
      },
    },
    t,
  );
}

function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = response.headers["set-cookie"];
  for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const [pair = ""] = line.split(";");
    const eq = pair.indexOf("=");
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The provider's answer for `person`: the callback URL with its code and state, and the sign-in cookie. */
async function atProvider(
  app: TestApp,
  person: Person,
  url = "/signin",
): Promise<{ callback: string; signinCookie: string }> {
  idp.signInAs(person);
  const start = await app.app.inject({ method: "GET", url });
  assert.equal(start.statusCode, 303);
  const location = String(start.headers.location);
  const query = new URL(location).searchParams;
  assert.equal(query.get("code_challenge_method"), "S256");
  assert.ok(query.get("state") && query.get("nonce") && query.get("code_challenge"));
  assert.equal(query.get("scope"), "openid email profile");
  const signinCookie = cookiesOf(start).toolrun_signin ?? "";
  assert.match(String(start.headers["set-cookie"]), /HttpOnly; SameSite=Lax/);
  const callback = await throughProvider(idp, location, new Map());
  assert.ok(callback.startsWith(REDIRECT), callback);
  return { callback, signinCookie };
}

async function signedIn(
  app: TestApp,
  person: Person,
): Promise<{ session: string; page: LightMyRequestResponse }> {
  const { callback, signinCookie } = await atProvider(app, person);
  const back = await app.app.inject({
    method: "GET",
    url: callback.slice(PUBLIC.length),
    headers: { cookie: `toolrun_signin=${signinCookie}` },
  });
  assert.equal(back.statusCode, 303, back.body);
  assert.equal(back.headers.location, "/member");
  const session = cookiesOf(back).toolrun_session ?? "";
  assert.match(session, /^[0-9A-Za-z]{43}$/);
  const page = await app.app.inject({
    method: "GET",
    url: "/member",
    headers: { cookie: `toolrun_session=${session}` },
  });
  return { session, page };
}

function csrfOf(page: LightMyRequestResponse): string {
  const found = /name="csrf" value="([^"]+)"/.exec(page.body);
  assert.ok(found?.[1]);
  return found[1];
}

function post(app: TestApp, url: string, session: string, form: Record<string, string>) {
  return app.app.inject({
    method: "POST",
    url,
    headers: { cookie: `toolrun_session=${session}`, "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(form).toString(),
  });
}

describe("members' sign-in with OpenID Connect", () => {
  before(async () => {
    idp = await startTestIdp(REDIRECT);
  });
  after(() => idp.close());

  it("signs a new person up, shows the account page, makes a key that calls the API, and signs out", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "builder" });
    const { session, page } = await signedIn(app, ann);
    assert.equal(page.statusCode, 200);
    assert.match(
      page.body,
      /Signed in as <strong id="member-name">Ann Example<\/strong> \(ann@example.com\)/,
    );
    assert.match(page.body, /on plan <strong>builder<\/strong>/);
    const csrf = csrfOf(page);

    const made = await post(app, "/member/keys", session, { csrf, name: "laptop", expires: "" });
    assert.equal(made.statusCode, 200);
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(made.body)?.[1] ?? "";
    assert.match(key, /^tr_live_/);
    const credits = await app.app.inject({
      method: "GET",
      url: "/v1/me/credits",
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(credits.statusCode, 200);
    assert.equal(credits.json().plan, "builder");
    const record = await app.recordOf(key);
    const log = await app.store.listAudit({ limit: 5, cursor: null, target: record.id });
    assert.deepEqual(log.entries[0]?.actor.type, "member");
    assert.equal(log.entries[0]?.action, "keys.create");

    const browser = await post(app, "/member/browser-key", session, { csrf });
    assert.match(browser.body, /id="browser-key" data-key="tr_live_[0-9A-Za-z]+"/);

    const rotated = await post(app, "/member/keys/rotate", session, { csrf, key_id: record.id });
    const newKey = /<code id="new-key">([^<]+)<\/code>/.exec(rotated.body)?.[1] ?? "";
    assert.notEqual(newKey, key);
    const old = await app.app.inject({
      method: "GET",
      url: "/v1/me/credits",
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(old.statusCode, 401);
    const revoked = await post(app, "/member/keys/revoke", session, { csrf, key_id: record.id });
    assert.match(revoked.body, /Revoked key/);

    const out = await post(app, "/signout", session, { csrf });
    assert.equal(out.statusCode, 303);
    const after = await app.app.inject({
      method: "GET",
      url: "/member",
      headers: { cookie: `toolrun_session=${session}` },
    });
    assert.equal(after.statusCode, 303);
    assert.equal(after.headers.location, "/signin");
  });

  it("shows the transport and client of the account's recent calls", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "builder" });
    const { session, page } = await signedIn(app, { ...ann, sub: "recent" });
    const made = await post(app, "/member/keys", session, {
      csrf: csrfOf(page),
      name: "laptop",
      expires: "",
    });
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(made.body)?.[1] ?? "";
    const record = await app.recordOf(key);
    const called = await app.app.inject({
      method: "POST",
      url: "/v1/tool/echo",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: { value: 1 },
    });
    assert.equal(called.statusCode, 200, called.body);
    const mcp = reservation(record.id, {
      accountId: record.accountId,
      tool: "echo",
      at: app.clock.now().toISOString(),
      origin: {
        credential: "key",
        oauthClientId: null,
        transport: "mcp",
        clientName: "claude-code",
        clientVersion: "2.1",
      },
    });
    await app.store.runCall(mcp, () => ({ ok: true, value: null }));
    const shown = await app.app.inject({
      method: "GET",
      url: "/member",
      headers: { cookie: `toolrun_session=${session}` },
    });
    const rows = [
      ...shown.body.matchAll(
        /<tr><td>[^<]+<\/td><td>echo<\/td><td>\d+<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><\/tr>/g,
      ),
    ].map((m) => [m[1], m[2]]);
    assert.deepEqual(rows, [
      ["MCP", "claude-code 2.1"],
      ["HTTP", "—"],
    ]);
  });

  it("shows a fresh member's balance, the allowance left and each grant with its expiry before the account has a key", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "free" });
    const { session } = await signedIn(app, { ...ann, sub: "keyless" });
    const member = await app.store.findMemberByIdentity(idp.issuer, "keyless");
    assert.ok(member);
    assert.equal((await app.store.listAccountKeys(member.accountId)).length, 0);
    const { grant } = await addAccountGrant(app.deps, cliActor("test"), member.accountId, {
      credits: 50,
      expiresAt: "2999-01-01T00:00:00.000Z",
      category: "promotional",
      reference: null,
    });
    const page = await app.app.inject({
      method: "GET",
      url: "/member",
      headers: { cookie: `toolrun_session=${session}` },
    });
    assert.equal(page.statusCode, 200);
    assert.doesNotMatch(page.body, /No key yet/);
    assert.match(page.body, /<dd id="credits-used">0<\/dd>/);
    const allowance = Number(/<dd id="monthly-allowance">(\d+)<\/dd>/.exec(page.body)?.[1]);
    assert.match(page.body, new RegExp(`<dd id="monthly-remaining">${allowance}</dd>`));
    assert.match(page.body, new RegExp(`<dd id="credits-remaining">${allowance + 50}</dd>`));
    assert.match(
      page.body,
      new RegExp(
        `<tr><td><code>${grant.id}</code></td><td>promotional</td><td>50</td><td>2999-01-01T00:00:00.000Z</td></tr>`,
      ),
    );
  });

  it("creates a key limited to the checked tools and read-only access, and refuses a form with no tool", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "free" });
    const { session, page } = await signedIn(app, { ...ann, sub: "scoped" });
    assert.match(
      page.body,
      /<input type="checkbox" id="key-tool-echo" name="tools" value="echo" checked> <label for="key-tool-echo">/,
    );
    assert.match(
      page.body,
      /<input type="radio" id="key-access-read" name="access" value="read"[^>]*> <label for="key-access-read">Read-only<\/label>/,
    );
    const csrf = csrfOf(page);
    const form = new URLSearchParams({
      csrf,
      name: "reader",
      expires: "",
      tools_offered: "1",
      access: "read",
    });
    form.append("tools", "echo");
    const made = await app.app.inject({
      method: "POST",
      url: "/member/keys",
      headers: { cookie: `toolrun_session=${session}`, "content-type": "application/x-www-form-urlencoded" },
      payload: form.toString(),
    });
    assert.equal(made.statusCode, 200);
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(made.body)?.[1] ?? "";
    assert.match(key, /^tr_live_/);
    const credits = await app.app.inject({
      method: "GET",
      url: "/v1/me/credits",
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(credits.statusCode, 200);
    assert.deepEqual(credits.json().key.tools, ["echo"]);
    assert.equal(credits.json().key.access, "read");

    const none = await post(app, "/member/keys", session, { csrf, name: "none", tools_offered: "1" });
    assert.equal(none.statusCode, 200);
    assert.match(none.body, /role="alert">Check at least one tool/);
    const unknown = await post(app, "/member/keys", session, {
      csrf,
      name: "x",
      tools_offered: "1",
      tools: "nope",
    });
    assert.match(unknown.body, /role="alert">No tool has the slug nope/);
    const badAccess = await post(app, "/member/keys", session, { csrf, name: "x", access: "admin" });
    assert.match(badAccess.body, /role="alert">The access must be full or read-only/);
    const member = await app.store.findMemberByIdentity(idp.issuer, "scoped");
    assert.equal((await app.store.listAccountKeys(member?.accountId ?? "")).length, 1);

    const all = new URLSearchParams({ csrf, name: "every", tools_offered: "1", access: "full" });
    for (const slug of app.deps.registry.all().map((tool) => tool.slug)) all.append("tools", slug);
    const every = await app.app.inject({
      method: "POST",
      url: "/member/keys",
      headers: { cookie: `toolrun_session=${session}`, "content-type": "application/x-www-form-urlencoded" },
      payload: all.toString(),
    });
    const everyKey = await app.recordOf(/<code id="new-key">([^<]+)<\/code>/.exec(every.body)?.[1] ?? "");
    assert.equal(everyKey.tools, null);
    assert.equal(everyKey.access, "full");
  });

  it("refuses a state-changing request without the session's CSRF token", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "free" });
    const { session, page } = await signedIn(app, { ...ann, sub: "csrf" });
    const forms: Record<string, string>[] = [{}, { csrf: "x".repeat(43) }, { csrf: `${csrfOf(page)}x` }];
    for (const form of forms) {
      const refused = await post(app, "/member/keys", session, { ...form, name: "evil" });
      assert.equal(refused.statusCode, 403);
      assert.match(refused.body, /csrf_token_invalid/);
      const out = await post(app, "/signout", session, form);
      assert.equal(out.statusCode, 403);
    }
    const member = await app.store.findMemberByIdentity(idp.issuer, "csrf");
    assert.equal((await app.store.listAccountKeys(member?.accountId ?? "")).length, 0);
    assert.equal(
      (
        await app.app.inject({
          method: "GET",
          url: "/member",
          headers: { cookie: `toolrun_session=${session}` },
        })
      ).statusCode,
      200,
    );
  });

  it("refuses a forged state and a replayed code", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "free" });
    const { callback, signinCookie } = await atProvider(app, { ...ann, sub: "forged" });
    const forged = new URL(callback);
    forged.searchParams.set("state", "forged-state");
    const refused = await app.app.inject({
      method: "GET",
      url: forged.href.slice(PUBLIC.length),
      headers: { cookie: `toolrun_signin=${signinCookie}` },
    });
    assert.equal(refused.statusCode, 400);
    assert.equal(cookiesOf(refused).toolrun_session, undefined);
    // Without this browser's sign-in cookie (another browser), the right state is refused too.
    const elsewhere = await app.app.inject({ method: "GET", url: callback.slice(PUBLIC.length) });
    assert.equal(elsewhere.statusCode, 400);

    const fresh = await atProvider(app, { ...ann, sub: "replay" });
    const first = await app.app.inject({
      method: "GET",
      url: fresh.callback.slice(PUBLIC.length),
      headers: { cookie: `toolrun_signin=${fresh.signinCookie}` },
    });
    assert.equal(first.statusCode, 303);
    const replayed = await app.app.inject({
      method: "GET",
      url: fresh.callback.slice(PUBLIC.length),
      headers: { cookie: `toolrun_signin=${fresh.signinCookie}` },
    });
    assert.equal(replayed.statusCode, 400);
    assert.equal(cookiesOf(replayed).toolrun_session, undefined);
  });

  it("invite-only: a stranger sees a refusal; an invited verified email joins; an unverified one never does", async (t) => {
    const app = await appWith(t, { signup: "invite", signupPlan: "free" });
    const account = await createAccount(app.deps, cliActor("test"), {
      name: "team",
      plan: "free",
      monthlyAllowance: null,
      metadata: {},
    });
    await app.store.inviteMember(account.id, "bo@example.com", new Date().toISOString());
    const stranger = await atProvider(app, {
      sub: "stranger",
      email: "who@example.com",
      email_verified: true,
      name: "S",
    });
    const refused = await app.app.inject({
      method: "GET",
      url: stranger.callback.slice(PUBLIC.length),
      headers: { cookie: `toolrun_signin=${stranger.signinCookie}` },
    });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /You cannot sign in here/);

    const unverified = await atProvider(app, {
      sub: "mallory",
      email: "bo@example.com",
      email_verified: false,
      name: "M",
    });
    const notJoined = await app.app.inject({
      method: "GET",
      url: unverified.callback.slice(PUBLIC.length),
      headers: { cookie: `toolrun_signin=${unverified.signinCookie}` },
    });
    assert.equal(notJoined.statusCode, 403);
    assert.equal(await app.store.findMemberByIdentity(idp.issuer, "mallory"), null);

    const { page } = await signedIn(app, {
      sub: "bo",
      email: "bo@example.com",
      email_verified: true,
      name: "Bo",
    });
    assert.match(page.body, new RegExp(`<code id="account-id">${account.id}</code>`));
  });

  it("returns to a waiting consent page after signing in, and nowhere else", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "free" });
    for (const [asked, landed] of [
      ["/oauth/consent/abc_DEF-1", "/oauth/consent/abc_DEF-1"],
      ["https://evil.example/", "/member"],
      ["//evil.example/x", "/member"],
    ]) {
      const { callback, signinCookie } = await atProvider(
        app,
        { ...ann, sub: "returning" },
        `/signin?return=${encodeURIComponent(asked ?? "")}`,
      );
      const back = await app.app.inject({
        method: "GET",
        url: callback.slice(PUBLIC.length),
        headers: { cookie: `toolrun_signin=${signinCookie}` },
      });
      assert.equal(back.headers.location, landed);
    }
  });

  it("ends a disabled member's session at once", async (t) => {
    const app = await appWith(t, { signup: "open", signupPlan: "free" });
    const { session } = await signedIn(app, { ...ann, sub: "disabled" });
    const member = await app.store.findMemberByIdentity(idp.issuer, "disabled");
    assert.ok(member);
    await app.store.setMemberStatus(member.id, "disabled");
    const page = await app.app.inject({
      method: "GET",
      url: "/member",
      headers: { cookie: `toolrun_session=${session}` },
    });
    assert.equal(page.statusCode, 303);
  });

  it("offers no Buy where credits are not sold, and a Buy per pack that goes on to Stripe's checkout where they are", async (t) => {
    const plain = await appWith(t, { signup: "open", signupPlan: "free" });
    const { page: without } = await signedIn(plain, ann);
    assert.match(without.body, /Buying credits is not offered here/);
    assert.doesNotMatch(without.body, /\/member\/checkout/);

    const fake = await startFakeStripe();
    t.after(() => fake.close());
    const billing: Billing = {
      packs: [{ id: "starter", name: "Starter pack", credits: 1000, price: "price_starter" }],
      payments: createStripePayments({
        secretKey: FAKE_SECRET_KEY,
        webhookSecret: FAKE_WEBHOOK_SECRET,
        apiBase: fake.base,
      }),
    };
    const app = await appWith(t, { signup: "open", signupPlan: "free" }, undefined, billing);
    const { session, page } = await signedIn(app, ann);
    assert.match(page.body, /aria-label="Buy Starter pack"/);
    const accountId = /id="account-id">([^<]+)</.exec(page.body)?.[1];
    const bought = await post(app, "/member/checkout", session, { csrf: csrfOf(page), pack: "starter" });
    assert.equal(bought.statusCode, 303, bought.body);
    const made = fake.sessions.at(-1);
    assert.equal(bought.headers.location, made?.url);
    assert.equal(made?.metadata.toolrun_account, accountId);
    assert.equal(made?.success_url, `${PUBLIC}/member?checkout=success`);
    const unknown = await post(app, "/member/checkout", session, { csrf: csrfOf(page), pack: "huge" });
    assert.equal(unknown.statusCode, 200);
    assert.match(unknown.body, /There is no such pack/);
    const back = await app.app.inject({
      method: "GET",
      url: "/member?checkout=success",
      headers: { cookie: `toolrun_session=${session}` },
    });
    assert.match(back.body, /the payment went through/);
    const forged = await post(app, "/member/checkout", session, { csrf: "forged", pack: "starter" });
    assert.equal(forged.statusCode, 403);
    assert.equal(fake.sessions.length, 1);
  });

  it("the API never takes the session cookie, and no session token or key reaches the logs", async (t) => {
    const logs: string[] = [];
    const app = await appWith(t, { signup: "open", signupPlan: "free" }, logs);
    const { session, page } = await signedIn(app, { ...ann, sub: "api" });
    const made = await post(app, "/member/keys", session, { csrf: csrfOf(page), name: "k", expires: "" });
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(made.body)?.[1] ?? "";
    const cookie = { cookie: `toolrun_session=${session}` };
    const v1 = await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: cookie });
    assert.equal(v1.statusCode, 401);
    assert.equal(v1.json().code, "invalid_api_key");
    const mcp = await app.app.inject({
      method: "POST",
      url: "/mcp",
      headers: {
        ...cookie,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      payload: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(mcp.statusCode, 401);
    const all = logs.join("\n");
    assert.ok(all.length > 0);
    assert.ok(!all.includes(session), "the session token is in the logs");
    assert.ok(!all.includes(key), "a key is in the logs");
    assert.ok(!all.includes(csrfOf(page)), "the CSRF token is in the logs");
  });
});
