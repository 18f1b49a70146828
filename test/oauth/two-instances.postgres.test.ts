/**
 * OAuth on two instances sharing one PostgreSQL database, as behind a load balancer: the consent
 * page shown by one and answered on the other (the CSRF and cookie keys are shared), a token
 * issued by one accepted by the other, and refreshes of one refresh token racing on both, of
 * which exactly one wins and the authorization is revoked. Both remember the keys and tokens they
 * found, as in production, yet a token revoked, an authorization revoked or a key rotated on one
 * is refused by the other as soon as its change notification arrives.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { rotateApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { tools } from "../../src/tools/index.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { adminClient } from "../admin/helpers.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { initializeMessage, postRpc } from "../mcp/helpers.ts";
import { type OAuthApp, Person, startOAuthApp } from "./helpers.ts";
import { IndependentClient, oauth, type Signed } from "./independent-client.ts";

const db = testDatabaseUrl();

describe("OAuth on two instances sharing PostgreSQL", { skip: db.skip }, () => {
  const url = db.url ?? "";
  const schema = uniqueSchema();
  const suite = untilSuiteEnds();
  let one: OAuthApp;
  let two: OAuthApp;
  after(() => dropSchema(url, schema));

  before(async () => {
    const store = () => createPostgresStore({ url, schema });
    one = await startOAuthApp({ tools, store: await store() }, suite);
    two = await startOAuthApp({ tools, store: await store(), migrate: false }, suite, { issuer: one.base });
  });

  /** The same client, its token requests sent to the other instance. */
  function onTwo(client: IndependentClient): IndependentClient {
    const other = new IndependentClient(one.base, one.mcp);
    other.as = { ...client.as, token_endpoint: `${two.base}/oauth/token` };
    return other;
  }

  it("publishes the issuer's endpoints from every instance, whatever Host a request names", async () => {
    for (const [instance, host] of [
      [two, new URL(two.base).host],
      [one, "evil.example"],
    ] as const) {
      const response = await fetch(`${instance.base}/.well-known/oauth-authorization-server`, {
        headers: { host },
      });
      const metadata = (await response.json()) as Record<string, string>;
      assert.equal(metadata.issuer, one.base);
      assert.equal(metadata.token_endpoint, `${one.base}/oauth/token`);
      assert.equal(metadata.authorization_endpoint, `${one.base}/oauth/authorize`);
    }
  });

  it("shows the consent page on one instance and takes its answer on the other; the token works on both", async () => {
    const key = await one.key("builder");
    const client = new IndependentClient(one.base, one.mcp);
    await client.discover();
    const registered = await client.register();
    const { url: authorization, verifier, state } = await client.authorizationUrl(registered);
    const person = new Person(one.base);
    const { html } = await person.openConsent(authorization);
    const redirect = await person.answer(html, key, "Approve", two.base);
    const callback = oauth.validateAuthResponse(client.as, registered, redirect, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      client.as,
      registered,
      await onTwo(client).exchange(registered, callback, verifier),
    );
    for (const instance of [one, two]) {
      const answer = await postRpc(instance.mcp, initializeMessage(), {
        authorization: `Bearer ${tokens.access_token}`,
      });
      assert.equal(answer.status, 200, instance.base);
    }
  });

  it("lets exactly one of many refreshes racing on both instances win, and revokes the authorization", async () => {
    const key = await one.key("builder");
    const client = new IndependentClient(one.base, one.mcp);
    await client.discover();
    const signed = await client.signIn(new Person(one.base), key);
    const refreshToken = signed.tokens.refresh_token ?? "";
    const other = onTwo(client);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? client : other).refresh(signed.client, refreshToken),
      ),
    );
    const bodies = await Promise.all(
      answers.map((a) => a.json() as Promise<{ access_token?: string; error?: string }>),
    );
    assert.ok(
      answers.every((a) => a.status < 500),
      answers.map((a) => a.status).join(", "),
    );
    const winners = bodies.filter((b) => b.access_token !== undefined);
    assert.equal(winners.length, 1, JSON.stringify(bodies));
    assert.ok(bodies.filter((b) => b.access_token === undefined).every((b) => b.error === "invalid_grant"));
    const answer = await postRpc(two.mcp, initializeMessage(), {
      authorization: `Bearer ${winners[0]?.access_token}`,
    });
    assert.equal(answer.status, 401, "the reuse revoked the whole authorization");
  });

  it("refuses on the other instance a token revoked, deauthorized or whose key was rotated on one", async () => {
    const admin = await adminClient(one);
    const changes: [string, (signed: Signed, keyId: string) => Promise<unknown>][] = [
      [
        "the token revoked",
        (signed) =>
          fetch(`${one.base}/oauth/revoke`, {
            method: "POST",
            body: new URLSearchParams({
              token: signed.tokens.access_token,
              client_id: signed.client.client_id,
            }),
          }),
      ],
      [
        "the authorization revoked",
        async (_signed, keyId) => {
          const [authorization] = (await admin.get(`/keys/${keyId}/authorizations`)).json().authorizations;
          return one.app.inject({
            method: "DELETE",
            url: `/admin/v1/keys/${keyId}/authorizations/${authorization.id}`,
            headers: bearer(admin.key),
          });
        },
      ],
      ["the key rotated", (_signed, keyId) => rotateApiKey(one.deps, cliActor("test"), keyId)],
    ];
    for (const [what, change] of changes) {
      const key = await one.key("builder");
      const signed = await new IndependentClient(one.base, one.mcp).signIn(new Person(one.base), key);
      const onTwo = () =>
        postRpc(two.mcp, initializeMessage(), { authorization: `Bearer ${signed.tokens.access_token}` });
      assert.equal((await onTwo()).status, 200, what);
      assert.equal((await onTwo()).status, 200, `${what}: answered again, from memory`);
      await change(signed, (await one.recordOf(key)).id);
      const deadline = Date.now() + 2000;
      let status = (await onTwo()).status;
      while (status !== 401 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        status = (await onTwo()).status;
      }
      assert.equal(status, 401, `${what}: refused on the other instance once told`);
    }
  });
});
