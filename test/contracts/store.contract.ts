/**
 * The one contract every Store adapter passes. Each adapter's test file calls `describeStoreContract`
 * with a factory that gives a fresh, migrated store and a cleanup.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { CallAbandonedError, InvalidCursorError } from "../../src/ports/errors.ts";
import type {
  AuditPage,
  KeyRotation,
  NewAccount,
  NewApiKey,
  NewAuditEntry,
  NewGrant,
  Reservation,
  Store,
  UsageReport,
} from "../../src/ports/store.ts";

export interface StoreFixture {
  readonly store: Store;
  cleanup(): Promise<void>;
}

/** The one-key account of a key: the mapping migration 0006 gives existing keys (key_X -> acc_X). */
export function accountOf(keyId: string): string {
  return keyId.startsWith("key_") ? `acc_${keyId.slice(4)}` : `acc_${keyId}`;
}

/** A key's members, and its one-key account's plan and allowance (ignored when `accountId` names an existing account). */
export type TestKey = Partial<Omit<NewApiKey, "newAccount">> & {
  readonly plan?: string;
  readonly monthlyAllowance?: number | null;
};

/** A new key: with its own one-key account (`accountOf` its id), unless `accountId` is given. */
export function newKey(overrides: TestKey = {}): NewApiKey {
  const { plan = "free", monthlyAllowance = null, ...key } = overrides;
  const id = key.id ?? `key_${randomUUID().slice(0, 8)}`;
  return {
    id,
    name: "test",
    secretHash: `hash-${randomUUID()}`,
    displayPrefix: "tr_live_abcd",
    createdAt: "2026-11-01T00:00:00.000Z",
    expiresAt: null,
    metadata: {},
    tools: null,
    access: "full",
    ...(key.accountId === undefined
      ? { accountId: accountOf(id), newAccount: { plan, monthlyAllowance } }
      : { accountId: key.accountId }),
    ...key,
  };
}

/** A new account of its own. */
export function newAccount(overrides: Partial<NewAccount> = {}): NewAccount {
  return {
    id: `acc_${randomUUID().slice(0, 8)}`,
    name: "team",
    plan: "free",
    monthlyAllowance: null,
    metadata: {},
    createdAt: "2026-11-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A new grant: 100 promotional credits that never expire, unless told otherwise. */
export function newGrant(overrides: Partial<NewGrant> = {}): NewGrant {
  return {
    id: `grt_${randomUUID().replaceAll("-", "").slice(0, 16)}`,
    credits: 100,
    expiresAt: null,
    category: "promotional",
    reference: null,
    createdAt: "2026-11-01T00:00:00.000Z",
    ...overrides,
  };
}

/** A new secret `secretHash`, the replaced one working until `previousSecretExpiresAt` (null: not at all). */
export function rotation(
  secretHash: string,
  previousSecretExpiresAt: string | null = null,
  displayPrefix = "tr_live_new1",
): KeyRotation {
  return { secretHash, displayPrefix, previousSecretExpiresAt };
}

/** A reservation of `keyId`, charging its one-key account unless `accountId` says otherwise. */
export function reservation(keyId: string, overrides: Partial<Reservation> = {}): Reservation {
  return {
    callId: randomUUID(),
    requestId: "req_test",
    accountId: accountOf(keyId),
    keyId,
    tool: "calc",
    period: "2026-11",
    credits: 2,
    allowance: 10,
    monthlyCallCap: null,
    at: new Date().toISOString(),
    ...overrides,
  };
}

export function describeStoreContract(name: string, makeFixture: () => Promise<StoreFixture>): void {
  describe(`Store contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: Store;
    before(async () => {
      fixture = await makeFixture();
      store = fixture.store;
    });
    after(async () => {
      await fixture.cleanup();
    });

    describe("schema", () => {
      it("is migrated, and migrating again changes nothing", async () => {
        assert.equal(await store.isMigrated(), true);
        const key = newKey();
        await store.createKey(key);
        await store.migrate();
        assert.equal(await store.isMigrated(), true);
        assert.equal((await store.getKey(key.id))?.id, key.id);
        await store.ping();
      });
    });

    describe("keys", () => {
      it("finds a key by its hash and by id, never exposing the hash", async () => {
        const key = newKey({ name: "alice", plan: "builder", monthlyAllowance: 500 });
        await store.createKey(key);
        const found = await store.findKeyByHash(key.secretHash);
        const { matched, ...record } = found ?? { matched: null };
        assert.equal(matched, "current");
        assert.deepEqual(record, {
          id: key.id,
          accountId: key.accountId,
          accountName: "alice",
          name: "alice",
          plan: "builder",
          displayPrefix: key.displayPrefix,
          monthlyAllowance: 500,
          createdAt: key.createdAt,
          revokedAt: null,
          expiresAt: null,
          metadata: {},
          previousDisplayPrefix: null,
          previousSecretExpiresAt: null,
          tools: null,
          access: "full",
        });
        assert.deepEqual(await store.getKey(key.id), record);
        assert.equal(await store.findKeyByHash("no-such-hash"), null);
        assert.equal(await store.getKey("no-such-id"), null);
      });

      it("lists and counts keys", async () => {
        const before = await store.countKeys();
        const a = newKey();
        const b = newKey();
        await store.createKey(a);
        await store.createKey(b);
        assert.equal(await store.countKeys(), before + 2);
        const ids = (await store.listKeys()).map((k) => k.id);
        assert.ok(ids.includes(a.id) && ids.includes(b.id));
      });

      it("revokes once", async () => {
        const key = newKey();
        await store.createKey(key);
        assert.equal(await store.revokeKey(key.id, "2026-11-02T00:00:00.000Z"), true);
        assert.equal(await store.revokeKey(key.id, "2026-11-03T00:00:00.000Z"), false);
        assert.equal((await store.findKeyByHash(key.secretHash))?.revokedAt, "2026-11-02T00:00:00.000Z");
        assert.equal(await store.revokeKey("missing", "2026-11-02T00:00:00.000Z"), false);
      });

      it("rotates the secret of an active key: the old hash stops matching at once", async () => {
        const key = newKey();
        await store.createKey(key);
        const newHash = `hash-${randomUUID()}`;
        assert.equal(await store.rotateKey(key.id, rotation(newHash)), true);
        assert.equal(await store.findKeyByHash(key.secretHash), null);
        const rotated = await store.findKeyByHash(newHash);
        assert.equal(rotated?.id, key.id);
        assert.equal(rotated?.matched, "current");
        assert.equal(rotated?.displayPrefix, "tr_live_new1");
        assert.deepEqual([rotated?.previousDisplayPrefix, rotated?.previousSecretExpiresAt], [null, null]);
        await store.revokeKey(key.id, "2026-11-02T00:00:00.000Z");
        assert.equal(await store.rotateKey(key.id, rotation(`hash-${randomUUID()}`)), false);
        assert.equal(await store.rotateKey("missing", rotation(`hash-${randomUUID()}`)), false);
      });

      it("rotates with a grace: the replaced secret still finds the key, as previous, until when it says", async () => {
        const key = newKey({ displayPrefix: "tr_live_old1" });
        await store.createKey(key);
        const newHash = `hash-${randomUUID()}`;
        const until = "2026-11-02T12:00:00.000Z";
        assert.equal(await store.rotateKey(key.id, rotation(newHash, until, "tr_live_new1")), true);
        const old = await store.findKeyByHash(key.secretHash);
        const fresh = await store.findKeyByHash(newHash);
        assert.deepEqual(
          [old?.id, old?.matched, fresh?.id, fresh?.matched],
          [key.id, "previous", key.id, "current"],
        );
        for (const found of [old, fresh, await store.getKey(key.id)])
          assert.deepEqual(
            [found?.displayPrefix, found?.previousDisplayPrefix, found?.previousSecretExpiresAt],
            ["tr_live_new1", "tr_live_old1", until],
          );
      });

      it("keeps one replaced secret at most: rotating again ends the older one at once", async () => {
        const key = newKey();
        await store.createKey(key);
        const second = `hash-${randomUUID()}`;
        const third = `hash-${randomUUID()}`;
        await store.rotateKey(key.id, rotation(second, "2026-11-05T00:00:00.000Z", "tr_live_sec2"));
        assert.equal(
          await store.rotateKey(key.id, rotation(third, "2026-11-03T00:00:00.000Z", "tr_live_thr3")),
          true,
        );
        assert.equal(await store.findKeyByHash(key.secretHash), null, "the first secret");
        const previous = await store.findKeyByHash(second);
        assert.deepEqual(
          [previous?.matched, previous?.previousDisplayPrefix, previous?.previousSecretExpiresAt],
          ["previous", "tr_live_sec2", "2026-11-03T00:00:00.000Z"],
        );
        // Without a grace, no old secret is left, however long the last grace had to run.
        const fourth = `hash-${randomUUID()}`;
        assert.equal(await store.rotateKey(key.id, rotation(fourth)), true);
        assert.equal(await store.findKeyByHash(second), null);
        assert.equal(await store.findKeyByHash(third), null);
        const now = await store.findKeyByHash(fourth);
        assert.deepEqual([now?.previousDisplayPrefix, now?.previousSecretExpiresAt], [null, null]);
      });

      it("ends a grace at the key's revocation, and leaves one that ended before as it was", async () => {
        const key = newKey();
        await store.createKey(key);
        await store.rotateKey(key.id, rotation(`hash-${randomUUID()}`, "2026-11-09T00:00:00.000Z"));
        assert.equal(await store.revokeKey(key.id, "2026-11-02T00:00:00.000Z"), true);
        const old = await store.findKeyByHash(key.secretHash);
        assert.deepEqual(
          [old?.matched, old?.revokedAt, old?.previousSecretExpiresAt],
          ["previous", "2026-11-02T00:00:00.000Z", "2026-11-02T00:00:00.000Z"],
        );

        const ended = newKey();
        await store.createKey(ended);
        await store.rotateKey(ended.id, rotation(`hash-${randomUUID()}`, "2026-11-01T06:00:00.000Z"));
        await store.revokeKey(ended.id, "2026-11-02T00:00:00.000Z");
        assert.equal((await store.getKey(ended.id))?.previousSecretExpiresAt, "2026-11-01T06:00:00.000Z");
      });

      it("changes only the members an update names", async () => {
        const key = newKey({ name: "before", monthlyAllowance: 300, metadata: { customer: "c1" } });
        await store.createKey(key);
        assert.equal(await store.updateAccount(key.accountId, { plan: "builder" }), true);
        const planned = await store.getKey(key.id);
        assert.equal(planned?.plan, "builder");
        assert.equal(planned?.name, "before");
        assert.equal(planned?.monthlyAllowance, 300);
        assert.deepEqual(planned?.metadata, { customer: "c1" });
        assert.equal(
          await store.updateKey(key.id, {
            name: "after",
            metadata: { customer: "c2", tier: "gold" },
            expiresAt: "2026-12-01T00:00:00.000Z",
          }),
          true,
        );
        assert.equal(await store.updateAccount(key.accountId, { monthlyAllowance: null }), true);
        const changed = await store.findKeyByHash(key.secretHash);
        assert.equal(changed?.name, "after");
        assert.equal(changed?.plan, "builder");
        assert.equal(changed?.monthlyAllowance, null);
        assert.deepEqual(changed?.metadata, { customer: "c2", tier: "gold" });
        assert.equal(changed?.expiresAt, "2026-12-01T00:00:00.000Z");
        assert.equal(await store.updateKey(key.id, { expiresAt: null }), true);
        assert.equal((await store.getKey(key.id))?.expiresAt, null);
        assert.equal(await store.updateKey("missing", { name: "x" }), false);
        assert.equal(await store.updateAccount("missing", { plan: "builder" }), false);
      });

      it("keeps a new key's expiry and metadata", async () => {
        const key = newKey({ expiresAt: "2027-01-01T00:00:00.000Z", metadata: { a: "1", "b.c": "x y" } });
        await store.createKey(key);
        const found = await store.getKey(key.id);
        assert.equal(found?.expiresAt, "2027-01-01T00:00:00.000Z");
        assert.deepEqual(found?.metadata, { a: "1", "b.c": "x y" });
      });

      it("keeps a key's tools and access, and changes each alone, back to every tool too", async () => {
        const key = newKey({ tools: ["echo", "heavy-text"], access: "read" });
        await store.createKey(key);
        const found = await store.findKeyByHash(key.secretHash);
        assert.deepEqual([found?.tools, found?.access], [["echo", "heavy-text"], "read"]);
        assert.equal(await store.updateKey(key.id, { access: "full" }), true);
        assert.deepEqual(
          [(await store.getKey(key.id))?.tools, (await store.getKey(key.id))?.access],
          [["echo", "heavy-text"], "full"],
        );
        assert.equal(await store.updateKey(key.id, { tools: null, name: "wide" }), true);
        const wide = await store.getKey(key.id);
        assert.deepEqual([wide?.tools, wide?.access, wide?.name], [null, "full", "wide"]);
        const plain = newKey();
        await store.createKey(plain);
        assert.deepEqual(
          [(await store.getKey(plain.id))?.tools, (await store.getKey(plain.id))?.access],
          [null, "full"],
        );
      });

      it("pages through keys oldest first, each key once", async () => {
        const created = [0, 1, 2, 3, 4].map((i) =>
          newKey({
            id: `key_page${i}_${randomUUID().slice(0, 4)}`,
            createdAt: `2030-01-0${1 + (i % 3)}T00:00:00.000Z`,
          }),
        );
        for (const key of created) await store.createKey(key);
        const seen: string[] = [];
        let after: { createdAt: string; id: string } | null = null;
        for (;;) {
          const page = await store.listKeys({ limit: 2, after });
          const last = page.at(-1);
          if (!last) break;
          seen.push(...page.map((k) => k.id));
          after = { createdAt: last.createdAt, id: last.id };
        }
        const ours = seen.filter((id) => created.some((k) => k.id === id));
        const expected = [...created]
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
          .map((k) => k.id);
        assert.deepEqual(ours, expected);
        assert.equal(new Set(seen).size, seen.length);
      });
    });

    describe("admin keys", () => {
      it("are found by hash apart from customer keys, listed, and revoked once", async () => {
        const id = `adm_${randomUUID().slice(0, 8)}`;
        const hash = `admin-hash-${randomUUID()}`;
        await store.createAdminKey({
          id,
          name: "ops",
          secretHash: hash,
          displayPrefix: "tr_admin_abcd",
          createdAt: "2026-11-01T00:00:00.000Z",
        });
        assert.deepEqual(await store.findAdminKeyByHash(hash), {
          id,
          name: "ops",
          displayPrefix: "tr_admin_abcd",
          createdAt: "2026-11-01T00:00:00.000Z",
          revokedAt: null,
        });
        assert.equal(await store.findKeyByHash(hash), null);
        assert.ok((await store.listAdminKeys()).some((k) => k.id === id));
        assert.equal(await store.revokeAdminKey(id, "2026-11-02T00:00:00.000Z"), true);
        assert.equal(await store.revokeAdminKey(id, "2026-11-03T00:00:00.000Z"), false);
        assert.equal((await store.findAdminKeyByHash(hash))?.revokedAt, "2026-11-02T00:00:00.000Z");
        assert.equal(await store.findAdminKeyByHash("unknown"), null);
      });
    });

    describe("audit log", () => {
      it("pages through more than a thousand entries in numeric order, each exactly once", async () => {
        const target = `tool_${randomUUID().slice(0, 8)}`;
        // Ten at a time: each is a transaction of its own, and a pool holds a few connections.
        for (let from = 0; from < 1_050; from += 10) {
          await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              store.setSwitch(
                target,
                { enabled: i % 2 === 0 },
                {
                  at: "2026-11-01T00:00:00.000Z",
                  actor: { type: "cli", id: "alice" },
                  action: "tools.set",
                  target,
                  requestId: null,
                  details: { step: from + i },
                },
              ),
            ),
          );
        }
        const seen: unknown[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: AuditPage = await store.listAudit({ limit: 100, cursor, target });
          seen.push(...page.entries.map((e) => e.details.step));
          cursor = page.nextCursor;
          pages++;
        } while (cursor !== null && pages < 100);
        assert.equal(pages, 11);
        assert.equal(seen.length, 1_050);
        assert.equal(new Set(seen).size, 1_050);
      });

      it("keeps every entry as written and pages newest first, optionally by target", async () => {
        const target = `key_${randomUUID().slice(0, 8)}`;
        const other = `key_${randomUUID().slice(0, 8)}`;
        for (const id of [target, other]) await store.createKey(newKey({ id }));
        for (let i = 0; i < 5; i++) {
          const id = i === 2 ? other : target;
          await store.updateKey(
            id,
            { name: `step ${i}` },
            {
              at: `2026-11-0${i + 1}T00:00:00.000Z`,
              actor: i % 2 === 0 ? { type: "cli", id: "alice" } : { type: "admin_key", id: "adm_1" },
              action: "keys.update",
              target: id,
              requestId: i % 2 === 0 ? null : `req_${i}`,
              details: { step: i, nested: { ok: true } },
            },
          );
        }
        const first = await store.listAudit({ limit: 2, cursor: null, target });
        assert.deepEqual(
          first.entries.map((e) => e.details.step),
          [4, 3],
        );
        assert.deepEqual(first.entries[0]?.actor, { type: "cli", id: "alice" });
        assert.equal(first.entries[0]?.requestId, null);
        assert.equal(first.entries[1]?.requestId, "req_3");
        assert.equal(first.entries[0]?.at, "2026-11-05T00:00:00.000Z");
        assert.deepEqual(first.entries[0]?.details, { step: 4, nested: { ok: true } });
        const second = await store.listAudit({ limit: 2, cursor: first.nextCursor, target });
        assert.deepEqual(
          second.entries.map((e) => e.details.step),
          [1, 0],
        );
        assert.equal(second.nextCursor, null);
        const all = await store.listAudit({ limit: 100, cursor: null });
        assert.ok(all.entries.some((e) => e.target === other));
        await assert.rejects(store.listAudit({ limit: 1, cursor: "x'; --", target }), InvalidCursorError);
      });
    });

    describe("audited changes", () => {
      const entry = (target: string, details: Record<string, unknown> = {}): NewAuditEntry => ({
        at: "2026-11-10T00:00:00.000Z",
        actor: { type: "cli", id: "alice" },
        action: "test.change",
        target,
        requestId: null,
        details,
      });
      const entriesFor = async (target: string) =>
        (await store.listAudit({ limit: 10, cursor: null, target })).entries.map((e) => e.details);
      // JSON cannot hold a BigInt: an entry that cannot be written.
      const unwritable = (target: string) => entry(target, { n: 1n });

      it("writes a change's entry with it, and none for a change that is not made", async () => {
        const key = newKey();
        await store.createKey(key, entry(key.id, { step: "create" }));
        assert.equal(
          await store.revokeKey(key.id, "2026-11-10T00:00:00.000Z", entry(key.id, { step: "revoke" })),
          true,
        );
        // Revoked already, and no account to grant to: nothing changes, nothing is recorded.
        assert.equal(
          await store.revokeKey(key.id, "2026-11-11T00:00:00.000Z", entry(key.id, { step: "again" })),
          false,
        );
        assert.equal(await store.addGrant("acc_missing", newGrant(), entry(key.id, { step: "grant" })), null);
        assert.equal(
          await store.updateAccount("acc_missing", { plan: "builder" }, entry(key.id, { step: "update" })),
          false,
        );
        assert.equal(
          await store.createKey(newKey({ accountId: "acc_missing" }), entry(key.id, { step: "orphan" })),
          false,
        );
        assert.deepEqual(await entriesFor(key.id), [{ step: "revoke" }, { step: "create" }]);
        const admin = `adm_${randomUUID().slice(0, 8)}`;
        await store.createAdminKey(
          {
            id: admin,
            name: "ops",
            secretHash: `h-${admin}`,
            displayPrefix: "tr_admin_abcd",
            createdAt: "2026-11-10T00:00:00.000Z",
          },
          entry(admin, { step: "create" }),
        );
        assert.equal(
          await store.revokeAdminKey(admin, "2026-11-10T00:00:00.000Z", entry(admin, { step: "revoke" })),
          true,
        );
        assert.equal(
          await store.revokeAdminKey(admin, "2026-11-11T00:00:00.000Z", entry(admin, { step: "again" })),
          false,
        );
        assert.deepEqual(await entriesFor(admin), [{ step: "revoke" }, { step: "create" }]);
      });

      it("makes no change whose entry cannot be written", async () => {
        const key = newKey();
        await store.createKey(key);
        const attempts: [string, () => Promise<unknown>][] = [
          ["revoke", () => store.revokeKey(key.id, "2026-11-10T00:00:00.000Z", unwritable(key.id))],
          [
            "rotate",
            () =>
              store.rotateKey(
                key.id,
                rotation(`hash-${randomUUID()}`, "2026-11-12T00:00:00.000Z", "tr_live_zzzz"),
                unwritable(key.id),
              ),
          ],
          ["update", () => store.updateKey(key.id, { name: "changed" }, unwritable(key.id))],
          ["grant", () => store.addGrant(key.accountId, newGrant(), unwritable(key.id))],
        ];
        for (const [name, attempt] of attempts) await assert.rejects(attempt(), TypeError, name);
        const after = await store.findKeyByHash(key.secretHash);
        assert.deepEqual(
          [after?.matched, after?.revokedAt, after?.displayPrefix, after?.name],
          ["current", null, key.displayPrefix, key.name],
        );
        assert.deepEqual(await store.listGrants(key.accountId, "2026-11-01T00:00:00.000Z"), []);
        assert.equal(after?.previousSecretExpiresAt, null);
        const lost = newKey();
        await assert.rejects(store.createKey(lost, unwritable(lost.id)), TypeError);
        assert.equal(await store.getKey(lost.id), null);
        const slug = `tool-${randomUUID().slice(0, 6)}`;
        await assert.rejects(store.setSwitch(slug, { enabled: false }, unwritable(slug)), TypeError);
        assert.equal((await store.getSwitches()).get(slug), undefined);
        const admin = `adm_${randomUUID().slice(0, 8)}`;
        await assert.rejects(
          store.createAdminKey(
            {
              id: admin,
              name: "ops",
              secretHash: `h-${admin}`,
              displayPrefix: "tr_admin_abcd",
              createdAt: "2026-11-10T00:00:00.000Z",
            },
            unwritable(admin),
          ),
          TypeError,
        );
        assert.equal(await store.findAdminKeyByHash(`h-${admin}`), null);
        assert.deepEqual(await entriesFor(key.id), []);
      });
    });

    describe("first key", () => {
      it("is created only when the store holds no key, once among simultaneous callers", async () => {
        // A store of its own: the suite's store already holds keys.
        const fresh = await makeFixture();
        try {
          const outcomes = await Promise.all(
            Array.from({ length: 8 }, (_, i) => fresh.store.createFirstKey(newKey({ id: `key_first_${i}` }))),
          );
          assert.equal(outcomes.filter(Boolean).length, 1);
          assert.equal(await fresh.store.countKeys(), 1);
          const winner = outcomes.indexOf(true);
          assert.equal((await fresh.store.getKey(`key_first_${winner}`))?.id, `key_first_${winner}`);
          assert.equal(await fresh.store.createFirstKey(newKey()), false);
          assert.equal(await fresh.store.countKeys(), 1);
        } finally {
          await fresh.cleanup();
        }
      });
    });

    describe("ledger reads", () => {
      const charge = (r: Reservation) => store.runCall(r, () => ({ ok: true as const, value: null }));

      it("keeps each calendar month apart", async () => {
        const key = newKey();
        await store.createKey(key);
        await charge(reservation(key.id, { credits: 10, period: "2026-10" }));
        const november = await charge(reservation(key.id, { credits: 10, period: "2026-11" }));
        assert.equal(november.status, "charged");
        assert.equal(await store.creditsUsed(key.accountId, "2026-10"), 10);
        assert.equal(await store.creditsUsed(key.accountId, "2026-12"), 0);
      });

      it("reports usage by tool and pages through recent calls newest first", async () => {
        const key = newKey();
        await store.createKey(key);
        const calls: Reservation[] = [];
        for (let i = 0; i < 5; i++) {
          const r = reservation(key.id, {
            tool: i % 2 === 0 ? "calc" : "inspect",
            credits: i % 2 === 0 ? 1 : 5,
            allowance: 100,
            requestId: `req_${i}`,
            at: `2026-11-05T00:00:0${i}.000Z`,
          });
          calls.push(r);
          await charge(r);
        }
        const first = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 2,
          cursor: null,
        });
        assert.equal(first.creditsUsed, 13);
        assert.equal(first.calls, 5);
        assert.deepEqual(
          [...first.byTool].sort((x, y) => x.tool.localeCompare(y.tool)),
          [
            { tool: "calc", calls: 3, credits: 3 },
            { tool: "inspect", calls: 2, credits: 10 },
          ],
        );
        assert.deepEqual(
          first.recent.map((c) => c.requestId),
          ["req_4", "req_3"],
        );
        assert.ok(first.nextCursor);
        const second = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 2,
          cursor: first.nextCursor,
        });
        assert.deepEqual(
          second.recent.map((c) => c.requestId),
          ["req_2", "req_1"],
        );
        const third = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 2,
          cursor: second.nextCursor,
        });
        assert.deepEqual(
          third.recent.map((c) => c.requestId),
          ["req_0"],
        );
        assert.equal(third.nextCursor, null);
        const other = await store.usage({
          accountId: key.accountId,
          period: "2026-10",
          limit: 2,
          cursor: null,
        });
        assert.deepEqual(other, { creditsUsed: 0, calls: 0, byTool: [], recent: [], nextCursor: null });
      });

      it("pages through more than a thousand calls in numeric order, each call exactly once", async () => {
        const key = newKey();
        await store.createKey(key);
        const made = await Promise.all(
          Array.from({ length: 1_050 }, () => reservation(key.id, { credits: 0, allowance: null })).map(
            async (r) => {
              await charge(r);
              return r.callId;
            },
          ),
        );
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: UsageReport = await store.usage({
            accountId: key.accountId,
            period: "2026-11",
            limit: 100,
            cursor,
          });
          seen.push(...page.recent.map((c) => c.callId));
          cursor = page.nextCursor;
          pages++;
        } while (cursor !== null && pages < 100);
        assert.equal(pages, 11);
        assert.equal(seen.length, made.length);
        assert.deepEqual(new Set(seen), new Set(made));
      });

      it("rejects a cursor it did not issue, beyond its sequence numbers included, as InvalidCursorError", async () => {
        const key = newKey();
        await store.createKey(key);
        for (const cursor of ["9999999999999999999", "9223372036854775808", "-1", "1e3", "abc", ""]) {
          await assert.rejects(
            store.usage({ accountId: key.accountId, period: "2026-11", limit: 2, cursor }),
            InvalidCursorError,
            `cursor ${JSON.stringify(cursor)}`,
          );
        }
        const last = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 2,
          cursor: "9223372036854775807",
        });
        assert.deepEqual(last.recent, []);
      });
    });

    describe("metered calls (runCall)", () => {
      const ok = <T>(value: T) => ({ ok: true as const, value });

      it("charges a call whose work succeeds, and records it with its status", async () => {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, { credits: 4, at: "2020-01-01T00:00:00.000Z" });
        const outcome = await store.runCall(r, () => ok({ answer: 42 }));
        assert.deepEqual(outcome, {
          status: "charged",
          value: { answer: 42 },
          creditsUsed: 4,
          grantsLeft: 0,
        });
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual(
          report.recent.map((c) => [c.callId, c.status, c.httpStatus, c.credits]),
          [[r.callId, "charged", 200, 4]],
        );
        // Nothing is left pending for the sweeper.
        assert.equal(await store.refundAbandoned("2020-01-02T00:00:00.000Z"), 0);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4);
      });

      it("refunds a call whose work fails, recording the failure's status at no cost", async () => {
        const key = newKey();
        await store.createKey(key);
        await store.runCall(reservation(key.id, { credits: 3 }), () => ok(1));
        const failure = new Error("no result");
        const r = reservation(key.id, { credits: 5 });
        const outcome = await store.runCall(r, () => ({ ok: false, httpStatus: 422, error: failure }));
        assert.deepEqual(outcome, {
          status: "refunded",
          httpStatus: 422,
          error: failure,
          creditsUsed: 3,
          grantsLeft: 0,
        });
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 3);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        const call = report.recent.find((c) => c.callId === r.callId);
        assert.deepEqual([call?.status, call?.httpStatus, call?.credits], ["refunded", 422, 0]);
        assert.equal(report.calls, 2);
        assert.equal(report.creditsUsed, 3);
      });

      it("refuses past the allowance or the cap without running the work or recording anything", async () => {
        const key = newKey();
        await store.createKey(key);
        let runs = 0;
        const work = () => {
          runs++;
          return ok(runs);
        };
        assert.equal((await store.runCall(reservation(key.id, { credits: 6 }), work)).status, "charged");
        assert.deepEqual(await store.runCall(reservation(key.id, { credits: 5 }), work), {
          status: "refused",
          reason: "insufficient_credits",
          creditsUsed: 6,
          grantsLeft: 0,
        });
        const capped = { credits: 1, monthlyCallCap: 1, tool: "capped" };
        assert.equal((await store.runCall(reservation(key.id, capped), work)).status, "charged");
        assert.deepEqual(await store.runCall(reservation(key.id, capped), work), {
          status: "refused",
          reason: "tier_limit",
          creditsUsed: 7,
          grantsLeft: 0,
        });
        assert.equal(runs, 2);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.equal(report.calls, 2);
        assert.equal(report.creditsUsed, 7);
      });

      it("counts refunded calls out of the tool's cap", async () => {
        const key = newKey();
        await store.createKey(key);
        const capped = { credits: 1, monthlyCallCap: 1 };
        const failed = await store.runCall(reservation(key.id, capped), () => ({
          ok: false,
          httpStatus: 500,
          error: new Error("crashed"),
        }));
        assert.equal(failed.status, "refunded");
        assert.equal((await store.runCall(reservation(key.id, capped), () => ok(1))).status, "charged");
        assert.equal((await store.runCall(reservation(key.id, capped), () => ok(1))).status, "refused");
      });

      it("counts credits past 32 bits exactly: allowances, balances, usage and calls with a key", async () => {
        const key = newKey();
        await store.createKey(key);
        // An own allowance of 1e9 with 2e9 granted, and the largest cost a tool may be configured at.
        const big = { allowance: 3_000_000_000, credits: 2_147_483_647, tool: "big" };
        assert.equal(
          (await store.runCall(reservation(key.id, { ...big, credits: 2 }), () => ok(1))).status,
          "charged",
        );
        assert.equal((await store.runCall(reservation(key.id, big), () => ok(2))).status, "charged");
        assert.deepEqual(await store.runCall(reservation(key.id, big), () => ok(3)), {
          status: "refused",
          reason: "insufficient_credits",
          creditsUsed: 2_147_483_649,
          grantsLeft: 0,
        });
        const keyed = reservation(key.id, {
          ...big,
          allowance: 5_000_000_000,
          idempotency: { key: "k-64", fingerprint: "f", expiresAt: "2999-01-01T00:00:00.000Z" },
        });
        const answer = () => ({ status: 200, body: "{}" });
        assert.deepEqual(await store.runCall(keyed, () => ok(4), answer), {
          status: "charged",
          value: 4,
          creditsUsed: 4_294_967_296,
          grantsLeft: 0,
        });
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4_294_967_296);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.equal(report.creditsUsed, 4_294_967_296);
        assert.deepEqual(report.byTool, [{ tool: "big", calls: 3, credits: 4_294_967_296 }]);
        assert.deepEqual(
          report.recent.map((c) => c.credits),
          [2_147_483_647, 2_147_483_647, 2],
        );
      });

      it("never charges past the allowance under concurrency, and delivers each charged call its own run", async () => {
        const key = newKey();
        await store.createKey(key);
        const runs = new Map<number, number>();
        const outcomes = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            store.runCall(reservation(key.id, { credits: 3, allowance: 100, requestId: `req_${i}` }), () => {
              runs.set(i, (runs.get(i) ?? 0) + 1);
              return ok(i);
            }),
          ),
        );
        const charged = outcomes.flatMap((o, i) => (o.status === "charged" ? [[i, o.value]] : []));
        assert.equal(charged.length, 33);
        // The work may run before a call is refused (the tools are pure), but at most once a call,
        // and a charged call gets what its own work returned.
        for (const [i, value] of charged) assert.equal(value, i);
        assert.ok([...runs.values()].every((n) => n === 1));
        assert.deepEqual(
          outcomes.filter((o) => o.status === "refused").map((o) => o.creditsUsed),
          Array.from({ length: 27 }, () => 99),
        );
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 99);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 100,
          cursor: null,
        });
        assert.equal(report.calls, 33);
        assert.equal(report.creditsUsed, 99);
      });
    });

    describe("metered calls with an idempotency key", () => {
      const claim = (key: string) => ({
        key,
        fingerprint: "fp",
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const answer = { status: 200, body: '{"stored":true}' };

      it("holds the key while the work runs: a call with the same key meanwhile is told so, without running", async () => {
        const key = newKey();
        await store.createKey(key);
        const started = Promise.withResolvers<void>();
        const running = Promise.withResolvers<{ ok: true; value: string }>();
        const first = store.runCall(
          reservation(key.id, { idempotency: claim("running") }),
          () => {
            started.resolve();
            return running.promise;
          },
          () => answer,
        );
        await started.promise;
        let runs = 0;
        const meanwhile = await store.runCall(
          reservation(key.id, { idempotency: claim("running") }),
          () => ({ ok: true, value: String(++runs) }),
          () => answer,
        );
        assert.deepEqual(meanwhile, { status: "claimed", existing: { fingerprint: "fp", answer: null } });
        running.resolve({ ok: true, value: "first" });
        assert.deepEqual(await first, { status: "charged", value: "first", creditsUsed: 2, grantsLeft: 0 });
        const after = await store.runCall(
          reservation(key.id, { idempotency: claim("running") }),
          () => ({ ok: true, value: String(++runs) }),
          () => answer,
        );
        assert.deepEqual(after, { status: "claimed", existing: { fingerprint: "fp", answer } });
        assert.equal(runs, 0);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 2);
      });

      for (const way of ["runCall", "runReservedCall"] as const)
        it(`${way}: charges nothing and frees the key when the work could not run at all`, async () => {
          const key = newKey();
          await store.createKey(key);
          const stopped = new Error("the compute pool is closed");
          await assert.rejects(
            store[way](
              reservation(key.id, { idempotency: claim("not-run") }),
              async () => {
                throw stopped;
              },
              () => answer,
            ),
            (error) => error === stopped,
          );
          assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
          const retry = await store[way](
            reservation(key.id, { idempotency: claim("not-run") }),
            () => ({ ok: true, value: "ran" }),
            () => answer,
          );
          assert.deepEqual(retry, { status: "charged", value: "ran", creditsUsed: 2, grantsLeft: 0 });
          const report = await store.usage({
            accountId: key.accountId,
            period: "2026-11",
            limit: 10,
            cursor: null,
          });
          assert.deepEqual(
            report.recent.filter((c) => c.status !== "refunded").map((c) => c.status),
            ["charged"],
          );
        });

      it("reserves the call before its work runs: pending with its credits held while it runs, then charged", async () => {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, { credits: 4, idempotency: claim("reserved") });
        const started = Promise.withResolvers<void>();
        const running = Promise.withResolvers<{ ok: true; value: string }>();
        const call = store.runCall(
          r,
          () => {
            started.resolve();
            return running.promise;
          },
          () => answer,
        );
        await started.promise;
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4);
        const during = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual(
          during.recent.map((c) => [c.callId, c.status, c.httpStatus, c.credits]),
          [[r.callId, "pending", null, 4]],
        );
        running.resolve({ ok: true, value: "done" });
        assert.deepEqual(await call, { status: "charged", value: "done", creditsUsed: 4, grantsLeft: 0 });
        const after = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual(
          after.recent.map((c) => [c.status, c.httpStatus, c.credits]),
          [["charged", 200, 4]],
        );
      });

      it("never runs the work of a call the books refuse, under concurrency", async () => {
        const key = newKey();
        await store.createKey(key);
        let runs = 0;
        const outcomes = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            store.runCall(
              reservation(key.id, { credits: 3, allowance: 100, idempotency: claim(`many-${i}`) }),
              async () => {
                runs++;
                return { ok: true as const, value: i };
              },
              () => answer,
            ),
          ),
        );
        assert.equal(outcomes.filter((o) => o.status === "charged").length, 33);
        assert.equal(runs, 33);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 99);
      });

      it("frees the key of a call the books refuse, keeping no claim", async () => {
        const key = newKey();
        await store.createKey(key);
        const refused = await store.runCall(
          reservation(key.id, { credits: 11, idempotency: claim("too-dear") }),
          () => ({ ok: true, value: "never" }),
          () => answer,
        );
        assert.deepEqual(refused, {
          status: "refused",
          reason: "insufficient_credits",
          creditsUsed: 0,
          grantsLeft: 0,
        });
        const cheaper = await store.runCall(
          reservation(key.id, { credits: 10, idempotency: claim("too-dear") }),
          () => ({ ok: true, value: "ran" }),
          () => answer,
        );
        assert.equal(cheaper.status, "charged");
      });
    });

    describe("calls reserved before they run (runReservedCall)", () => {
      const ok = <T>(value: T) => ({ ok: true as const, value });
      const claim = (key: string) => ({
        key,
        fingerprint: "fp",
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const answer = { status: 200, body: '{"stored":true}' };
      const statusOf = async (keyId: string, callId: string) => {
        const report = await store.usage({
          accountId: accountOf(keyId),
          period: "2026-11",
          limit: 100,
          cursor: null,
        });
        const call = report.recent.find((c) => c.callId === callId);
        return [call?.status, call?.httpStatus, call?.credits];
      };
      /** Work that runs until the test finishes it: `started` resolves once it runs. */
      const heldWork = () => {
        const started = Promise.withResolvers<void>();
        const running = Promise.withResolvers<{ ok: true; value: string }>();
        return {
          started: started.promise,
          work: () => {
            started.resolve();
            return running.promise;
          },
          finish: (value: string) => running.resolve(ok(value)),
        };
      };

      it("holds the credits and the cap slot while the work runs, then captures the call", async () => {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, { credits: 4, monthlyCallCap: 1 });
        const held = heldWork();
        const call = store.runReservedCall(r, held.work);
        await held.started;
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4);
        assert.deepEqual(await statusOf(key.id, r.callId), ["pending", null, 4]);
        // The cap slot is held too: another call of the tool is refused before its work runs.
        let ran = false;
        const other = await store.runReservedCall(
          reservation(key.id, { credits: 1, monthlyCallCap: 1 }),
          () => {
            ran = true;
            return ok("never");
          },
        );
        assert.deepEqual(other, { status: "refused", reason: "tier_limit", creditsUsed: 4, grantsLeft: 0 });
        assert.equal(ran, false);
        held.finish("done");
        assert.deepEqual(await call, { status: "charged", value: "done", creditsUsed: 4, grantsLeft: 0 });
        assert.deepEqual(await statusOf(key.id, r.callId), ["charged", 200, 4]);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4);
        assert.equal(await store.refundAbandoned("2999-01-01T00:00:00.000Z"), 0, "nothing left pending");
      });

      it("refuses past the allowance before the work runs, recording nothing", async () => {
        const key = newKey();
        await store.createKey(key);
        let runs = 0;
        const work = () => {
          runs++;
          return ok(runs);
        };
        assert.equal(
          (await store.runReservedCall(reservation(key.id, { credits: 6 }), work)).status,
          "charged",
        );
        assert.deepEqual(await store.runReservedCall(reservation(key.id, { credits: 5 }), work), {
          status: "refused",
          reason: "insufficient_credits",
          creditsUsed: 6,
          grantsLeft: 0,
        });
        assert.equal(runs, 1);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.equal(report.calls, 1);
      });

      it("releases a call whose work fails: refunded with its status, its credits and cap slot given back", async () => {
        const key = newKey();
        await store.createKey(key);
        const capped = { credits: 3, monthlyCallCap: 1 };
        const failure = new Error("the upstream failed");
        const r = reservation(key.id, capped);
        assert.deepEqual(
          await store.runReservedCall(r, () => ({ ok: false, httpStatus: 500, error: failure })),
          { status: "refunded", httpStatus: 500, error: failure, creditsUsed: 0, grantsLeft: 0 },
        );
        assert.deepEqual(await statusOf(key.id, r.callId), ["refunded", 500, 0]);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
        assert.equal(
          (await store.runReservedCall(reservation(key.id, capped), () => ok(1))).status,
          "charged",
        );
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual([report.calls, report.creditsUsed], [2, 3]);
      });

      it("claims the key with the reservation: the same key meanwhile is told so, and gets the stored answer after", async () => {
        const key = newKey();
        await store.createKey(key);
        const held = heldWork();
        const first = store.runReservedCall(
          reservation(key.id, { idempotency: claim("effect") }),
          held.work,
          () => answer,
        );
        await held.started;
        let runs = 0;
        const again = () =>
          store.runReservedCall(
            reservation(key.id, { idempotency: claim("effect") }),
            () => ok(String(++runs)),
            () => answer,
          );
        assert.deepEqual(await again(), { status: "claimed", existing: { fingerprint: "fp", answer: null } });
        held.finish("first");
        assert.deepEqual(await first, { status: "charged", value: "first", creditsUsed: 2, grantsLeft: 0 });
        assert.deepEqual(await again(), { status: "claimed", existing: { fingerprint: "fp", answer } });
        assert.equal(runs, 0);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 2);
      });

      it("keeps a failed call's answer under its key, refunded", async () => {
        const key = newKey();
        await store.createKey(key);
        const refusedAnswer = { status: 422, body: '{"code":"unprocessable_input"}' };
        const failed = await store.runReservedCall(
          reservation(key.id, { idempotency: claim("failed") }),
          () => ({ ok: false, httpStatus: 422, error: new Error("no") }),
          (outcome) => (outcome.status === "refunded" ? refusedAnswer : answer),
        );
        assert.equal(failed.status, "refunded");
        const retry = await store.runReservedCall(
          reservation(key.id, { idempotency: claim("failed") }),
          () => ok("never"),
          () => answer,
        );
        assert.deepEqual(retry, {
          status: "claimed",
          existing: { fingerprint: "fp", answer: refusedAnswer },
        });
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
      });

      for (const way of ["runCall", "runReservedCall"] as const)
        it(`${way}: frees the key of a failed call whose answer is not kept, so a retry runs`, async () => {
          const key = newKey();
          await store.createKey(key);
          const failed = await store[way](
            reservation(key.id, { idempotency: claim(`not-kept-${way}`) }),
            () => ({ ok: false, httpStatus: 500, error: new Error("passing failure") }),
            () => undefined,
          );
          assert.equal(failed.status, "refunded");
          const retry = await store[way](
            reservation(key.id, { idempotency: claim(`not-kept-${way}`) }),
            () => ok("ran"),
            () => answer,
          );
          assert.deepEqual(retry, { status: "charged", value: "ran", creditsUsed: 2, grantsLeft: 0 });
        });

      it("runCall: the sweep releases a keyed reservation older than its bound; its capture then charges nothing and its key is free", async () => {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, { idempotency: claim("swept"), at: "2026-11-02T00:00:00.000Z" });
        const held = heldWork();
        const call = store.runCall(r, held.work, () => answer);
        await held.started;
        assert.equal(await store.refundAbandoned("2026-11-02T00:00:00.000Z"), 0, "not older than the bound");
        assert.equal(await store.refundAbandoned("2026-11-02T00:00:01.000Z"), 1);
        assert.equal(await store.refundAbandoned("2026-11-02T00:00:01.000Z"), 0, "released once");
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
        held.finish("too late");
        await assert.rejects(call, CallAbandonedError);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
        assert.deepEqual(await statusOf(key.id, r.callId), ["refunded", null, 0]);
        const retry = await store.runCall(
          reservation(key.id, { idempotency: claim("swept") }),
          () => ok("retried"),
          () => answer,
        );
        assert.deepEqual(retry, { status: "charged", value: "retried", creditsUsed: 2, grantsLeft: 0 });
      });

      it("the sweep releases a reservation older than its bound; its capture charges it again, once, past the allowance if need be, and keeps its answer", async () => {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, {
          idempotency: claim("swept-effect"),
          at: "2026-11-02T00:00:00.000Z",
          credits: 6,
        });
        const held = heldWork();
        const call = store.runReservedCall(r, held.work, () => answer);
        await held.started;
        assert.equal(await store.refundAbandoned("2026-11-02T00:00:01.000Z"), 1);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
        // The released credits are spent meanwhile; the effect is charged all the same.
        const other = await store.runReservedCall(reservation(key.id, { credits: 6 }), () => ok("other"));
        assert.equal(other.status, "charged");
        held.finish("acted");
        assert.deepEqual(await call, { status: "charged", value: "acted", creditsUsed: 6, grantsLeft: 0 });
        assert.deepEqual(await statusOf(key.id, r.callId), ["charged", 200, 6]);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 12);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual([report.calls, report.creditsUsed], [2, 12]);
        assert.equal(await store.refundAbandoned("2999-01-01T00:00:00.000Z"), 0, "nothing left pending");
        // Its key's retry gets its answer, and runs nothing.
        const retry = await store.runReservedCall(
          reservation(key.id, { idempotency: claim("swept-effect") }),
          () => ok("never"),
          () => answer,
        );
        assert.deepEqual(retry, { status: "claimed", existing: { fingerprint: "fp", answer } });
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 12);
      });

      it("a retry that took over the key of a released call answers for its effect: the late capture charges nothing", async () => {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, { idempotency: claim("taken-over"), at: "2026-11-02T00:00:00.000Z" });
        const held = heldWork();
        const call = store.runReservedCall(r, held.work, () => answer);
        await held.started;
        assert.equal(await store.refundAbandoned("2026-11-02T00:00:01.000Z"), 1);
        const retry = await store.runReservedCall(
          reservation(key.id, { idempotency: claim("taken-over") }),
          () => ok("retried"),
          () => answer,
        );
        assert.deepEqual(retry, { status: "charged", value: "retried", creditsUsed: 2, grantsLeft: 0 });
        held.finish("too late");
        await assert.rejects(call, CallAbandonedError);
        assert.deepEqual(await statusOf(key.id, r.callId), ["refunded", null, 0]);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 2);
      });

      it("charges a released call without an idempotency key again when its capture comes", async () => {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, { at: "2026-11-02T00:00:00.000Z", credits: 3 });
        const held = heldWork();
        const call = store.runReservedCall(r, held.work);
        await held.started;
        assert.equal(await store.refundAbandoned("2026-11-02T00:00:01.000Z"), 1);
        held.finish("acted");
        assert.deepEqual(await call, { status: "charged", value: "acted", creditsUsed: 3, grantsLeft: 0 });
        assert.deepEqual(await statusOf(key.id, r.callId), ["charged", 200, 3]);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 3);
      });

      it("never reserves past the allowance under concurrency, and runs no refused call's work", async () => {
        const key = newKey();
        await store.createKey(key);
        let runs = 0;
        const outcomes = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            store.runReservedCall(reservation(key.id, { credits: 3, allowance: 100 }), async () => {
              runs++;
              return ok(i);
            }),
          ),
        );
        const charged = outcomes.filter((o) => o.status === "charged");
        assert.equal(charged.length, 33);
        assert.equal(runs, 33);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 99);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 100,
          cursor: null,
        });
        assert.deepEqual([report.calls, report.creditsUsed], [33, 99]);
      });
    });

    describe("accounts", () => {
      /** A new account and `n` keys of it. */
      const team = async (n: number, overrides: Partial<NewAccount> = {}) => {
        const account = newAccount(overrides);
        await store.createAccount(account);
        const keys = Array.from({ length: n }, () => newKey({ accountId: account.id }));
        for (const key of keys) assert.equal(await store.createKey(key), true);
        return { account, keys };
      };
      const ok = <T>(value: T) => ({ ok: true as const, value });
      const FAILED = { ok: false as const, httpStatus: 500, error: new Error("the tool failed") };
      const claim = (key: string) => ({
        key,
        fingerprint: "fp",
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const usageOf = (accountId: string) =>
        store.usage({ accountId, period: "2026-11", limit: 100, cursor: null });

      it("creates, reads and changes an account, counting its keys; its keys carry its terms", async () => {
        const { account, keys } = await team(2, {
          plan: "builder",
          monthlyAllowance: 70,
          metadata: { crm: "c-1" },
        });
        assert.deepEqual(await store.getAccount(account.id), {
          ...account,
          keyCount: 2,
          alerts: null,
        });
        assert.equal(await store.getAccount("acc_missing"), null);
        for (const key of keys) {
          const found = await store.findKeyByHash(key.secretHash);
          assert.deepEqual(
            [found?.accountId, found?.plan, found?.monthlyAllowance],
            [account.id, "builder", 70],
          );
        }
        assert.equal(
          await store.updateAccount(account.id, { name: "renamed", plan: "free", metadata: {} }),
          true,
        );
        const changed = await store.getAccount(account.id);
        assert.deepEqual(
          [changed?.name, changed?.plan, changed?.monthlyAllowance, changed?.metadata],
          ["renamed", "free", 70, {}],
        );
        for (const key of keys) assert.equal((await store.getKey(key.id))?.plan, "free");
      });

      it("makes a key's one-key account with it, and refuses a key for an account that does not exist", async () => {
        const key = newKey({ plan: "builder", monthlyAllowance: 12 });
        assert.equal(await store.createKey(key), true);
        const account = await store.getAccount(key.accountId);
        assert.deepEqual(
          [account?.name, account?.plan, account?.monthlyAllowance, account?.keyCount],
          [key.name, "builder", 12, 1],
        );
        const orphan = newKey({ accountId: "acc_missing" });
        assert.equal(await store.createKey(orphan), false);
        assert.equal(await store.getKey(orphan.id), null);
      });

      it("pages through accounts, and through an account's keys, oldest first, each once", async () => {
        const made = [0, 1, 2, 3, 4].map((i) =>
          newAccount({
            id: `acc_page${i}_${randomUUID().slice(0, 4)}`,
            createdAt: `2031-01-0${1 + (i % 3)}T00:00:00.000Z`,
          }),
        );
        for (const account of made) await store.createAccount(account);
        const seen: string[] = [];
        let after: { createdAt: string; id: string } | null = null;
        for (;;) {
          const page = await store.listAccounts({ limit: 2, after });
          const last = page.at(-1);
          if (!last) break;
          seen.push(...page.map((a) => a.id));
          after = { createdAt: last.createdAt, id: last.id };
        }
        const ours = seen.filter((id) => made.some((a) => a.id === id));
        const expected = [...made]
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
          .map((a) => a.id);
        assert.deepEqual(ours, expected);
        assert.equal(new Set(seen).size, seen.length);

        const { account, keys } = await team(3);
        const first = await store.listAccountKeys(account.id, { limit: 2, after: null });
        const last = first.at(-1);
        assert.ok(last);
        const rest = await store.listAccountKeys(account.id, {
          limit: 2,
          after: { createdAt: last.createdAt, id: last.id },
        });
        assert.deepEqual(
          [...first, ...rest].map((k) => k.id),
          keys.map((k) => k.id).sort(),
        );
        assert.deepEqual(
          (await store.listAccountKeys(account.id)).map((k) => k.id),
          keys.map((k) => k.id).sort(),
        );
        assert.deepEqual(await store.listAccountKeys("acc_missing"), []);
      });

      it("charges the account and records the key: its keys share one balance, each call naming its key", async () => {
        const { account, keys } = await team(2);
        const [a, b] = keys as [NewApiKey, NewApiKey];
        const on = (key: NewApiKey, overrides: Partial<Reservation> = {}) =>
          reservation(key.id, { accountId: account.id, credits: 3, ...overrides });
        assert.equal((await store.runCall(on(a), () => ok(1))).status, "charged");
        assert.deepEqual(await store.runCall(on(b), () => ok(2)), {
          status: "charged",
          value: 2,
          creditsUsed: 6,
          grantsLeft: 0,
        });
        assert.equal((await store.runReservedCall(on(b), async () => FAILED)).status, "refunded");
        assert.equal(await store.creditsUsed(account.id, "2026-11"), 6);
        const report = await usageOf(account.id);
        assert.deepEqual(
          report.recent.map((c) => [c.keyId, c.status, c.credits]),
          [
            [b.id, "refunded", 0],
            [b.id, "charged", 3],
            [a.id, "charged", 3],
          ],
        );
        assert.deepEqual([report.calls, report.creditsUsed], [3, 6]);
        // The tool's monthly cap is the account's too.
        const capped = await store.runCall(on(a, { monthlyCallCap: 2 }), () => ok(3));
        assert.deepEqual(capped, { status: "refused", reason: "tier_limit", creditsUsed: 6, grantsLeft: 0 });
      });

      for (const way of ["runCall", "runReservedCall", "keyed runCall"] as const)
        it(`${way}: several keys of one account calling at once drain its balance exactly, refunds included`, async () => {
          const { account, keys } = await team(3);
          let runs = 0;
          const outcomes = await Promise.all(
            Array.from({ length: 60 }, (_, i) => {
              const key = keys[i % keys.length] as NewApiKey;
              // Every fifth call's tool fails: refunded, its credits free for the others.
              const work = () => {
                runs++;
                return i % 5 === 4 ? FAILED : ok(i);
              };
              const r = reservation(key.id, {
                accountId: account.id,
                credits: 3,
                allowance: 100,
                requestId: `req_${i}`,
                ...(way === "keyed runCall" ? { idempotency: claim(`call-${i}`) } : {}),
              });
              return way === "runReservedCall"
                ? store.runReservedCall(r, async () => work())
                : store.runCall(r, work, () => ({ status: 200, body: "{}" }));
            }),
          );
          const charged = outcomes.filter((o) => o.status === "charged").length;
          const refunded = outcomes.filter((o) => o.status === "refunded").length;
          // No overspend and no lost refund: the balance holds exactly the charged calls.
          assert.equal(await store.creditsUsed(account.id, "2026-11"), 3 * charged);
          if (way === "runCall")
            assert.equal(charged, 33, "pure calls run first: every refund is free at once");
          // A reservation holds its credits until it settles, so some refused while others ran.
          else assert.ok(charged + refunded >= 33, `${charged} charged, ${refunded} refunded`);
          assert.equal(outcomes.filter((o) => o.status === "refused").length, 60 - charged - refunded);
          if (way !== "runCall") assert.equal(runs, charged + refunded, "no refused call's work ran");
          // What is left is spent to the last credit, by whichever key.
          for (let i = 0; ; i++) {
            const key = keys[i % keys.length] as NewApiKey;
            const more = await store.runCall(
              reservation(key.id, { accountId: account.id, credits: 3, allowance: 100 }),
              () => ok(i),
            );
            if (more.status === "refused") break;
          }
          assert.equal(await store.creditsUsed(account.id, "2026-11"), 99);
          const report = await usageOf(account.id);
          assert.equal(report.creditsUsed, 99);
          assert.deepEqual(new Set(report.recent.map((c) => c.keyId)), new Set(keys.map((k) => k.id)));
          for (const key of keys) assert.equal(await store.creditsUsed(key.id, "2026-11"), 0);
        });

      it("scopes idempotency keys to the account: a key of it sending another key's claim gets that call", async () => {
        const { account, keys } = await team(2);
        const [a, b] = keys as [NewApiKey, NewApiKey];
        const answer = { status: 200, body: '{"stored":true}' };
        const first = await store.runCall(
          reservation(a.id, { accountId: account.id, idempotency: claim("order-1") }),
          () => ok("first"),
          () => answer,
        );
        assert.equal(first.status, "charged");
        let runs = 0;
        const again = await store.runCall(
          reservation(b.id, { accountId: account.id, idempotency: claim("order-1") }),
          () => ok(String(++runs)),
          () => answer,
        );
        assert.deepEqual(again, { status: "claimed", existing: { fingerprint: "fp", answer } });
        const other = newKey();
        await store.createKey(other);
        const elsewhere = await store.runCall(
          reservation(other.id, { idempotency: claim("order-1") }),
          () => ok(String(++runs)),
          () => answer,
        );
        assert.equal(elsewhere.status, "charged");
        assert.equal(runs, 1);
        assert.equal(await store.creditsUsed(account.id, "2026-11"), 2);
      });
    });

    describe("switches", () => {
      it("merges switch changes per tool", async () => {
        const slug = `tool-${randomUUID().slice(0, 6)}`;
        await store.setSwitch(slug, { enabled: false });
        await store.setSwitch(slug, { api: false });
        assert.deepEqual((await store.getSwitches()).get(slug), { enabled: false, api: false });
        await store.setSwitch(slug, { enabled: true });
        assert.deepEqual((await store.getSwitches()).get(slug), { enabled: true, api: false });
      });
    });
  });
}
