/**
 * OAuth on two instances sharing one PostgreSQL database, as behind a load balancer: the consent
 * page shown by one and answered on the other (the CSRF and cookie keys are shared), a token
 * issued by one accepted by the other, and refreshes of one refresh token racing on both, of
 * which exactly one wins and the authorization is revoked.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { tools } from "../../src/tools/index.ts";
import { dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { untilSuiteEnds } from "../helpers/app.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { initializeMessage, postRpc } from "../mcp/helpers.ts";
import { type OAuthApp, Person, startOAuthApp } from "./helpers.ts";
import { IndependentClient, oauth } from "./independent-client.ts";

const db = testDatabaseUrl();

describe("OAuth on two instances sharing PostgreSQL", { skip: db.skip }, () => {
  const url = db.url ?? "";
  const schema = uniqueSchema();
  const suite = untilSuiteEnds();
  let one: OAuthApp;
  let two: OAuthApp;
  after(() => dropSchema(url, schema));

  before(async () => {
    const store = () => createPostgresStore({ url, schema, keyCache: false });
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
});
