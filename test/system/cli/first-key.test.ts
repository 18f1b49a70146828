/**
 * The first key of a deployment on PostgreSQL: no instance mints one at start (it would be a live
 * secret in every instance's log); each says to run `toolrun keys create`, and a key made that way
 * works on every instance. The embedded quickstart's bootstrap key is cli.test.ts's.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runCli } from "../../helpers/process.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { type Cluster, createCluster } from "../scale-out/cluster.ts";

const database = testDatabaseUrl();

describe("the first key on PostgreSQL", { skip: database.skip }, () => {
  let cluster: Cluster;
  before(async () => {
    cluster = await createCluster({ databaseUrl: database.url ?? "", redisUrl: null });
  });
  after(() => cluster?.cleanup());

  it("is minted by no instance: each prints no key and says how to make one", async () => {
    const servers = await cluster.start(2);
    for (const server of servers) {
      assert.doesNotMatch(server.output(), /tr_live_/);
      assert.doesNotMatch(server.output(), /bootstrap/);
      assert.match(server.output(), /No API keys yet\. Create the first with `toolrun keys create/);
    }
    const listed = await runCli(["keys", "list", "--json"], { ...cluster.env });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), []);

    const key = await cluster.createKey("free", 100);
    for (const server of servers) {
      const res = await fetch(`${server.url}/v1/me/credits`, {
        headers: { authorization: `Bearer ${key.key}` },
      });
      assert.equal(res.status, 200);
    }
    // A later start finds a key and says nothing of keys at all.
    const [later] = await cluster.start(1);
    assert.doesNotMatch(later?.output() ?? "", /No API keys yet|tr_live_/);
  });
});
