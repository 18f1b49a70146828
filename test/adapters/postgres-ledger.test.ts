/**
 * The PostgreSQL ledger's own steps (reserve, then settle or refund, and the sweep of calls left
 * pending), which the port hides behind runCall: the checks the store contract makes of whole
 * calls, made of each step and of the steps interleaved.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { BackendUnavailableError } from "../../src/ports/errors.ts";
import { newKey, reservation } from "../contracts/store.contract.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { dropSchema, uniqueSchema, withLedgerSteps } from "./postgres-fixture.ts";

const db = testDatabaseUrl();
if (db.url === undefined) {
  it("PostgreSQL ledger steps", { skip: db.skip }, () => {});
} else {
  const url = db.url;
  const schema = uniqueSchema();
  let store: ReturnType<typeof withLedgerSteps>;
  describe("PostgreSQL ledger", () => {
    before(async () => {
      store = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 10 }));
      await store.migrate();
    });
    after(async () => {
      await store.close();
      await dropSchema(url, schema);
    });

    describe("PostgreSQL ledger steps: reserve, settle, refund", () => {
      it("holds credits up to the allowance and refuses the call that would pass it", async () => {
        const key = newKey();
        await store.createKey(key);
        const first = await store.reserve(reservation(key.id, { credits: 6 }));
        assert.deepEqual(first, { ok: true, creditsUsed: 6, grantsLeft: 0, grantsSpent: 0 });
        const second = await store.reserve(reservation(key.id, { credits: 5 }));
        assert.deepEqual(second, {
          ok: false,
          reason: "insufficient_credits",
          creditsUsed: 6,
          grantsLeft: 0,
        });
        const third = await store.reserve(reservation(key.id, { credits: 4 }));
        assert.deepEqual(third, { ok: true, creditsUsed: 10, grantsLeft: 0, grantsSpent: 0 });
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 10);
      });

      it("never admits more than the allowance under concurrency", async () => {
        const key = newKey();
        await store.createKey(key);
        const attempts = Array.from({ length: 60 }, () =>
          store.reserve(reservation(key.id, { credits: 3, allowance: 100 })),
        );
        const outcomes = await Promise.all(attempts);
        assert.equal(outcomes.filter((o) => o.ok).length, 33);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 99);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 100,
          cursor: null,
        });
        assert.equal(report.creditsUsed, 99);
        assert.equal(report.calls, 33);
      });

      it("never refuses when there is no allowance (metering off)", async () => {
        const key = newKey();
        await store.createKey(key);
        for (let i = 0; i < 3; i++) {
          const outcome = await store.reserve(reservation(key.id, { credits: 0, allowance: null }));
          assert.equal(outcome.ok, true);
        }
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
      });

      it("keeps each calendar month apart", async () => {
        const key = newKey();
        await store.createKey(key);
        await store.reserve(reservation(key.id, { credits: 10, period: "2026-10" }));
        const november = await store.reserve(reservation(key.id, { credits: 10, period: "2026-11" }));
        assert.equal(november.ok, true);
        assert.equal(await store.creditsUsed(key.accountId, "2026-10"), 10);
        assert.equal(await store.creditsUsed(key.accountId, "2026-12"), 0);
      });

      it("refunds a pending call once, and never a charged one", async () => {
        const key = newKey();
        await store.createKey(key);
        const refunded = reservation(key.id, { credits: 4 });
        const charged = reservation(key.id, { credits: 3 });
        await store.reserve(refunded);
        await store.reserve(charged);
        await store.refund(refunded.callId, 422);
        await store.refund(refunded.callId, 422);
        await store.settle(charged.callId, 200);
        await store.refund(charged.callId, 500);
        await store.settle(charged.callId, 200);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 3);
        const report = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        const byId = new Map(report.recent.map((c) => [c.callId, c]));
        assert.equal(byId.get(refunded.callId)?.status, "refunded");
        assert.equal(byId.get(refunded.callId)?.credits, 0);
        assert.equal(byId.get(refunded.callId)?.httpStatus, 422);
        assert.equal(byId.get(charged.callId)?.status, "charged");
        assert.equal(byId.get(charged.callId)?.credits, 3);
        assert.equal(byId.get(charged.callId)?.httpStatus, 200);
        // Refunded calls are listed and counted, but cost nothing.
        assert.equal(report.calls, 2);
        assert.equal(report.creditsUsed, 3);
        assert.deepEqual(report.byTool, [{ tool: "calc", calls: 2, credits: 3 }]);
      });

      it("caps the monthly calls of a tool, counting refunded calls out", async () => {
        const key = newKey();
        await store.createKey(key);
        const cap = { credits: 1, allowance: 100, monthlyCallCap: 2 };
        const a = reservation(key.id, cap);
        assert.equal((await store.reserve(a)).ok, true);
        assert.equal((await store.reserve(reservation(key.id, cap))).ok, true);
        assert.deepEqual(await store.reserve(reservation(key.id, cap)), {
          ok: false,
          reason: "tier_limit",
          creditsUsed: 2,
          grantsLeft: 0,
        });
        assert.equal((await store.reserve(reservation(key.id, { ...cap, tool: "other" }))).ok, true);
        await store.refund(a.callId, 422);
        assert.equal((await store.reserve(reservation(key.id, cap))).ok, true);
      });

      it("names the tool's cap when both the cap and the allowance refuse a call", async () => {
        const key = newKey();
        await store.createKey(key);
        const limits = { credits: 5, allowance: 5, monthlyCallCap: 1 };
        assert.equal((await store.reserve(reservation(key.id, limits))).ok, true);
        assert.deepEqual(await store.reserve(reservation(key.id, limits)), {
          ok: false,
          reason: "tier_limit",
          creditsUsed: 5,
          grantsLeft: 0,
        });
      });

      it("refunds calls abandoned by a dead process, and only those", async () => {
        const key = newKey();
        await store.createKey(key);
        const old = reservation(key.id, { credits: 2, at: "2026-11-01T00:00:00.000Z" });
        const fresh = reservation(key.id, { credits: 3, at: "2026-11-01T00:10:00.000Z" });
        const settled = reservation(key.id, { credits: 4, at: "2026-11-01T00:00:00.000Z" });
        await store.reserve(old);
        await store.reserve(fresh);
        await store.reserve(settled);
        await store.settle(settled.callId, 200);
        assert.equal(await store.refundAbandoned("2026-11-01T00:05:00.000Z"), 1);
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 7);
        assert.equal(await store.refundAbandoned("2026-11-01T00:05:00.000Z"), 0);
      });

      it("compensates a call answered 503 that nothing recorded, so that its late recording records nothing", async () => {
        const key = newKey();
        await store.createKey(key);
        const late = reservation(key.id, { credits: 3 });
        assert.equal(await store.refundUnconfirmed(late.callId), false);
        await assert.rejects(store.reserve(late), BackendUnavailableError);
        await assert.rejects(
          store.runCall(late, () => ({ ok: true, value: 1 })),
          BackendUnavailableError,
        );
        assert.equal(await store.creditsUsed(key.accountId, "2026-11"), 0);
        const usage = await store.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual([usage.calls, usage.recent, usage.byTool], [0, [], []]);
        // Another call of the key is recorded as ever.
        assert.equal(
          (await store.runCall(reservation(key.id, { credits: 2 }), () => ({ ok: true, value: 2 }))).status,
          "charged",
        );
      });

      it("forgets the tombstones of compensated calls after a day, in the sweep", async () => {
        await store.pool.query("DELETE FROM voided_calls");
        await store.refundUnconfirmed("call-old");
        await store.refundUnconfirmed("call-new");
        await store.pool.query(
          "UPDATE voided_calls SET at = now() - interval '25 hours' WHERE call_id = 'call-old'",
        );
        await store.refundAbandoned("2026-11-01T00:00:00.000Z");
        const { rows } = await store.pool.query<{ call_id: string }>("SELECT call_id FROM voided_calls");
        assert.deepEqual(
          rows.map((r) => r.call_id),
          ["call-new"],
        );
      });
    });
  });
}
