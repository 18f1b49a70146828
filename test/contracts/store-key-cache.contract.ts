/**
 * The key cache (src/adapters/key-cache.ts) over each backend's key store and its signal of changes
 * made elsewhere: found keys are remembered, yet a key revoked, rotated or changed by another
 * connection (another instance, the CLI) is refused once the backend's signal has reported the
 * change, and one changed through the cached store itself at once. Each adapter's test file calls
 * this with its uncached key store, its KeyChanges and a second connection on the same data.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type KeyChanges, withKeyCache } from "../../src/adapters/key-cache.ts";
import type { KeyStore } from "../../src/ports/store.ts";
import { newKey, rotation } from "./store.contract.ts";

export interface KeyCacheFixture {
  /** The backend's key store, uncached, on this instance's connection. */
  readonly keys: KeyStore;
  /** The backend's signal of changes made elsewhere. */
  readonly changes: KeyChanges;
  /** A key store on another connection to the same data. */
  readonly elsewhere: KeyStore;
  /** Resolves once `changes` can be trusted (a listener confirmed up, say). */
  ready(): Promise<void>;
  /** Resolves once a change `elsewhere` has committed has reached `changes`. */
  changeSeen(): Promise<void>;
  cleanup(): Promise<void>;
}

/** The cache over `keys`, counting the lookups that reach the store and able to hold one. */
function observed(fixture: KeyCacheFixture) {
  let lookups = 0;
  let hold: { read: () => void; gate: Promise<void> } | undefined;
  const counted: KeyStore = {
    ...fixture.keys,
    async findKeyByHash(secretHash) {
      lookups++;
      const found = await fixture.keys.findKeyByHash(secretHash);
      if (hold) {
        const { read, gate } = hold;
        hold = undefined;
        read();
        await gate;
      }
      return found;
    },
  };
  return {
    cached: withKeyCache(counted, fixture.changes),
    lookups: () => lookups,
    /** Holds the next lookup's result until `release()`; `read` resolves once the store answered. */
    holdNextLookup() {
      let read!: () => void;
      let release!: () => void;
      const readPromise = new Promise<void>((resolve) => {
        read = resolve;
      });
      hold = {
        read,
        gate: new Promise<void>((resolve) => {
          release = resolve;
        }),
      };
      return { read: readPromise, release };
    },
  };
}

export function describeKeyCacheContract(name: string, makeFixture: () => Promise<KeyCacheFixture>): void {
  describe(`Key cache: ${name}`, () => {
    let fixture: KeyCacheFixture;
    let cache: ReturnType<typeof observed>;
    let cached: KeyStore;
    before(async () => {
      fixture = await makeFixture();
      cache = observed(fixture);
      cached = cache.cached;
    });
    after(async () => fixture.cleanup());

    it("answers a found key from memory, and never remembers an unknown one", async () => {
      const key = newKey();
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      await cached.findKeyByHash(key.secretHash);
      const before = cache.lookups();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.id, key.id);
      assert.equal((await cached.findKeyByHash(key.secretHash))?.id, key.id);
      assert.equal(cache.lookups(), before, "answered from memory");
      assert.equal(await cached.findKeyByHash("unknown"), null);
      assert.equal(await cached.findKeyByHash("unknown"), null);
      assert.equal(cache.lookups(), before + 2, "unknown secrets always go to the store");
    });

    it("refuses a key revoked elsewhere once the change is reported", async () => {
      const key = newKey();
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.revokedAt, null);
      assert.equal(await fixture.elsewhere.revokeKey(key.id, "2026-11-02T00:00:00.000Z"), true);
      await fixture.changeSeen();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.revokedAt, "2026-11-02T00:00:00.000Z");
    });

    it("forgets a secret rotated, a plan changed and credits granted elsewhere", async () => {
      const key = newKey({ plan: "builder" });
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      await cached.findKeyByHash(key.secretHash);

      assert.equal(await fixture.elsewhere.updateKey(key.id, { plan: "free" }), true);
      await fixture.changeSeen();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.plan, "free");

      assert.equal(await fixture.elsewhere.grantCredits(key.id, "2026-11", 40), true);
      await fixture.changeSeen();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.grantedCredits, 40);

      assert.equal(await fixture.elsewhere.rotateKey(key.id, rotation(`${key.secretHash}-2`)), true);
      await fixture.changeSeen();
      assert.equal(await cached.findKeyByHash(key.secretHash), null);
      assert.equal((await cached.findKeyByHash(`${key.secretHash}-2`))?.id, key.id);
    });

    it("sees changes made through itself at once, without waiting for the signal", async () => {
      const key = newKey({ plan: "builder" });
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.plan, "builder");
      assert.equal(await cached.updateKey(key.id, { plan: "free" }), true);
      assert.equal((await cached.findKeyByHash(key.secretHash))?.plan, "free");
      assert.equal(await cached.revokeKey(key.id, "2026-11-03T00:00:00.000Z"), true);
      assert.equal((await cached.findKeyByHash(key.secretHash))?.revokedAt, "2026-11-03T00:00:00.000Z");
    });

    it("never keeps a record read before a change that was reported while the read was under way", async () => {
      const key = newKey();
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      const held = cache.holdNextLookup();
      const stale = cached.findKeyByHash(key.secretHash);
      await held.read; // the store answered: not revoked
      await fixture.elsewhere.revokeKey(key.id, "2026-11-04T00:00:00.000Z");
      await fixture.changeSeen();
      // Another request's lookup meanwhile, which learns of the change first.
      assert.equal(await cached.findKeyByHash("another"), null);
      held.release();
      assert.equal((await stale)?.revokedAt, null, "the read itself predates the revocation");
      assert.equal((await cached.findKeyByHash(key.secretHash))?.revokedAt, "2026-11-04T00:00:00.000Z");
    });
  });
}
