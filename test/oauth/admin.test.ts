/**
 * A key's OAuth authorizations in the admin API: listed with their client, revoked one at a time
 * (its tokens stop at once, and it cannot be refreshed), each revocation in the audit log; and
 * the answers for an unknown key or authorization.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { rotateApiKey } from "../../src/core/admin/actions.ts";
import { cliActor } from "../../src/core/admin/audit.ts";
import { tools } from "../../src/tools/index.ts";
import { type AdminClient, adminClient } from "../admin/helpers.ts";
import { bearer, untilSuiteEnds } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { initializeMessage, postRpc } from "../mcp/helpers.ts";
import { type OAuthApp, Person, startOAuthApp } from "./helpers.ts";
import { IndependentClient } from "./independent-client.ts";

describe("a key's OAuth authorizations in the admin API", () => {
  let t: OAuthApp;
  let admin: AdminClient;
  let client: IndependentClient;
  const suite = untilSuiteEnds();
  before(async () => {
    t = await startOAuthApp({ tools }, suite);
    admin = await adminClient(t);
    client = new IndependentClient(t.base, t.mcp);
    await client.discover();
  });

  const remove = (id: string, authorizationId: string) =>
    t.app.inject({
      method: "DELETE",
      url: `/admin/v1/keys/${id}/authorizations/${authorizationId}`,
      headers: bearer(admin.key),
    });

  it("lists what acts for the key, and revokes one at once, audited", async () => {
    const key = await t.key("builder");
    const id = (await t.recordOf(key)).id;
    assert.deepEqual((await admin.get(`/keys/${id}/authorizations`)).json(), {
      key_id: id,
      authorizations: [],
    });
    const first = await client.signIn(new Person(t.base), key);
    const second = await client.signIn(new Person(t.base), key);

    const listed = (await admin.get(`/keys/${id}/authorizations`)).json();
    assert.equal(listed.authorizations.length, 2);
    const one = listed.authorizations.find(
      (a: { client_id: string }) => a.client_id === first.client.client_id,
    );
    assert.ok(one, "the first client's authorization is listed");
    assert.equal(one.client_name, "oauth4webapi test client");
    assert.deepEqual(one.resource, [t.mcp]);
    assert.equal(one.scope, "mcp");
    assert.match(one.id, /^authz_/, "an id no command line reads as an option");
    assertProblem(await remove(id, one.id.slice("authz_".length)), 404, "authorization_not_found");

    const removed = await remove(id, one.id);
    assert.equal(removed.statusCode, 200);
    assert.deepEqual(removed.json(), { key_id: id, authorization_id: one.id, revoked: true });
    const refused = await postRpc(t.mcp, initializeMessage(), {
      authorization: `Bearer ${first.tokens.access_token}`,
    });
    assert.equal(refused.status, 401);
    const refresh = await client.refresh(first.client, first.tokens.refresh_token ?? "");
    assert.equal(refresh.status, 400);
    assert.equal(((await refresh.json()) as { error: string }).error, "invalid_grant");
    const kept = await postRpc(t.mcp, initializeMessage(), {
      authorization: `Bearer ${second.tokens.access_token}`,
    });
    assert.equal(kept.status, 200, "the other authorization goes on");

    const audit = (await admin.get(`/audit?target=${id}`)).json();
    assert.deepEqual(
      audit.entries[0] && [audit.entries[0].action, audit.entries[0].actor, audit.entries[0].details],
      ["keys.deauthorize", { type: "admin_key", id: admin.id }, { authorization_id: one.id }],
      "the newest entry records the revocation",
    );
    assertProblem(await remove(id, one.id), 404, "authorization_not_found");
  });

  it("no longer lists a key's authorizations once the key is rotated", async () => {
    const key = await t.key("free");
    const id = (await t.recordOf(key)).id;
    await client.signIn(new Person(t.base), key);
    assert.equal((await admin.get(`/keys/${id}/authorizations`)).json().authorizations.length, 1);
    await rotateApiKey(t.deps, cliActor("test"), id);
    assert.deepEqual((await admin.get(`/keys/${id}/authorizations`)).json().authorizations, []);
  });

  it("answers key_not_found for an unknown key, and keeps customer keys out", async () => {
    assertProblem(await admin.get("/keys/key_nope/authorizations"), 404, "key_not_found");
    assertProblem(await remove("key_nope", "anything"), 404, "key_not_found");
    const key = await t.key();
    const id = (await t.recordOf(key)).id;
    const asCustomer = await t.app.inject({
      method: "GET",
      url: `/admin/v1/keys/${id}/authorizations`,
      headers: bearer(key),
    });
    assertProblem(asCustomer, 401, "invalid_api_key");
  });
});
