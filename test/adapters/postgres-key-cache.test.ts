/**
 * The PostgreSQL store remembers found keys, and two instances on one schema still see each
 * other's revocations, rotations and plan changes: the other instance refuses a revoked key on the
 * very next lookup after the change notification reached it, its own changes at once, and while its
 * listener is down (killed, or alive but no longer delivering) every lookup goes to the database.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KeyCacheEvent } from "../../src/adapters/postgres/key-cache.ts";
import { createPostgresStore, type PostgresStore } from "../../src/adapters/postgres/store.ts";
import { newKey } from "../contracts/store.contract.ts";
import { testDatabaseUrl, uniqueName } from "../helpers/services.ts";
import { adminQuery, dropSchema, uniqueSchema } from "./postgres-fixture.ts";

const db = testDatabaseUrl();

/** A store whose key lookups reaching the database are counted, and whose cache events are recorded. */
interface Observed {
  readonly store: PostgresStore;
  readonly applicationName: string;
  /** Lookups by hash sent to the database so far. */
  lookups(): number;
  /** Resolves once `event` has happened more times than it had when `since()` was taken. */
  waitFor(event: KeyCacheEvent, since: number): Promise<void>;
  count(event: KeyCacheEvent): number;
  /** True when the listener's last reported state is confirmed up. */
  isUp(): boolean;
  /** Holds the result of the next lookup until `release()`; `read` resolves once the database answered. */
  holdNextLookup(): { read: Promise<void>; release(): void };
}

async function observedStore(url: string, schema: string, heartbeatMs = 2000): Promise<Observed> {
  const applicationName = uniqueName("toolrun_kc");
  const events: KeyCacheEvent[] = [];
  const waiters: (() => void)[] = [];
  const store = await createPostgresStore({
    url,
    schema,
    applicationName,
    keyCache: {
      heartbeatMs,
      retryMs: 100,
      onEvent: (event) => {
        events.push(event);
        for (const wake of waiters.splice(0)) wake();
      },
    },
  });
  let lookups = 0;
  let hold: { read: () => void; gate: Promise<void> } | undefined;
  type Query = (...args: unknown[]) => Promise<unknown>;
  const original = store.pool.query.bind(store.pool) as Query;
  (store.pool as unknown as { query: Query }).query = async (...args) => {
    const isLookup = (args[0] as { name?: string }).name === "toolrun_key_by_hash";
    if (isLookup) lookups++;
    const result = await original(...args);
    if (isLookup && hold) {
      const { read, gate } = hold;
      hold = undefined;
      read();
      await gate;
    }
    return result;
  };
  const count = (event: KeyCacheEvent) => events.filter((e) => e === event).length;
  return {
    store,
    applicationName,
    lookups: () => lookups,
    count,
    isUp: () => events.filter((e) => e !== "invalidated").at(-1) === "up",
    async waitFor(event, since) {
      const deadline = Date.now() + 5000;
      while (count(event) <= since) {
        assert.ok(Date.now() < deadline, `timed out waiting for key cache event "${event}"`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    holdNextLookup() {
      let read!: () => void;
      let release!: () => void;
      const readPromise = new Promise<void>((resolve) => {
        read = resolve;
      });
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      hold = { read, gate };
      return { read: readPromise, release };
    },
  };
}

/** Looks the key up (which opens the listener), waits until it is confirmed, then looks up once more. */
async function warm(o: Observed, secretHash: string): Promise<void> {
  const ups = o.count("up");
  await o.store.findKeyByHash(secretHash);
  if (!o.isUp()) await o.waitFor("up", ups);
  await o.store.findKeyByHash(secretHash);
}

async function listenerPid(url: string, applicationName: string): Promise<number> {
  const rows = (await adminQuery(
    url,
    "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
    [applicationName],
  )) as { pid: number }[];
  assert.equal(rows.length, 1, "one listener connection");
  return (rows[0] as { pid: number }).pid;
}

if (db.url === undefined) {
  it("PostgreSQL key cache", { skip: db.skip }, () => {});
} else {
  const url = db.url;

  describe("PostgreSQL key lookups across instances", () => {
    const schema = uniqueSchema();
    let writer: PostgresStore;
    let reader: Observed;
    before(async () => {
      writer = await createPostgresStore({ url, schema, keyCache: false });
      await writer.migrate();
      reader = await observedStore(url, schema);
    });
    after(async () => {
      await reader.store.close();
      await writer.close();
      await dropSchema(url, schema);
    });

    it("remembers a found key once its listener is up, and never an unknown one", async () => {
      const key = newKey();
      await writer.createKey(key);
      await warm(reader, key.secretHash);
      const before = reader.lookups();
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.id, key.id);
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.id, key.id);
      assert.equal(reader.lookups(), before, "answered from memory");
      assert.equal(await reader.store.findKeyByHash("unknown"), null);
      assert.equal(await reader.store.findKeyByHash("unknown"), null);
      assert.equal(reader.lookups(), before + 2, "unknown secrets always go to the database");
    });

    it("refuses a key revoked by another instance on the next lookup after the notification", async () => {
      const key = newKey();
      await writer.createKey(key);
      await warm(reader, key.secretHash);
      const seen = reader.count("invalidated");
      assert.equal(await writer.revokeKey(key.id, "2026-11-02T00:00:00.000Z"), true);
      await reader.waitFor("invalidated", seen);
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.revokedAt, "2026-11-02T00:00:00.000Z");
    });

    it("forgets a rotated secret, a changed plan and a change made with plain SQL", async () => {
      const key = newKey({ plan: "builder" });
      await writer.createKey(key);
      await warm(reader, key.secretHash);

      let seen = reader.count("invalidated");
      assert.equal(await writer.updateKey(key.id, { plan: "free" }), true);
      await reader.waitFor("invalidated", seen);
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.plan, "free");

      seen = reader.count("invalidated");
      await adminQuery(url, `UPDATE ${schema}.api_keys SET monthly_allowance = 7 WHERE id = $1`, [key.id]);
      await reader.waitFor("invalidated", seen);
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.monthlyAllowance, 7);

      seen = reader.count("invalidated");
      assert.equal(await writer.rotateKey(key.id, `${key.secretHash}-2`, "tr_live_new1"), true);
      await reader.waitFor("invalidated", seen);
      assert.equal(await reader.store.findKeyByHash(key.secretHash), null);
      assert.equal((await reader.store.findKeyByHash(`${key.secretHash}-2`))?.id, key.id);
    });

    it("sees changes made through itself at once, without waiting for the notification", async () => {
      const key = newKey();
      await writer.createKey(key);
      await warm(reader, key.secretHash);
      assert.equal(await reader.store.revokeKey(key.id, "2026-11-03T00:00:00.000Z"), true);
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.revokedAt, "2026-11-03T00:00:00.000Z");
    });

    it("never keeps a record read before a revocation that was reported while the read was under way", async () => {
      const key = newKey();
      await writer.createKey(key);
      await warm(reader, `${key.secretHash}-other`); // listener up; this key itself not remembered
      const held = reader.holdNextLookup();
      const stale = reader.store.findKeyByHash(key.secretHash);
      await held.read; // the database answered: not revoked
      const seen = reader.count("invalidated");
      await writer.revokeKey(key.id, "2026-11-04T00:00:00.000Z");
      await reader.waitFor("invalidated", seen);
      held.release();
      assert.equal((await stale)?.revokedAt, null, "the read itself predates the revocation");
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.revokedAt, "2026-11-04T00:00:00.000Z");
    });
  });

  describe("PostgreSQL key cache without its listener", () => {
    it("bypasses and clears the cache while the listener is down, and trusts it again once it is back", async () => {
      const schema = uniqueSchema();
      const writer = await createPostgresStore({ url, schema, keyCache: false });
      const reader = await observedStore(url, schema);
      try {
        await writer.migrate();
        const key = newKey();
        await writer.createKey(key);
        await warm(reader, key.secretHash);

        const downs = reader.count("down");
        const ups = reader.count("up");
        await adminQuery(url, "SELECT pg_terminate_backend($1)", [
          await listenerPid(url, reader.applicationName),
        ]);
        await reader.waitFor("down", downs);
        // Not listening, so this change is not reported to the reader; it must not matter.
        await adminQuery(url, `UPDATE ${schema}.api_keys SET plan = 'builder' WHERE id = $1`, [key.id]);
        const before = reader.lookups();
        assert.equal((await reader.store.findKeyByHash(key.secretHash))?.plan, "builder");
        assert.ok(reader.lookups() > before, "the lookup went to the database");

        // Lookups reopen the listener (at most once per retryMs); until it is confirmed, each one
        // goes to the database. Once it is, found keys are remembered again.
        const deadline = Date.now() + 5000;
        while (reader.count("up") === ups) {
          assert.ok(Date.now() < deadline, "the listener came back");
          const sent = reader.lookups();
          await reader.store.findKeyByHash(key.secretHash);
          assert.equal(reader.lookups(), sent + 1, "bypassed while not confirmed");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await reader.store.findKeyByHash(key.secretHash);
        const remembered = reader.lookups();
        assert.equal((await reader.store.findKeyByHash(key.secretHash))?.plan, "builder");
        assert.equal(reader.lookups(), remembered);
      } finally {
        await reader.store.close();
        await writer.close();
        await dropSchema(url, schema);
      }
    });

    it("distrusts a listener that is connected but no longer delivers, within two heartbeats", async (t) => {
      const schema = uniqueSchema();
      const writer = await createPostgresStore({ url, schema, keyCache: false });
      const reader = await observedStore(url, schema, 200);
      let stopped: number | undefined;
      try {
        await writer.migrate();
        const key = newKey();
        await writer.createKey(key);
        await warm(reader, key.secretHash);
        const pid = await listenerPid(url, reader.applicationName);
        // A stopped backend keeps its socket open but delivers nothing: a silently dead connection.
        try {
          process.kill(pid, "SIGSTOP");
          stopped = pid;
        } catch (err) {
          t.skip(`cannot signal the PostgreSQL backend (${(err as Error).message})`);
          return;
        }
        const downs = reader.count("down");
        const started = Date.now();
        await reader.waitFor("down", downs);
        assert.ok(Date.now() - started < 1000, `noticed after ${Date.now() - started} ms`);
        await adminQuery(url, `UPDATE ${schema}.api_keys SET revoked_at = now() WHERE id = $1`, [key.id]);
        assert.notEqual((await reader.store.findKeyByHash(key.secretHash))?.revokedAt, null);
      } finally {
        if (stopped !== undefined) process.kill(stopped, "SIGCONT");
        await reader.store.close();
        await writer.close();
        await dropSchema(url, schema);
      }
    });
  });
}
