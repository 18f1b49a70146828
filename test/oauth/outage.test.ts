/**
 * The database out while OAuth is used: every endpoint answers 503 with `Retry-After`, as the rest
 * of the API does, never the library's 500 `server_error`: OAuth's `temporarily_unavailable` in
 * JSON at the token, registration and revocation endpoints, the error page at the authorization
 * endpoint, the problem document at the consent page. Each is logged with its cause and counted in
 * `toolrun_backend_errors_total`; once the database is back, the same requests go on.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSqliteStore } from "../../src/adapters/sqlite/store.ts";
import { createMetrics } from "../../src/http/metrics.ts";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import type { Store } from "../../src/ports/store.ts";
import { tools } from "../../src/tools/index.ts";
import { untilSuiteEnds } from "../helpers/app.ts";
import { collectLog } from "../helpers/log-lines.ts";
import { Person, readForm, startOAuthApp } from "./helpers.ts";
import { IndependentClient, oauth } from "./independent-client.ts";

/** A real SQLite store whose every query fails as an unreachable database does, while `down`. */
function switchableStore() {
  const real = createSqliteStore(":memory:");
  const state = { down: false };
  const store = new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function" || name === "close") return value;
      return (...args: unknown[]) =>
        state.down
          ? Promise.reject(new BackendUnavailableError("database", new Error("connect ECONNREFUSED")))
          : value.apply(target, args);
    },
  }) as Store;
  return { store, state };
}

describe("OAuth while the database is out", () => {
  const suite = untilSuiteEnds();

  it("answers 503 with Retry-After at every endpoint, never a 500; logs and counts each; goes on once it is back", async () => {
    const { store, state } = switchableStore();
    const metrics = createMetrics();
    const log = collectLog();
    const t = await startOAuthApp(
      {
        tools,
        store,
        observer: metrics,
        appOptions: { ...log.options.appOptions, metrics: { metrics, token: null } },
      },
      suite,
    );
    const backendErrors = async () => {
      const scraped = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
      return Number(/^toolrun_backend_errors_total\{backend="database"\} (\d+)$/m.exec(scraped)?.[1]);
    };
    const key = await t.key("builder");
    const client = new IndependentClient(t.base, t.mcp);
    await client.discover();
    const signed = await client.signIn(new Person(t.base), key);
    const registered = await client.register();
    const { url, verifier, state: oauthState } = await client.authorizationUrl(registered);
    const person = new Person(t.base);
    const { html } = await person.openConsent(url);
    const countedBefore = await backendErrors();

    state.down = true;
    const unavailable = async (label: string, response: Response) => {
      assert.equal(response.status, 503, `${label}: ${response.status}`);
      assert.equal(response.headers.get("retry-after"), "1", label);
      assert.equal(response.headers.get("location"), null, `${label} is not redirected`);
      return response;
    };
    const oauthError = async (label: string, response: Response) => {
      await unavailable(label, response);
      assert.match(response.headers.get("content-type") ?? "", /^application\/json/, label);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.error, "temporarily_unavailable", label);
      assert.match(String(body.error_description), /cannot reach its database/, label);
    };

    await oauthError(
      "token (refresh)",
      await client.refresh(signed.client, signed.tokens.refresh_token ?? ""),
    );
    await oauthError(
      "register",
      await fetch(`${t.base}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          redirect_uris: ["http://127.0.0.1:9/cb"],
          token_endpoint_auth_method: "none",
        }),
      }),
    );
    await oauthError(
      "revoke",
      await fetch(`${t.base}/oauth/revoke`, {
        method: "POST",
        body: new URLSearchParams({ token: signed.tokens.access_token, client_id: signed.client.client_id }),
      }),
    );

    const page = await unavailable("authorize", await new Person(t.base).request(url.href));
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(page.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    const shown = await page.text();
    assert.equal(/id="oauth-error">([^<]+)</.exec(shown)?.[1], "temporarily_unavailable");
    assert.match(shown, /Reload this page in a moment/);

    const form = readForm(html);
    const decision = await unavailable(
      "consent POST",
      await person.request(new URL(form.action, t.base).href, {
        method: "POST",
        form: { ...form.hidden, [form.fieldLabelled("API key")]: key, ...buttonOf(form.button("Approve")) },
      }),
    );
    const problem = (await decision.json()) as Record<string, unknown>;
    assert.equal(problem.code, "backend_unavailable");

    const seen = 5;
    assert.equal(await backendErrors(), countedBefore + seen, "each counted once");
    const logged = log.lines.filter((line) => line.msg === "backend unavailable");
    assert.equal(logged.length, seen, "each logged once");
    for (const line of logged) {
      assert.ok(line.reqId, "with its request's id");
      assert.match(JSON.stringify(line.err), /ECONNREFUSED/, "with its cause");
    }

    state.down = false;
    // The person answers again, and the client finishes: nothing was lost while it was out.
    const redirect = await person.answer((await person.openConsent(url)).html, key, "Approve");
    const callback = oauth.validateAuthResponse(client.as, registered, redirect, oauthState);
    const tokens = await oauth.processAuthorizationCodeResponse(
      client.as,
      registered,
      await client.exchange(registered, callback, verifier),
    );
    assert.ok(tokens.access_token);
    const refreshed = await client.refresh(signed.client, signed.tokens.refresh_token ?? "");
    assert.equal(refreshed.status, 200, "the refresh token refused during the outage still works");
  });
});

function buttonOf(button: { name: string; value: string }): Record<string, string> {
  return { [button.name]: button.value };
}
