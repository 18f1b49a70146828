/**
 * The key cache (src/adapters/key-cache.ts) over each backend's key and OAuth stores and its signal
 * of changes made elsewhere: found keys and access tokens are remembered, yet a key revoked,
 * rotated or changed, and a token or authorization revoked, by another connection (another
 * instance, the CLI) is refused once the backend's signal has reported the change, and one changed
 * through the cached store itself at once. Each adapter's test file calls this with its uncached
 * key and OAuth stores, its KeyChanges and a second connection on the same data.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { type KeyChanges, withCredentialCache } from "../../src/adapters/key-cache.ts";
import type { OAuthStore } from "../../src/ports/oauth-store.ts";
import type { AccountStore, KeyStore, Store } from "../../src/ports/store.ts";
import { newKey, rotation } from "./store.contract.ts";

export interface KeyCacheFixture {
  /** The backend's key and account stores, uncached, on this instance's connection. */
  readonly keys: KeyStore & AccountStore;
  /** The backend's OAuth store, uncached, on the same connection. */
  readonly oauth: OAuthStore;
  /** The backend's signal of changes made elsewhere. */
  readonly changes: KeyChanges;
  /** A store on another connection to the same data. */
  readonly elsewhere: Store;
  /** Resolves once `changes` can be trusted (a listener confirmed up, say). */
  ready(): Promise<void>;
  /** Resolves once a change `elsewhere` has committed has reached `changes`. */
  changeSeen(): Promise<void>;
  cleanup(): Promise<void>;
}

/** The cache over `keys` and `oauth`, counting the lookups that reach the store and able to hold one. */
function observed(fixture: KeyCacheFixture) {
  let lookups = 0;
  let tokenLookups = 0;
  let hold: { read: () => void; gate: Promise<void> } | undefined;
  const counted: KeyStore & AccountStore = {
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
  const oauth: OAuthStore = {
    ...fixture.oauth,
    async findOAuthAccessToken(idHash) {
      tokenLookups++;
      return fixture.oauth.findOAuthAccessToken(idHash);
    },
  };
  return {
    cached: withCredentialCache(counted, oauth, fixture.changes),
    lookups: () => lookups,
    tokenLookups: () => tokenLookups,
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
    let cached: KeyStore & AccountStore & OAuthStore;
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

    it("forgets a secret rotated and an account's plan changed elsewhere", async () => {
      const key = newKey({ plan: "builder" });
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      await cached.findKeyByHash(key.secretHash);

      assert.equal(await fixture.elsewhere.updateAccount(key.accountId, { plan: "free" }), true);
      await fixture.changeSeen();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.plan, "free");

      assert.equal(await fixture.elsewhere.rotateKey(key.id, rotation(`${key.secretHash}-2`)), true);
      await fixture.changeSeen();
      assert.equal(await cached.findKeyByHash(key.secretHash), null);
      assert.equal((await cached.findKeyByHash(`${key.secretHash}-2`))?.id, key.id);
    });

    it("forgets a key's tools and access changed elsewhere, and a token's key with them", async () => {
      const key = newKey();
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.tools, null);
      assert.equal((await cached.findKeyByHash(key.secretHash))?.access, "full");

      assert.equal(await fixture.elsewhere.updateKey(key.id, { tools: ["echo"], access: "read" }), true);
      await fixture.changeSeen();
      const scoped = await cached.findKeyByHash(key.secretHash);
      assert.deepEqual([scoped?.tools, scoped?.access], [["echo"], "read"]);

      assert.equal(await fixture.elsewhere.updateKey(key.id, { tools: null, access: "full" }), true);
      await fixture.changeSeen();
      const widened = await cached.findKeyByHash(key.secretHash);
      assert.deepEqual([widened?.tools, widened?.access], [null, "full"]);

      const held = await authorized(fixture.elsewhere, ["echo", "heavy-text"]);
      await fixture.ready();
      await fixture.changeSeen();
      const before = await cached.findOAuthAccessToken(held.token);
      assert.deepEqual([before?.authorizationTools, before?.key.tools], [["echo", "heavy-text"], null]);
      assert.equal(await fixture.elsewhere.updateKey(held.keyId, { tools: ["echo"] }), true);
      await fixture.changeSeen();
      const after = await cached.findOAuthAccessToken(held.token);
      assert.deepEqual([after?.authorizationTools, after?.key.tools], [["echo", "heavy-text"], ["echo"]]);
    });

    it("sees changes made through itself at once, without waiting for the signal", async () => {
      const key = newKey({ plan: "builder" });
      await fixture.elsewhere.createKey(key);
      await fixture.ready();
      assert.equal((await cached.findKeyByHash(key.secretHash))?.plan, "builder");
      assert.equal(await cached.updateAccount(key.accountId, { plan: "free" }), true);
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

    it("answers a found access token from memory, and never remembers an unknown one", async () => {
      const { token } = await authorized(fixture.elsewhere);
      await fixture.ready();
      await fixture.changeSeen();
      assert.ok(await cached.findOAuthAccessToken(token));
      const before = cache.tokenLookups();
      assert.ok(await cached.findOAuthAccessToken(token));
      assert.equal(cache.tokenLookups(), before, "answered from memory");
      assert.equal(await cached.findOAuthAccessToken("unknown"), null);
      assert.equal(await cached.findOAuthAccessToken("unknown"), null);
      assert.equal(cache.tokenLookups(), before + 2, "unknown tokens always go to the store");
    });

    it("refuses an access token revoked, deauthorized or whose key was rotated or revoked elsewhere, once reported", async () => {
      const changes: [string, (held: Held) => Promise<unknown>][] = [
        ["token revoked", (held) => fixture.elsewhere.destroyOAuthArtifact("AccessToken", held.token)],
        ["authorization revoked", (held) => fixture.elsewhere.revokeOAuthGrant(held.grantId)],
        ["key rotated", (held) => fixture.elsewhere.rotateKey(held.keyId, rotation(`${held.keyHash}-2`))],
        ["key revoked", (held) => fixture.elsewhere.revokeKey(held.keyId, "2026-11-05T00:00:00.000Z")],
      ];
      for (const [what, change] of changes) {
        const held = await authorized(fixture.elsewhere);
        await fixture.ready();
        await fixture.changeSeen();
        assert.ok(await cached.findOAuthAccessToken(held.token), what);
        assert.ok(await cached.findOAuthAccessToken(held.token), what);
        await change(held);
        await fixture.changeSeen();
        const after = await cached.findOAuthAccessToken(held.token);
        assert.ok(after === null || after.key.revokedAt !== null, what);
      }
    });

    it("sees OAuth changes made through itself at once, without waiting for the signal", async () => {
      const held = await authorized(fixture.elsewhere);
      await fixture.ready();
      await fixture.changeSeen();
      assert.ok(await cached.findOAuthAccessToken(held.token));
      assert.ok(await cached.findOAuthAccessToken(held.token));
      await cached.revokeOAuthAuthorization(held.keyId, held.grantId);
      assert.equal(await cached.findOAuthAccessToken(held.token), null);
    });
  });
}

interface Held {
  readonly keyId: string;
  readonly keyHash: string;
  readonly grantId: string;
  /** The access token's hash. */
  readonly token: string;
}

/**
 * A key with one authorization bound to its secret (narrowed to `tools`, when given), and an access
 * token under it, made `elsewhere`.
 */
async function authorized(store: Store, tools: readonly string[] | null = null): Promise<Held> {
  const key = newKey();
  await store.createKey(key);
  const grantId = `grant-${randomUUID()}`;
  await store.saveOAuthAuthorization({
    id: grantId,
    keyId: key.id,
    clientId: "client-1",
    payload: JSON.stringify({ accountId: key.id, clientId: "client-1" }),
    createdAt: "2026-11-15T12:00:00.000Z",
    expiresAt: "2027-11-15T12:00:00.000Z",
  });
  assert.equal(
    await store.bindOAuthAuthorization(grantId, key.id, key.secretHash, "Test client", tools),
    true,
  );
  const token = `hash-${randomUUID()}`;
  await store.saveOAuthArtifact({
    model: "AccessToken",
    idHash: token,
    payload: JSON.stringify({ aud: "http://127.0.0.1/mcp", clientId: "client-1" }),
    grantId,
    uid: null,
    expiresAt: "2027-11-15T12:30:00.000Z",
  });
  return { keyId: key.id, keyHash: key.secretHash, grantId, token };
}
