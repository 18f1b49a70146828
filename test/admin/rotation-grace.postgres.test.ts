/**
 * A rotation's grace on two instances sharing PostgreSQL, each remembering found keys (the key
 * cache over LISTEN/NOTIFY): both serve the old and the new secret from memory during the grace,
 * and both refuse the old one from the very moment its grace ends, still from memory, since the
 * end is a time each instance checks at every request, not a change anything has to announce.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { KeyChangeEvent } from "../../src/adapters/postgres/key-changes.ts";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { countKeyLookups, dropSchema, uniqueSchema } from "../adapters/postgres-fixture.ts";
import { bearer, createTestApp, type TestApp, type TestLifetime } from "../helpers/app.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { adminClient } from "./helpers.ts";

const db = testDatabaseUrl();

interface Instance {
  readonly app: TestApp;
  /** Key lookups this instance sent to the database so far. */
  lookups(): number;
  /** Resolves once `event` has happened more than `since` times. */
  waitFor(event: KeyChangeEvent, since: number): Promise<void>;
  count(event: KeyChangeEvent): number;
  /** The status `GET /v1/me/credits` answers `key` with. */
  status(key: string): Promise<number>;
}

async function instance(
  url: string,
  schema: string,
  lifetime: TestLifetime,
  migrate: boolean,
): Promise<Instance> {
  const events: KeyChangeEvent[] = [];
  const store = await createPostgresStore({
    url,
    schema,
    // One ping confirms the listener; no later heartbeat, late on a loaded machine, takes it down.
    keyCache: { heartbeatMs: 600_000, retryMs: 100, onEvent: (event) => void events.push(event) },
  });
  const lookups = countKeyLookups(store);
  const app = await createTestApp({ store, migrate }, lifetime);
  const count = (event: KeyChangeEvent) => events.filter((e) => e === event).length;
  return {
    app,
    lookups,
    count,
    async waitFor(event, since) {
      const deadline = Date.now() + 10_000;
      while (count(event) <= since) {
        assert.ok(Date.now() < deadline, `timed out waiting for the key cache's "${event}"`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async status(key) {
      return (await app.app.inject({ method: "GET", url: "/v1/me/credits", headers: bearer(key) }))
        .statusCode;
    },
  };
}

describe("a rotation's grace on two instances sharing PostgreSQL", { skip: db.skip }, () => {
  const url = db.url ?? "";
  const schema = uniqueSchema();
  after(() => dropSchema(url, schema));

  it("serves both secrets from memory on both, and refuses the old one on both the moment its grace ends", async (t) => {
    const one = await instance(url, schema, t, true);
    const two = await instance(url, schema, t, false);
    const admin = await adminClient(one.app);
    const { id, key: old } = (await admin.post("/keys", { plan: "free" })).json();
    // The first lookup opens each listener; once it is confirmed, found keys are remembered.
    for (const i of [one, two]) {
      assert.equal(await i.status(old), 200);
      await i.waitFor("up", 0);
    }

    const seen = [one.count("invalidated"), two.count("invalidated")];
    const rotated = await admin.post(`/keys/${id}/rotate`, { grace_seconds: 30 });
    const { key: fresh, previous_secret_expires_at: end } = rotated.json();
    // Each instance hears of the rotation, the one that made it too: only then is what it
    // remembers next sure to stay.
    await one.waitFor("invalidated", seen[0] as number);
    await two.waitFor("invalidated", seen[1] as number);
    for (const i of [one, two]) {
      assert.deepEqual([await i.status(old), await i.status(fresh)], [200, 200]);
      i.app.clock.set(end);
      i.app.clock.advance(-1);
    }
    const remembered = [one.lookups(), two.lookups()];
    for (const i of [one, two]) assert.deepEqual([await i.status(old), await i.status(fresh)], [200, 200]);

    for (const i of [one, two]) i.app.clock.set(end);
    for (const i of [one, two]) assert.deepEqual([await i.status(old), await i.status(fresh)], [401, 200]);
    assert.deepEqual(
      [one.lookups(), two.lookups()],
      remembered,
      "answered from memory: the grace's end needs no change to be announced",
    );
  });
});
