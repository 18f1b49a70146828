/**
 * Who called, over MCP: each call's row records the transport and, from a 2026-07-28 client, the
 * clientInfo it sends with every request; a call made with an OAuth access token records its
 * authorization (`authz_...`) and the client it was granted to instead of `key`.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { listAuthorizations } from "../../src/core/oauth/authorizations.ts";
import { untilSuiteEnds } from "../helpers/app.ts";
import { type OAuthApp, Person, startOAuthApp } from "../oauth/helpers.ts";
import { IndependentClient } from "../oauth/independent-client.ts";
import { connect, type Revision } from "./helpers.ts";

describe("MCP: who called", () => {
  let t: OAuthApp;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({}, suite);
  });

  async function echo(credential: string, revision: Revision) {
    const client = await connect(t.mcp, credential, revision);
    try {
      const answer = await client.callTool({ name: "echo", arguments: { value: 2 } });
      assert.equal(answer.isError, undefined, JSON.stringify(answer));
    } finally {
      await client.close();
    }
  }

  async function onlyCall(key: string) {
    const { calls } = await t.store.listCalls({ limit: 10, cursor: null, keyId: (await t.recordOf(key)).id });
    assert.equal(calls.length, 1);
    return calls[0];
  }

  it("records the client's clientInfo from a 2026-07-28 request", async () => {
    const key = await t.key("free", 1000);
    await echo(key, "2026-07-28");
    assert.deepEqual((await onlyCall(key))?.origin, {
      credential: "key",
      oauthClientId: null,
      transport: "mcp",
      clientName: "toolrun-mcp-test",
      clientVersion: "1.0.0",
    });
  });

  it("records the transport of a 2025-era call, whose clientInfo this stateless server no longer has", async () => {
    const key = await t.key("free", 1000);
    await echo(key, "2025-11-25");
    assert.deepEqual((await onlyCall(key))?.origin, {
      credential: "key",
      oauthClientId: null,
      transport: "mcp",
      clientName: null,
      clientVersion: null,
    });
  });

  it("records the OAuth authorization and its client for a call made with an access token", async () => {
    const key = await t.key("free", 1000);
    const signed = await new IndependentClient(t.base, t.mcp).signIn(new Person(t.base), key);
    await echo(signed.tokens.access_token, "2026-07-28");
    const [authorization] = (await listAuthorizations(t.deps, (await t.recordOf(key)).id)).authorizations;
    assert.deepEqual((await onlyCall(key))?.origin, {
      credential: authorization?.id,
      oauthClientId: signed.client.client_id,
      transport: "mcp",
      clientName: "toolrun-mcp-test",
      clientVersion: "1.0.0",
    });
    assert.match(authorization?.id ?? "", /^authz_/);
  });
});
