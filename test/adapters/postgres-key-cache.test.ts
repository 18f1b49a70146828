/**
 * The PostgreSQL store remembers found keys, and two instances on one schema still see each
 * other's revocations, rotations and plan changes: the key cache's contract over the LISTEN/NOTIFY
 * signal (key-changes.ts), plus what is the signal's own: a change made with plain SQL is reported
 * too (the trigger), and while the listener is down (killed, or alive but no longer delivering)
 * every lookup goes to the database.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAccountStore } from "../../src/adapters/postgres/accounts.ts";
import { createKeyChanges, type KeyChangeEvent } from "../../src/adapters/postgres/key-changes.ts";
import { createKeyStore } from "../../src/adapters/postgres/keys.ts";
import { createOAuthStore } from "../../src/adapters/postgres/oauth.ts";
import { createPostgresPool } from "../../src/adapters/postgres/pool.ts";
import { createPostgresStore, type PostgresStore } from "../../src/adapters/postgres/store.ts";
import type { AccountStore, KeyStore, Store } from "../../src/ports/store.ts";
import { newAccount, newKey } from "../contracts/store.contract.ts";
import { describeKeyCacheContract } from "../contracts/store-key-cache.contract.ts";
import { testDatabaseUrl, uniqueName } from "../helpers/services.ts";
import { adminQuery, countKeyLookups, dropSchema, uniqueSchema } from "./postgres-fixture.ts";

const db = testDatabaseUrl();

/** A store whose key lookups reaching the database are counted, and whose cache events are recorded. */
interface Observed {
  readonly store: PostgresStore;
  readonly applicationName: string;
  /** Lookups by hash sent to the database so far. */
  lookups(): number;
  /** Resolves once `event` has happened more times than it had when `since()` was taken. */
  waitFor(event: KeyChangeEvent, since: number): Promise<void>;
  count(event: KeyChangeEvent): number;
  /** True when the listener's last reported state is confirmed up. */
  isUp(): boolean;
}

async function observedStore(url: string, schema: string, heartbeatMs = 2000): Promise<Observed> {
  const applicationName = uniqueName("toolrun_kc");
  const events: KeyChangeEvent[] = [];
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
  const lookups = countKeyLookups(store);
  const count = (event: KeyChangeEvent) => events.filter((e) => e === event).length;
  return {
    store,
    applicationName,
    lookups,
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

    it("forgets a key changed with plain SQL, as any other change", async () => {
      const key = newKey();
      await writer.createKey(key);
      await warm(reader, key.secretHash);
      const seen = reader.count("invalidated");
      await adminQuery(url, `UPDATE ${schema}.api_keys SET name = 'renamed' WHERE id = $1`, [key.id]);
      await reader.waitFor("invalidated", seen);
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.name, "renamed");
    });

    it("forgets every key of an account changed with plain SQL, since they carry its plan", async () => {
      const account = newAccount();
      await writer.createAccount(account);
      const keys = [newKey({ accountId: account.id }), newKey({ accountId: account.id })];
      for (const key of keys) {
        await writer.createKey(key);
        await warm(reader, key.secretHash);
      }
      const seen = reader.count("invalidated");
      await adminQuery(url, `UPDATE ${schema}.accounts SET monthly_allowance = 7 WHERE id = $1`, [
        account.id,
      ]);
      await reader.waitFor("invalidated", seen);
      for (const key of keys)
        assert.equal((await reader.store.findKeyByHash(key.secretHash))?.monthlyAllowance, 7);
    });

    it("answers a found key from memory once its listener is up", async () => {
      const key = newKey();
      await writer.createKey(key);
      await warm(reader, key.secretHash);
      const before = reader.lookups();
      assert.equal((await reader.store.findKeyByHash(key.secretHash))?.id, key.id);
      assert.equal(reader.lookups(), before, "answered from memory");
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
        await adminQuery(url, `UPDATE ${schema}.accounts SET plan = 'builder' WHERE id = $1`, [
          key.accountId,
        ]);
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

  describeKeyCacheContract("postgres (LISTEN/NOTIFY)", async () => {
    const schema = uniqueSchema();
    const other = await createPostgresStore({ url, schema, keyCache: false });
    await other.migrate();
    const pool = createPostgresPool({ url, schema });
    let invalidations = 0;
    let up = false;
    const changes = createKeyChanges(
      { url, schema, applicationName: uniqueName("toolrun_kc"), connectTimeoutMs: 5000, pool },
      {
        retryMs: 100,
        onEvent: (event) => {
          if (event === "invalidated") invalidations++;
          if (event === "up") up = true;
          if (event === "down") up = false;
        },
      },
    );
    // Every change statement, whoever sends it, is announced once: count them to know what to await.
    let changed = 0;
    const count =
      <A extends unknown[], R>(change: (...args: A) => Promise<R>) =>
      (...args: A) => {
        changed++;
        return change(...args);
      };
    const counting = <S extends KeyStore & AccountStore>(keys: S): S => ({
      ...keys,
      revokeKey: count(keys.revokeKey),
      rotateKey: count(keys.rotateKey),
      updateKey: count(keys.updateKey),
      updateAccount: count(keys.updateAccount),
    });
    // An upsert announces itself too (its UPDATE trigger fires whether or not a row conflicted).
    const countingOAuth = (store: Store): Store => ({
      ...counting(store),
      saveOAuthAuthorization: count(store.saveOAuthAuthorization),
      bindOAuthAuthorization: count(store.bindOAuthAuthorization),
      saveOAuthArtifact: count(store.saveOAuthArtifact),
      revokeOAuthGrant: count(store.revokeOAuthGrant),
      destroyOAuthArtifact: count(store.destroyOAuthArtifact),
    });
    const until = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!done()) {
        assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    return {
      keys: counting({ ...createKeyStore(pool), ...createAccountStore(pool) }),
      oauth: createOAuthStore(pool),
      changes,
      elsewhere: countingOAuth(other),
      async ready() {
        changes.version();
        await until("the listener", () => up);
      },
      changeSeen: () => until("the change notifications", () => invalidations >= changed),
      async cleanup() {
        await changes.close();
        await pool.end();
        await other.close();
        await dropSchema(url, schema);
      },
    };
  });
}
