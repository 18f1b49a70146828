/**
 * The OAuth part of the Store, the same for every adapter: each adapter's test file calls
 * `describeOAuthStoreContract` with a database that two instances (two stores) can open, so the
 * exactness it pins (one winner per code or refresh token, one shared secret) is checked across
 * instances, not only within one.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it, type TestContext } from "node:test";
import type { NewOAuthArtifact } from "../../src/ports/oauth-store.ts";
import type { Store } from "../../src/ports/store.ts";
import { newKey, rotation } from "./store.contract.ts";

export interface OAuthDatabase {
  /** A migrated store on the database, as one more instance would open it. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const NOW = "2026-11-15T12:00:00.000Z";
const LATER = "2026-11-15T13:00:00.000Z";
const NEXT_YEAR = "2027-11-15T12:00:00.000Z";
const LATER_MINUS_A_DAY = "2026-11-14T13:00:00.000Z";

function artifact(overrides: Partial<NewOAuthArtifact> = {}): NewOAuthArtifact {
  return {
    model: "AccessToken",
    idHash: `hash-${randomUUID()}`,
    payload: JSON.stringify({ aud: "http://127.0.0.1/mcp", clientId: "client-1" }),
    grantId: null,
    uid: null,
    expiresAt: "2026-11-15T12:30:00.000Z",
    ...overrides,
  };
}

export function describeOAuthStoreContract(name: string, makeDatabase: () => Promise<OAuthDatabase>): void {
  describe(`OAuth store contract: ${name}`, () => {
    async function stores(t: TestContext, count = 1): Promise<Store[]> {
      const db = await makeDatabase();
      const opened: Store[] = [];
      for (let i = 0; i < count; i++) opened.push(await db.open());
      t.after(async () => {
        for (const store of opened) await store.close();
        await db.cleanup();
      });
      return opened;
    }

    /** A key with one authorization bound to its secret, and an access token under it. */
    async function authorized(store: Store) {
      const key = newKey();
      await store.createKey(key);
      const grantId = `grant-${randomUUID()}`;
      await store.saveOAuthAuthorization({
        id: grantId,
        keyId: key.id,
        clientId: "client-1",
        payload: JSON.stringify({ accountId: key.id, clientId: "client-1" }),
        createdAt: NOW,
        expiresAt: NEXT_YEAR,
      });
      assert.equal(await store.bindOAuthAuthorization(grantId, key.id, key.secretHash, "Test client"), true);
      const token = artifact({ grantId });
      await store.saveOAuthArtifact(token);
      return { key, grantId, token };
    }

    it("keeps the tools an authorization was narrowed to, with the key's own as they are now", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const { key, grantId, token } = await authorized(store);
      const whole = await store.findOAuthAccessToken(token.idHash);
      assert.deepEqual(
        [whole?.authorizationTools, whole?.key.tools, whole?.key.access],
        [null, null, "full"],
      );
      assert.equal(
        await store.bindOAuthAuthorization(grantId, key.id, key.secretHash, "Test client", ["echo"]),
        true,
      );
      await store.updateKey(key.id, { tools: ["echo", "heavy-text"], access: "read" });
      const narrowed = await store.findOAuthAccessToken(token.idHash);
      assert.deepEqual(
        [narrowed?.authorizationTools, narrowed?.key.tools, narrowed?.key.access],
        [["echo"], ["echo", "heavy-text"], "read"],
      );
      assert.deepEqual(
        (await store.listOAuthAuthorizations(key.id, NOW)).map((a) => a.tools),
        [["echo"]],
      );
    });

    it("keeps a registered client's metadata under its id", async (t) => {
      const [store] = (await stores(t)) as [Store];
      await store.saveOAuthClient("client-1", '{"client_name":"One"}', NOW);
      assert.equal(await store.findOAuthClient("client-1"), '{"client_name":"One"}');
      assert.equal(await store.findOAuthClient("client-2"), null);
    });

    it("finds an access token with the key it acts for, as the key is now", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const { key, grantId, token } = await authorized(store);
      await store.updateAccount(key.accountId, { plan: "builder" });
      const holder = await store.findOAuthAccessToken(token.idHash);
      assert.ok(holder);
      assert.equal(holder.key.id, key.id);
      assert.equal(holder.key.plan, "builder");
      assert.equal(holder.authorizationId, grantId);
      assert.equal(holder.expiresAt, token.expiresAt);
      assert.equal(holder.authorizationExpiresAt, NEXT_YEAR);
      assert.deepEqual(JSON.parse(holder.payload), JSON.parse(token.payload));
      assert.equal(await store.findOAuthAccessToken(`hash-${randomUUID()}`), null);
    });

    for (const [how, grace] of [
      ["", null],
      [" with a grace for its old secret", NEXT_YEAR],
    ] as const)
      it(`ends a key's authorizations when the key is rotated${how}`, async (t) => {
        const [store] = (await stores(t)) as [Store];
        const { key, grantId, token } = await authorized(store);
        assert.equal((await store.listOAuthAuthorizations(key.id, NOW)).length, 1);
        assert.equal(await store.rotateKey(key.id, rotation(`hash-${randomUUID()}`, grace)), true);
        const old = await store.findKeyByHash(key.secretHash);
        assert.equal(old?.matched, grace === null ? undefined : "previous", "the old secret's grace");
        assert.equal(await store.findOAuthAccessToken(token.idHash), null);
        assert.equal(await store.findOAuthAuthorization(grantId, NOW), null, "no longer refreshable");
        assert.deepEqual(await store.listOAuthAuthorizations(key.id, NOW), []);
      });

    it("ends a key's authorizations when the key is revoked", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const { key, grantId, token } = await authorized(store);
      assert.equal(await store.revokeKey(key.id, NOW), true);
      assert.equal(await store.findOAuthAccessToken(token.idHash), null);
      assert.equal(await store.findOAuthAuthorization(grantId, NOW), null, "no longer refreshable");
      assert.deepEqual(await store.listOAuthAuthorizations(key.id, NOW), []);
    });

    it("does not let an authorization act before it is bound to the key's secret", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const key = newKey();
      await store.createKey(key);
      await store.saveOAuthAuthorization({
        id: "grant-unbound",
        keyId: key.id,
        clientId: "client-1",
        payload: "{}",
        createdAt: NOW,
        expiresAt: NEXT_YEAR,
      });
      const token = artifact({ grantId: "grant-unbound" });
      await store.saveOAuthArtifact(token);
      assert.equal(await store.findOAuthAccessToken(token.idHash), null);
      assert.deepEqual(await store.listOAuthAuthorizations(key.id, NOW), []);
      assert.equal(
        await store.bindOAuthAuthorization("grant-unbound", "key_other", key.secretHash, "x"),
        false,
      );
      assert.equal(await store.findOAuthAuthorization("grant-unbound", NOW), null);
      assert.equal(await store.bindOAuthAuthorization("grant-unbound", key.id, key.secretHash, "x"), true);
      assert.equal(await store.findOAuthAuthorization("grant-unbound", NOW), "{}");
      assert.equal(await store.findOAuthAuthorization("grant-unbound", NEXT_YEAR), null);
    });

    it("lists a key's live authorizations oldest first with the client's name", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const first = await authorized(store);
      const grantId = "grant-later";
      await store.saveOAuthAuthorization({
        id: grantId,
        keyId: first.key.id,
        clientId: "client-2",
        payload: "{}",
        createdAt: LATER,
        expiresAt: NEXT_YEAR,
      });
      await store.bindOAuthAuthorization(grantId, first.key.id, first.key.secretHash, "Second");
      const listed = await store.listOAuthAuthorizations(first.key.id, LATER);
      assert.deepEqual(
        listed.map((a) => [a.id, a.clientId, a.clientName, a.createdAt]),
        [
          [first.grantId, "client-1", "Test client", NOW],
          [grantId, "client-2", "Second", LATER],
        ],
      );
      assert.deepEqual(await store.listOAuthAuthorizations(first.key.id, NEXT_YEAR), []);
    });

    it("revokes one authorization of a key with everything issued under it, audited", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const { key, grantId, token } = await authorized(store);
      const refresh = artifact({ model: "RefreshToken", grantId });
      await store.saveOAuthArtifact(refresh);
      const audit = {
        at: NOW,
        actor: { type: "cli" as const, id: "tester" },
        action: "keys.deauthorize",
        target: key.id,
        requestId: null,
        details: { authorization_id: grantId },
      };
      assert.equal(await store.revokeOAuthAuthorization("key_other", grantId, audit), false);
      assert.equal(await store.revokeOAuthAuthorization(key.id, grantId, audit), true);
      assert.equal(await store.revokeOAuthAuthorization(key.id, grantId, audit), false);
      assert.equal(await store.findOAuthAccessToken(token.idHash), null);
      assert.equal(await store.findOAuthArtifact("RefreshToken", refresh.idHash, NOW), null);
      const entries = (await store.listAudit({ limit: 10, cursor: null, target: key.id })).entries;
      assert.deepEqual(
        entries.map((e) => [e.action, e.details]),
        [["keys.deauthorize", { authorization_id: grantId }]],
      );
    });

    it("revokes a grant with everything issued under it, for the library", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const { grantId, token } = await authorized(store);
      const code = artifact({ model: "AuthorizationCode", grantId });
      await store.saveOAuthArtifact(code);
      await store.revokeOAuthGrant(grantId);
      assert.equal(await store.findOAuthAuthorization(grantId, NOW), null);
      assert.equal(await store.findOAuthArtifact("AccessToken", token.idHash, NOW), null);
      assert.equal(await store.findOAuthArtifact("AuthorizationCode", code.idHash, NOW), null);
    });

    it("finds an artifact by model and hash until it expires, and by uid", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const session = artifact({ model: "Session", uid: "uid-1", payload: '{"accountId":"key_1"}' });
      await store.saveOAuthArtifact(session);
      assert.deepEqual(await store.findOAuthArtifact("Session", session.idHash, NOW), {
        payload: '{"accountId":"key_1"}',
        consumedAt: null,
      });
      assert.equal(await store.findOAuthArtifact("AccessToken", session.idHash, NOW), null);
      assert.equal(await store.findOAuthArtifact("Session", session.idHash, session.expiresAt), null);
      assert.equal((await store.findOAuthArtifactByUid("Session", "uid-1", NOW))?.payload, session.payload);
      assert.equal(await store.findOAuthArtifactByUid("Session", "uid-2", NOW), null);
      await store.saveOAuthArtifact({ ...session, payload: '{"accountId":"key_2"}' });
      assert.equal(
        (await store.findOAuthArtifact("Session", session.idHash, NOW))?.payload,
        '{"accountId":"key_2"}',
      );
      await store.destroyOAuthArtifact("Session", session.idHash);
      assert.equal(await store.findOAuthArtifact("Session", session.idHash, NOW), null);
    });

    it("lets exactly one of many concurrent consumers on two instances use a code", async (t) => {
      const [one, two] = (await stores(t, 2)) as [Store, Store];
      const { grantId } = await authorized(one);
      const code = artifact({ model: "AuthorizationCode", grantId });
      await one.saveOAuthArtifact(code);
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 === 0 ? one : two).consumeOAuthArtifact(code.model, code.idHash, NOW),
        ),
      );
      assert.equal(outcomes.filter((o) => o.first).length, 1);
      assert.ok(outcomes.every((o) => o.grantId === grantId));
      const stored = await two.findOAuthArtifact(code.model, code.idHash, NOW);
      assert.equal(stored?.consumedAt, NOW);
      assert.deepEqual(await one.consumeOAuthArtifact(code.model, `hash-${randomUUID()}`, NOW), {
        first: false,
        grantId: null,
      });
    });

    it("gives every instance the same secret, made by the first that asks", async (t) => {
      const [one, two] = (await stores(t, 2)) as [Store, Store];
      const values = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? one : two).oauthSecret("cookies", `candidate-${i}`, NOW),
        ),
      );
      assert.equal(new Set(values).size, 1);
      assert.match(values[0] ?? "", /^candidate-\d$/);
      assert.equal(await two.oauthSecret("cookies", "another", LATER), values[0]);
    });

    it("purges what can no longer be used and keeps what can", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const live = await authorized(store);
      const rotated = await authorized(store);
      const rotatedCode = artifact({
        model: "AuthorizationCode",
        grantId: rotated.grantId,
        expiresAt: NEXT_YEAR,
      });
      await store.saveOAuthArtifact(rotatedCode);
      await store.rotateKey(rotated.key.id, rotation(`hash-${randomUUID()}`));
      const expired = artifact({ expiresAt: NOW });
      await store.saveOAuthArtifact(expired);
      const lasting = artifact({ grantId: live.grantId, expiresAt: NEXT_YEAR });
      await store.saveOAuthArtifact(lasting);

      const removed = await store.purgeOAuth(NOW);
      assert.ok(removed >= 3, `removed ${removed}`);
      assert.equal(await store.findOAuthAuthorization(rotated.grantId, NOW), null);
      assert.equal(await store.findOAuthArtifact("AuthorizationCode", rotatedCode.idHash, NOW), null);
      assert.equal(
        await store.findOAuthArtifact("AccessToken", expired.idHash, "2026-01-01T00:00:00.000Z"),
        null,
      );
      assert.ok(await store.findOAuthAccessToken(lasting.idHash));
      assert.equal((await store.listOAuthAuthorizations(live.key.id, NOW)).length, 1);
    });

    it("purges registered clients that hold no authorization 30 days after registering, and no other", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const monthAgo = new Date(Date.parse(NOW) - 30 * 24 * 3600 * 1000).toISOString();
      await store.saveOAuthClient("client-1", '{"client_name":"Signed someone in"}', monthAgo);
      await authorized(store);
      await store.saveOAuthClient("client-unused", '{"client_name":"Never used"}', monthAgo);
      await store.saveOAuthClient(
        "client-recent",
        '{"client_name":"Registered yesterday"}',
        LATER_MINUS_A_DAY,
      );
      await store.purgeOAuth(NOW);
      assert.equal(await store.findOAuthClient("client-unused"), null);
      assert.ok(await store.findOAuthClient("client-1"), "a client an authorization holds stays");
      assert.ok(await store.findOAuthClient("client-recent"), "a client registered this month stays");
    });
  });
}
