/**
 * The consent page over HTTP: what it shows (the client's name as text, the redirect host, the
 * field labelled `API key`, Approve and Deny), its headers (the console's CSP with
 * `frame-ancestors 'none'`, and a form-action that reaches the client), its CSRF defence (a token
 * bound to this browser's cookie), and its answers to a key that cannot sign in, which never
 * echo the key.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { SITE_STYLES } from "../../src/console/pages.ts";
import { rotateApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { CONSENT_ATTEMPTS_PER_MINUTE } from "../../src/core/oauth/consent-limit.ts";
import { untilSuiteEnds } from "../helpers/app.ts";
import { type OAuthApp, Person, readForm, startOAuthApp } from "./helpers.ts";
import { IndependentClient } from "./independent-client.ts";

describe("the consent page", () => {
  let t: OAuthApp;
  let client: IndependentClient;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({}, suite);
    client = new IndependentClient(t.base, t.mcp);
    await client.discover();
  });

  /** A person at the consent page of a fresh sign-in by a client with this name. */
  async function atConsent(name = "oauth4webapi test client") {
    const registered = await client.register({ client_name: name });
    const { url } = await client.authorizationUrl(registered);
    const person = new Person(t.base);
    const page = await person.openConsent(url);
    return { person, ...page, action: readForm(page.html).action };
  }

  it("shows the client's name as text, where the browser goes back to, the API key field and both buttons", async () => {
    const { person, html, action } = await atConsent('<img src=x onerror="alert(1)">');
    assert.match(html, /&#60;img src=x onerror=&#34;alert\(1\)&#34;&#62;/, "the name is escaped text");
    assert.doesNotMatch(html, /<img src=x/);
    assert.match(html, /<strong class="redirect-host">127\.0\.0\.1:9<\/strong>/);
    const form = readForm(html);
    assert.equal(form.fieldLabelled("API key"), "api_key");
    assert.equal(form.button("Approve").value, "approve");
    assert.equal(form.button("Deny").value, "deny");
    const response = await person.request(action);
    const policy = response.headers.get("content-security-policy") ?? "";
    assert.match(policy, /frame-ancestors 'none'/);
    assert.match(policy, /script-src 'self'/);
    assert.match(policy, /form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
    assert.equal(response.headers.get("x-frame-options"), "DENY");
    assert.equal(response.headers.get("cache-control"), "no-store");
    assert.doesNotMatch(html, /<script/);
  });

  it("refuses an answer whose CSRF token does not match this browser's cookie (403), and approves nothing", async () => {
    const { person, html, action } = await atConsent();
    const key = await t.key();
    const form = readForm(html);
    const answer = (csrf: string, who = person) =>
      who.request(action, { method: "POST", form: { csrf, api_key: key, decision: "approve" } });
    const forged = await answer("forged-token");
    assert.equal(forged.status, 403);
    assert.equal(forged.headers.get("location"), null);
    // Another browser (no cookie) posting this page's own token.
    const stranger = await answer(form.hidden.csrf ?? "", new Person(t.base));
    assert.equal(stranger.status, 403);
    assert.deepEqual(
      await t.store.listOAuthAuthorizations((await t.recordOf(key)).id, t.clock.now().toISOString()),
      [],
    );
    // The real form still works afterwards.
    const redirect = await person.answer(html, key, "Approve");
    assert.ok(redirect.searchParams.get("code"));
  });

  it("gives one message for every key that cannot sign in, keeps the page, and never shows the key back", async () => {
    const { person, html, action } = await atConsent();
    const revoked = await t.key();
    await t.store.revokeKey((await t.recordOf(revoked)).id, t.clock.now().toISOString());
    // Its grace lets the old secret call the API, but an authorization needs the key's current one.
    const rotatedAway = await t.key();
    await rotateApiKey(t.deps, cliActor("test"), (await t.recordOf(rotatedAway)).id, { graceSeconds: 600 });
    const refused = /This API key cannot sign in: it is not a current key of this service/;
    const cases: [string, RegExp][] = [
      ["", /Enter the API key/],
      ["not-a-key", /not an API key of this service/],
      [`tr_live_${"A".repeat(32)}`, refused],
      [revoked, refused],
      [rotatedAway, refused],
    ];
    const messages = new Set<string>();
    let form = readForm(html);
    for (const [typed, message] of cases) {
      const response = await person.request(action, {
        method: "POST",
        form: { csrf: form.hidden.csrf ?? "", api_key: typed, decision: "approve" },
      });
      const page = await response.text();
      assert.equal(response.status, 400, typed);
      assert.match(page, message);
      assert.match(page, /role="alert"/);
      if (typed !== "") assert.ok(!page.includes(typed), "the typed key is not in the page");
      if (message === refused) messages.add(/id="api-key-error"[^>]*>([^<]*)</.exec(page)?.[1] ?? "");
      form = readForm(page);
    }
    assert.equal(messages.size, 1, "unknown, revoked and rotated keys read alike");
  });

  it(`takes ${CONSENT_ATTEMPTS_PER_MINUTE} keys a minute from an address, then 429 with Retry-After, approving nothing`, async () => {
    const { person, html, action } = await atConsent();
    const key = await t.key();
    // A fresh minute: the other tests' attempts count in theirs.
    t.clock.advance(60_000);
    let form = readForm(html);
    const attempt = async (typed: string) => {
      const response = await person.request(action, {
        method: "POST",
        form: { csrf: form.hidden.csrf ?? "", api_key: typed, decision: "approve" },
      });
      const page = await response.text();
      form = readForm(page);
      return { response, page };
    };
    for (let n = 0; n < CONSENT_ATTEMPTS_PER_MINUTE; n++)
      assert.equal((await attempt(`tr_live_${String(n).padStart(32, "B")}`)).response.status, 400);
    const { response, page } = await attempt(key);
    assert.equal(response.status, 429);
    assert.ok(Number(response.headers.get("retry-after")) > 0, "Retry-After");
    assert.match(page, /Too many API keys were tried here/);
    assert.ok(!page.includes(key), "the typed key is not in the page");
    assert.deepEqual(
      await t.store.listOAuthAuthorizations((await t.recordOf(key)).id, t.clock.now().toISOString()),
      [],
      "the key was not even checked",
    );
    // The next minute, the same key signs in from the page the 429 showed.
    t.clock.advance(60_000);
    const redirect = await person.answer(page, key, "Approve");
    assert.ok(redirect.searchParams.get("code"));
  });

  it("wears the site's look: the style sheets every console page links, in the same order", async () => {
    const { html } = await atConsent();
    const missing = await new Person(t.base).request("/oauth/consent/no-such-sign-in");
    for (const page of [html, await missing.text()])
      assert.deepEqual(
        [...page.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]),
        SITE_STYLES,
      );
  });

  it("tells a browser with no such sign-in that it is not waiting here", async () => {
    const response = await new Person(t.base).request("/oauth/consent/no-such-sign-in");
    assert.equal(response.status, 400);
    assert.match(await response.text(), /This sign-in is not waiting here/);
  });

  it("sends the browser back with access_denied on Deny", async () => {
    const { person, html } = await atConsent();
    const redirect = await person.answer(html, "", "Deny");
    assert.equal(redirect.searchParams.get("error"), "access_denied");
    assert.equal(redirect.searchParams.get("code"), null);
  });
});
