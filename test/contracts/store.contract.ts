/**
 * The one contract every Store adapter passes. Each adapter's test file calls `describeStoreContract`
 * with a factory that gives a fresh, migrated store and a cleanup.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { InvalidCursorError } from "../../src/ports/errors.ts";
import type { NewApiKey, Reservation, Store } from "../../src/ports/store.ts";

export interface StoreFixture {
  readonly store: Store;
  cleanup(): Promise<void>;
}

export function newKey(overrides: Partial<NewApiKey> = {}): NewApiKey {
  const id = overrides.id ?? `key_${randomUUID().slice(0, 8)}`;
  return {
    id,
    name: "test",
    plan: "free",
    secretHash: `hash-${randomUUID()}`,
    displayPrefix: "tr_live_abcd",
    monthlyAllowance: null,
    createdAt: "2026-11-01T00:00:00.000Z",
    ...overrides,
  };
}

export function reservation(keyId: string, overrides: Partial<Reservation> = {}): Reservation {
  return {
    callId: randomUUID(),
    requestId: "req_test",
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
        assert.deepEqual(found, {
          id: key.id,
          name: "alice",
          plan: "builder",
          displayPrefix: key.displayPrefix,
          monthlyAllowance: 500,
          createdAt: key.createdAt,
          revokedAt: null,
        });
        assert.deepEqual(await store.getKey(key.id), found);
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
        assert.equal(await store.rotateKey(key.id, "new-hash", "tr_live_new1"), true);
        assert.equal(await store.findKeyByHash(key.secretHash), null);
        const rotated = await store.findKeyByHash("new-hash");
        assert.equal(rotated?.id, key.id);
        assert.equal(rotated?.displayPrefix, "tr_live_new1");
        await store.revokeKey(key.id, "2026-11-02T00:00:00.000Z");
        assert.equal(await store.rotateKey(key.id, "newer-hash", "tr_live_new2"), false);
        assert.equal(await store.rotateKey("missing", "x", "y"), false);
      });

      it("changes the plan", async () => {
        const key = newKey();
        await store.createKey(key);
        assert.equal(await store.setPlan(key.id, "builder"), true);
        assert.equal((await store.getKey(key.id))?.plan, "builder");
        assert.equal(await store.setPlan("missing", "builder"), false);
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
        assert.equal(await store.creditsUsed(key.id, "2026-10"), 10);
        assert.equal(await store.creditsUsed(key.id, "2026-12"), 0);
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
        const first = await store.usage({ keyId: key.id, period: "2026-11", limit: 2, cursor: null });
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
          keyId: key.id,
          period: "2026-11",
          limit: 2,
          cursor: first.nextCursor,
        });
        assert.deepEqual(
          second.recent.map((c) => c.requestId),
          ["req_2", "req_1"],
        );
        const third = await store.usage({
          keyId: key.id,
          period: "2026-11",
          limit: 2,
          cursor: second.nextCursor,
        });
        assert.deepEqual(
          third.recent.map((c) => c.requestId),
          ["req_0"],
        );
        assert.equal(third.nextCursor, null);
        const other = await store.usage({ keyId: key.id, period: "2026-10", limit: 2, cursor: null });
        assert.deepEqual(other, { creditsUsed: 0, calls: 0, byTool: [], recent: [], nextCursor: null });
      });

      it("rejects a cursor it did not issue, beyond its sequence numbers included, as InvalidCursorError", async () => {
        const key = newKey();
        await store.createKey(key);
        for (const cursor of ["9999999999999999999", "9223372036854775808", "-1", "1e3", "abc", ""]) {
          await assert.rejects(
            store.usage({ keyId: key.id, period: "2026-11", limit: 2, cursor }),
            InvalidCursorError,
            `cursor ${JSON.stringify(cursor)}`,
          );
        }
        const last = await store.usage({
          keyId: key.id,
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
        assert.deepEqual(outcome, { status: "charged", value: { answer: 42 }, creditsUsed: 4 });
        assert.equal(await store.creditsUsed(key.id, "2026-11"), 4);
        const report = await store.usage({ keyId: key.id, period: "2026-11", limit: 10, cursor: null });
        assert.deepEqual(
          report.recent.map((c) => [c.callId, c.status, c.httpStatus, c.credits]),
          [[r.callId, "charged", 200, 4]],
        );
        // Nothing is left pending for the sweeper (a store without one never leaves a call pending).
        if (store.refundAbandoned) assert.equal(await store.refundAbandoned("2020-01-02T00:00:00.000Z"), 0);
        assert.equal(await store.creditsUsed(key.id, "2026-11"), 4);
      });

      it("refunds a call whose work fails, recording the failure's status at no cost", async () => {
        const key = newKey();
        await store.createKey(key);
        await store.runCall(reservation(key.id, { credits: 3 }), () => ok(1));
        const failure = new Error("no result");
        const r = reservation(key.id, { credits: 5 });
        const outcome = await store.runCall(r, () => ({ ok: false, httpStatus: 422, error: failure }));
        assert.deepEqual(outcome, { status: "refunded", httpStatus: 422, error: failure, creditsUsed: 3 });
        assert.equal(await store.creditsUsed(key.id, "2026-11"), 3);
        const report = await store.usage({ keyId: key.id, period: "2026-11", limit: 10, cursor: null });
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
        });
        const capped = { credits: 1, monthlyCallCap: 1, tool: "capped" };
        assert.equal((await store.runCall(reservation(key.id, capped), work)).status, "charged");
        assert.deepEqual(await store.runCall(reservation(key.id, capped), work), {
          status: "refused",
          reason: "tier_limit",
          creditsUsed: 7,
        });
        assert.equal(runs, 2);
        const report = await store.usage({ keyId: key.id, period: "2026-11", limit: 10, cursor: null });
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

      it("never charges past the allowance under concurrency, and runs the work once per charged call", async () => {
        const key = newKey();
        await store.createKey(key);
        const ran = new Set<string>();
        const outcomes = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            store.runCall(reservation(key.id, { credits: 3, allowance: 100, requestId: `req_${i}` }), () => {
              ran.add(`req_${i}`);
              return ok(i);
            }),
          ),
        );
        const charged = outcomes.filter((o) => o.status === "charged");
        assert.equal(charged.length, 33);
        assert.equal(ran.size, 33);
        assert.deepEqual(
          outcomes.filter((o) => o.status === "refused").map((o) => o.creditsUsed),
          Array.from({ length: 27 }, () => 99),
        );
        assert.equal(await store.creditsUsed(key.id, "2026-11"), 99);
        const report = await store.usage({ keyId: key.id, period: "2026-11", limit: 100, cursor: null });
        assert.equal(report.calls, 33);
        assert.equal(report.creditsUsed, 99);
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
