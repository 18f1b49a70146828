/**
 * A rotation's grace on two `toolrun serve` processes sharing PostgreSQL, each remembering found
 * keys: both answer the old and the new secret during the grace, and both refuse the old secret
 * from the first request after its end, with no write, notification or cache expiry in between.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { bothWorkUntil, credits, pastEnd } from "../../helpers/grace.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { type Cluster, createCluster } from "./cluster.ts";

const database = testDatabaseUrl();

describe("a rotation's grace on two instances", { skip: database.skip }, () => {
  let cluster: Cluster;
  let bases: string[];
  before(async () => {
    cluster = await createCluster({ databaseUrl: database.url ?? "", redisUrl: null });
    bases = (await cluster.start(2)).map((server) => server.url);
  });
  after(() => cluster?.cleanup());

  it("answers both secrets on both until the grace ends, then refuses the old one on both at once", async () => {
    const { id, key: old } = await cluster.createKey("free", 100);
    // Each instance has found the key, and remembers it.
    for (const base of bases) assert.equal((await credits(base, old)).status, 200);
    const rotated = JSON.parse(await cluster.cli(["keys", "rotate", id, "--grace", "6s", "--json"])) as {
      key: string;
      previous_secret_expires_at: string;
    };
    const end = rotated.previous_secret_expires_at;
    await bothWorkUntil(end, bases, [old, rotated.key]);

    await pastEnd(end);
    for (const base of bases) {
      const refused = await credits(base, old);
      assert.equal(refused.status, 401, base);
      assert.match(refused.detail ?? "", /old secret stopped working/);
      assert.equal((await credits(base, rotated.key)).status, 200, base);
    }
  });
});
