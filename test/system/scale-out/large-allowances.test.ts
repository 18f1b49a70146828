/**
 * Credits past what a 32-bit integer holds, on PostgreSQL, through the operator interface: a key
 * with an own allowance of 1e9 and two grants of 1e9 (the admin bounds) calls tools and reads its
 * credits like any other.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { callTool, getJson } from "./calls.ts";
import { type Cluster, createCluster, type TestKey } from "./cluster.ts";

const database = testDatabaseUrl();

describe("a key whose allowance and grants add up past 2^31, on PostgreSQL", { skip: database.skip }, () => {
  let cluster: Cluster | undefined;
  let server: ServerProcess;
  let key: TestKey;

  before(async () => {
    cluster = await createCluster({ databaseUrl: database.url ?? "", redisUrl: null });
    key = await cluster.createKey("builder", 1_000_000_000);
    await cluster.cli(["keys", "grant", key.id, "1000000000"]);
    await cluster.cli(["keys", "grant", key.id, "1000000000"]);
    [server] = (await cluster.start(1)) as [ServerProcess];
  });
  after(async () => {
    await cluster?.cleanup();
  });

  it("is charged and told what it has left, exactly", async () => {
    const first = await callTool(server.url, 0, key.key, "big-1");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body?.credits_remaining, 2_999_999_999);
    const second = await callTool(server.url, 0, key.key, "big-2");
    assert.equal(second.body?.credits_remaining, 2_999_999_998);
    const credits = await getJson(server.url, "/v1/me/credits", key.key);
    assert.equal(credits.status, 200);
    assert.equal(credits.body.monthly_allowance, 1_000_000_000);
    assert.equal(credits.body.credits_used, 2);
    assert.equal(credits.body.credits_remaining, 2_999_999_998);
  });
});
