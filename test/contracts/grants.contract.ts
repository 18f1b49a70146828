/**
 * Grants on both stores: what calls spend of them (the month's allowance first, then grants by
 * earliest expiry, never-expiring last, then oldest), expiry passing mid-month, refunds given back
 * to the pool each credit came from, a grant landing while many calls race, and a reference that
 * never grants twice, even from two instances at once. Each adapter's test file calls
 * `describeGrantsContract` with a database that several store instances can open.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { CallOutcome, Reservation, Store } from "../../src/ports/store.ts";
import { newGrant, newKey, reservation } from "./store.contract.ts";

export interface GrantsDatabase {
  /** A migrated store on the database, as one more instance would open it. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const ok = <T>(value: T) => ({ ok: true as const, value });
const failure = () => ({ ok: false as const, httpStatus: 502, error: new Error("upstream failed") });

/** The figures of an outcome, without its value. */
function figures(outcome: CallOutcome<unknown>) {
  if (outcome.status === "claimed") return { status: outcome.status };
  return { status: outcome.status, creditsUsed: outcome.creditsUsed, grantsLeft: outcome.grantsLeft };
}

export function describeGrantsContract(name: string, makeDatabase: () => Promise<GrantsDatabase>): void {
  describe(`Grants contract: ${name}`, () => {
    let database: GrantsDatabase;
    let store: Store;
    let other: Store;
    before(async () => {
      database = await makeDatabase();
      store = await database.open();
      other = await database.open();
    });
    after(async () => {
      await store.close();
      await other.close();
      await database.cleanup();
    });

    /** A fresh account (through its one key), with the grants given (created in that order). */
    async function account(...grants: Parameters<typeof newGrant>[0][]) {
      const key = newKey();
      await store.createKey(key);
      const ids: string[] = [];
      for (const grant of grants) {
        const made = await store.addGrant(key.accountId, newGrant(grant));
        assert.ok(made?.created);
        ids.push(made.grant.id);
      }
      const call = (overrides: Partial<Reservation>) =>
        reservation(key.id, { at: "2026-11-10T00:00:00.000Z", ...overrides });
      const left = async (at = "2026-11-10T00:00:00.000Z") =>
        (await store.listGrants(key.accountId, at)).map((g) => [g.id, g.remaining]);
      return { key, ids, call, left };
    }

    it("makes a grant, lists the live ones in spend order, and answers null for an unknown account", async () => {
      const { key, ids, left } = await account(
        { credits: 10, createdAt: "2026-10-01T00:00:00.000Z" },
        { credits: 3, expiresAt: "2026-12-20T00:00:00.000Z", createdAt: "2026-11-02T00:00:00.000Z" },
        { credits: 4, expiresAt: "2026-12-10T00:00:00.000Z", createdAt: "2026-11-03T00:00:00.000Z" },
        { credits: 5, expiresAt: "2026-12-10T00:00:00.000Z", createdAt: "2026-11-01T00:00:00.000Z" },
        { credits: 6, expiresAt: "2026-11-05T00:00:00.000Z", createdAt: "2026-11-01T00:00:00.000Z" },
      );
      const [never, late, soonNewer, soonOlder] = ids;
      assert.deepEqual(await left(), [
        [soonOlder, 5],
        [soonNewer, 4],
        [late, 3],
        [never, 10],
      ]);
      const [first] = await store.listGrants(key.accountId, "2026-11-01T00:00:00.000Z");
      assert.deepEqual(first && { ...first }, {
        id: ids[4],
        accountId: key.accountId,
        credits: 6,
        remaining: 6,
        expiresAt: "2026-11-05T00:00:00.000Z",
        category: "promotional",
        reference: null,
        createdAt: "2026-11-01T00:00:00.000Z",
      });
      assert.equal(await store.addGrant("acc_missing", newGrant()), null);
    });

    it("spends the allowance first, then grants by earliest expiry, never-expiring last, then oldest", async () => {
      const { ids, call, left } = await account(
        { credits: 10, createdAt: "2026-10-01T00:00:00.000Z" },
        { credits: 3, expiresAt: "2026-12-20T00:00:00.000Z", createdAt: "2026-11-02T00:00:00.000Z" },
        { credits: 3, expiresAt: "2026-12-10T00:00:00.000Z", createdAt: "2026-11-03T00:00:00.000Z" },
        { credits: 3, expiresAt: "2026-12-10T00:00:00.000Z", createdAt: "2026-11-01T00:00:00.000Z" },
      );
      const [never, late, soonNewer, soonOlder] = ids;
      const allowance = 4;
      // 4 from the allowance, 2 from the oldest of the earliest to expire.
      let outcome = await store.runCall(call({ credits: 6, allowance }), () => ok(1));
      assert.deepEqual(figures(outcome), { status: "charged", creditsUsed: 4, grantsLeft: 17 });
      assert.deepEqual(await left(), [
        [soonOlder, 1],
        [soonNewer, 3],
        [late, 3],
        [never, 10],
      ]);
      // Reserved calls spend the same way.
      outcome = await store.runReservedCall(call({ credits: 5, allowance }), () => ok(2));
      assert.deepEqual(figures(outcome), { status: "charged", creditsUsed: 4, grantsLeft: 12 });
      assert.deepEqual(await left(), [
        [late, 2],
        [never, 10],
      ]);
      outcome = await store.runCall(call({ credits: 4, allowance }), () => ok(3));
      assert.deepEqual(figures(outcome), { status: "charged", creditsUsed: 4, grantsLeft: 8 });
      assert.deepEqual(await left(), [[never, 8]]);
      // More than the allowance and the grants hold together: refused, nothing spent.
      for (const way of ["runCall", "runReservedCall"] as const) {
        outcome = await store[way](call({ credits: 9, allowance }), () => ok(4));
        assert.deepEqual(figures(outcome), { status: "refused", creditsUsed: 4, grantsLeft: 8 });
      }
      assert.deepEqual(await left(), [[never, 8]]);
      // Exactly what is left passes.
      outcome = await store.runCall(call({ credits: 8, allowance }), () => ok(5));
      assert.deepEqual(figures(outcome), { status: "charged", creditsUsed: 4, grantsLeft: 0 });
      assert.deepEqual(await left(), []);
    });

    it("leaves grants alone while the allowance pays, and when metering is off", async () => {
      const { key, ids, call, left } = await account({ credits: 5 });
      const outcome = await store.runCall(call({ credits: 3, allowance: 10 }), () => ok(1));
      assert.deepEqual(figures(outcome), { status: "charged", creditsUsed: 3, grantsLeft: 5 });
      await store.runCall(call({ credits: 30, allowance: null }), () => ok(2));
      assert.deepEqual(await left(), [[ids[0], 5]]);
      assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 33);
    });

    it("stops spending a grant the moment it expires, mid-month", async () => {
      const { ids, call, left } = await account({ credits: 10, expiresAt: "2026-11-15T00:00:00.000Z" });
      const before = "2026-11-14T23:59:59.999Z";
      const at = "2026-11-15T00:00:00.000Z";
      let outcome = await store.runCall(call({ credits: 3, allowance: 0, at: before }), () => ok(1));
      assert.deepEqual(figures(outcome), { status: "charged", creditsUsed: 0, grantsLeft: 7 });
      assert.deepEqual(await left(before), [[ids[0], 7]]);
      assert.deepEqual(await left(at), []);
      for (const way of ["runCall", "runReservedCall"] as const) {
        outcome = await store[way](call({ credits: 1, allowance: 0, at }), () => ok(2));
        assert.deepEqual(figures(outcome), { status: "refused", creditsUsed: 0, grantsLeft: 0 });
      }
    });

    it("gives a released reservation's credits back to the pools they came from", async () => {
      const { key, ids, call, left } = await account(
        { credits: 10 },
        { credits: 2, expiresAt: "2026-12-01T00:00:00.000Z" },
      );
      const [never, soon] = ids;
      await store.runCall(call({ credits: 3, allowance: 5 }), () => ok(1));
      // 2 from the allowance, 2 from the grant expiring first, 2 from the one that never does.
      const outcome = await store.runReservedCall(call({ credits: 6, allowance: 5 }), failure);
      assert.deepEqual(figures(outcome), { status: "refunded", creditsUsed: 3, grantsLeft: 12 });
      assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 3);
      assert.deepEqual(await left(), [
        [soon, 2],
        [never, 10],
      ]);
      // A plain call that fails holds nothing.
      const failed = await store.runCall(call({ credits: 6, allowance: 5 }), failure);
      assert.deepEqual(figures(failed), { status: "refunded", creditsUsed: 3, grantsLeft: 12 });
      assert.deepEqual(await left(), [
        [soon, 2],
        [never, 10],
      ]);
    });

    it("gives an abandoned reservation's grant credits back when the sweep releases it", async () => {
      const { key, ids, call, left } = await account({ credits: 10 });
      const started = Promise.withResolvers<void>();
      const running = Promise.withResolvers<{ ok: true; value: string }>();
      const r = call({ credits: 4, allowance: 1, at: "2026-11-02T00:00:00.000Z" });
      const pending = store.runReservedCall(r, () => {
        started.resolve();
        return running.promise;
      });
      await started.promise;
      assert.deepEqual(await left(), [[ids[0], 7]]);
      assert.equal(await store.refundAbandoned("2026-11-02T00:00:01.000Z"), 1);
      assert.deepEqual(await left(), [[ids[0], 10]]);
      assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
      // Its effect happened after all: charged again, on the allowance.
      running.resolve(ok("late"));
      const outcome = await pending;
      assert.equal(outcome.status, "charged");
      assert.deepEqual(await left(), [[ids[0], 10]]);
      assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 4);
    });

    it("spends exactly what a grant landing amid many concurrent calls holds, on two instances", async () => {
      const { key, call } = await account({ credits: 10 });
      const allowance = 5;
      const calls = Array.from({ length: 60 }, (_, i) => {
        const instance = i % 2 === 0 ? store : other;
        const way = i % 3 === 0 ? "runReservedCall" : "runCall";
        return instance[way](call({ credits: 1, allowance }), () => ok(i));
      });
      const grant = other.addGrant(key.accountId, newGrant({ credits: 20 }));
      const outcomes = await Promise.all(calls);
      assert.ok((await grant)?.created);
      const charged = outcomes.filter((o) => o.status === "charged").length;
      const refused = outcomes.filter((o) => o.status === "refused").length;
      assert.equal(charged + refused, 60);
      const grantsLeft = (await store.listGrants(key.accountId, "2026-11-10T00:00:00.000Z")).reduce(
        (sum, g) => sum + g.remaining,
        0,
      );
      const used = await store.creditsUsed(key.accountId, "2026-11");
      assert.equal(used, allowance);
      assert.equal(charged, used + (30 - grantsLeft), "every charged credit came from one pool");
      assert.ok(charged >= 15 && charged <= 35);
      // Whatever raced, once the grant has landed every credit left is spendable, and no more.
      const rest = Array.from({ length: grantsLeft + 3 }, (_, i) =>
        (i % 2 ? store : other).runCall(call({ credits: 1, allowance }), () => ok(i)),
      );
      const late = await Promise.all(rest);
      assert.equal(late.filter((o) => o.status === "charged").length, grantsLeft);
      assert.deepEqual(await store.listGrants(key.accountId, "2026-11-10T00:00:00.000Z"), []);
    });

    it("grants a reference once: asked again it answers that grant, writing nothing", async () => {
      const { key } = await account();
      const first = await store.addGrant(
        key.accountId,
        newGrant({ credits: 7, reference: "cs_1", category: "paid" }),
      );
      assert.equal(first?.created, true);
      const again = await store.addGrant(key.accountId, newGrant({ credits: 9, reference: "cs_1" }));
      assert.deepEqual(again, { grant: first?.grant, created: false });
      // Another reference, and the same one on another account, are grants of their own.
      assert.equal((await store.addGrant(key.accountId, newGrant({ reference: "cs_2" })))?.created, true);
      const { key: stranger } = await account();
      assert.equal(
        (await store.addGrant(stranger.accountId, newGrant({ reference: "cs_1" })))?.created,
        true,
      );
      const grants = await store.listGrants(key.accountId, "2026-11-10T00:00:00.000Z");
      assert.deepEqual(grants.map((g) => [g.reference, g.credits, g.category]).sort(), [
        ["cs_1", 7, "paid"],
        ["cs_2", 100, "promotional"],
      ]);
    });

    it("grants a reference once when two instances are asked for it at once, auditing it once", async () => {
      const { key } = await account();
      const reference = `cs_${randomUUID()}`;
      const audit = (step: string) => ({
        at: "2026-11-10T00:00:00.000Z",
        actor: { type: "cli" as const, id: "ops" },
        action: "credits.grant",
        target: key.accountId,
        requestId: null,
        details: { step },
      });
      for (let round = 0; round < 5; round++) {
        const ref = `${reference}-${round}`;
        const made = await Promise.all([
          store.addGrant(key.accountId, newGrant({ reference: ref }), audit(`a${round}`)),
          other.addGrant(key.accountId, newGrant({ reference: ref }), audit(`b${round}`)),
          other.addGrant(key.accountId, newGrant({ reference: ref }), audit(`c${round}`)),
        ]);
        assert.equal(made.filter((m) => m?.created).length, 1);
        assert.equal(new Set(made.map((m) => m?.grant.id)).size, 1);
      }
      const grants = await store.listGrants(key.accountId, "2026-11-10T00:00:00.000Z");
      assert.equal(grants.length, 5);
      const { entries } = await store.listAudit({ limit: 100, cursor: null, target: key.accountId });
      assert.equal(entries.length, 5);
    });
  });
}
