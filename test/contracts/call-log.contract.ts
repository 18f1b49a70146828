/**
 * Who called, and the usage export, the same for every adapter: each adapter's test file calls
 * `describeCallLogContract` with a factory giving a fresh, migrated store.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import type { CallOrigin, CallRecord, UsageEventsQuery } from "../../src/ports/call-log.ts";
import { InvalidCursorError } from "../../src/ports/errors.ts";
import type { Reservation, Store, WorkResult } from "../../src/ports/store.ts";
import { newKey, reservation } from "./store.contract.ts";

export interface CallLogFixture {
  readonly store: Store;
  cleanup(): Promise<void>;
}

const HTTP: CallOrigin = {
  credential: "key",
  oauthClientId: null,
  transport: "http",
  clientName: null,
  clientVersion: null,
};
const MCP: CallOrigin = { ...HTTP, transport: "mcp", clientName: "claude-code", clientVersion: "2.1.0" };
const OAUTH: CallOrigin = {
  credential: "authz_AbC123",
  oauthClientId: "client-xyz",
  transport: "mcp",
  clientName: "Claude",
  clientVersion: "1.0",
};

const ok = (): WorkResult<null> => ({ ok: true, value: null });
const failed = (): WorkResult<null> => ({
  ok: false,
  httpStatus: 422,
  error: { code: "unprocessable_input", message: "no" },
});

export function describeCallLogContract(name: string, makeFixture: () => Promise<CallLogFixture>): void {
  describe(`Call log contract: ${name}`, () => {
    async function opened(t: TestContext): Promise<Store> {
      const fixture = await makeFixture();
      t.after(() => fixture.cleanup());
      return fixture.store;
    }

    async function keyed(store: Store) {
      const key = newKey({ monthlyAllowance: 1000 });
      await store.createKey(key);
      return key;
    }

    /** Every settled call the export gives, read in pages of `size`. */
    /**
     * Reads the export page by page to its end, as a consumer does; with `atLeast`, one that
     * expects that many calls comes back from its cursor until it has them, since PostgreSQL's
     * horizon may stand lower for a moment than at an earlier read (another transaction open).
     */
    async function exportAll(store: Store, size: number, query: Partial<UsageEventsQuery> = {}, atLeast = 0) {
      const ids: string[] = [];
      let cursor: string | null = query.cursor ?? null;
      for (let tries = 0; ; ) {
        const page = await store.usageEvents({ ...query, limit: size, cursor });
        ids.push(...page.calls.map((c) => c.callId));
        cursor = page.nextCursor;
        if (page.more) continue;
        if (ids.length >= atLeast || ++tries === 200) return { ids, cursor };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    /**
     * Waits until the export gives `count` calls of the account: PostgreSQL holds back what was
     * settled after any transaction still open in the database (other tests' too), for a moment.
     */
    async function caughtUp(store: Store, accountId: string, count: number): Promise<void> {
      for (let tries = 0; ; tries++) {
        const { calls } = await store.usageEvents({ limit: 1000, cursor: null, accountId });
        if (calls.length >= count || tries === 200) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    /** A reservation made and left pending until `settle` is called. */
    async function pending(store: Store, r: Reservation) {
      let started!: () => void;
      let finish!: () => void;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const gate = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const outcome = store.runReservedCall(r, async () => {
        started();
        await gate;
        return ok();
      });
      await running;
      return async () => {
        finish();
        return outcome;
      };
    }

    it("records who called on each row: the credential, its OAuth client, the transport, MCP's client", async (t) => {
      const store = await opened(t);
      const key = await keyed(store);
      const http = reservation(key.id, { origin: HTTP });
      const mcp = reservation(key.id, { origin: MCP });
      const oauth = reservation(key.id, { origin: OAUTH, idempotency: undefined });
      const unknown = reservation(key.id);
      for (const r of [http, mcp]) await store.runCall(r, ok);
      await store.runReservedCall(oauth, ok);
      await store.runCall(unknown, ok);
      const { calls } = await store.listCalls({ limit: 10, cursor: null, keyId: key.id });
      const byId = new Map(calls.map((c) => [c.callId, c.origin]));
      assert.deepEqual(byId.get(http.callId), HTTP);
      assert.deepEqual(byId.get(mcp.callId), MCP);
      assert.deepEqual(byId.get(oauth.callId), OAUTH);
      assert.equal(byId.get(unknown.callId), null);
    });

    it("an idempotent call records its origin too", async (t) => {
      const store = await opened(t);
      const key = await keyed(store);
      const r = reservation(key.id, {
        origin: MCP,
        idempotency: { key: "k-1", fingerprint: "f", expiresAt: "2099-01-01T00:00:00.000Z" },
      });
      await store.runCall(r, ok, () => ({ status: 200, body: "{}" }));
      const { calls } = await store.listCalls({ limit: 10, cursor: null, keyId: key.id });
      assert.deepEqual(
        calls.map((c) => [c.callId, c.origin]),
        [[r.callId, MCP]],
      );
    });

    it("lists calls newest first, filtered, in pages that join up", async (t) => {
      const store = await opened(t);
      const a = await keyed(store);
      const b = await keyed(store);
      const made: Reservation[] = [];
      for (let i = 0; i < 5; i++) {
        const r = reservation(i % 2 === 0 ? a.id : b.id, {
          tool: i < 3 ? "calc" : "echo",
          origin: HTTP,
          at: `2026-11-0${i + 1}T00:00:00.000Z`,
        });
        made.push(r);
        await store.runCall(r, i === 4 ? failed : ok);
      }
      const ids = (calls: readonly CallRecord[]) => calls.map((c) => c.callId);
      const newestFirst = made.map((r) => r.callId).reverse();
      const accounts = [a.accountId, b.accountId];
      const all = async (query: Record<string, string>) => {
        const found: CallRecord[] = [];
        for (const accountId of accounts)
          found.push(...(await store.listCalls({ limit: 50, cursor: null, accountId, ...query })).calls);
        return ids(found).sort();
      };
      assert.deepEqual(
        ids((await store.listCalls({ limit: 10, cursor: null, accountId: a.accountId })).calls),
        [made[4]?.callId, made[2]?.callId, made[0]?.callId],
      );
      assert.deepEqual(ids((await store.listCalls({ limit: 10, cursor: null, keyId: b.id })).calls), [
        made[3]?.callId,
        made[1]?.callId,
      ]);
      assert.deepEqual(await all({ tool: "echo" }), [made[3]?.callId, made[4]?.callId].sort());
      assert.deepEqual(await all({ outcome: "refunded" }), [made[4]?.callId]);
      assert.deepEqual(
        await all({ since: "2026-11-02T00:00:00.000Z", until: "2026-11-04T00:00:00.000Z" }),
        [made[1]?.callId, made[2]?.callId].sort(),
      );
      const refunded = (await store.listCalls({ limit: 1, cursor: null, outcome: "refunded", keyId: a.id }))
        .calls[0];
      assert.equal(refunded?.credits, 0);
      assert.equal(refunded?.httpStatus, 422);

      // Pages of two over both keys' calls give them all, in order, once.
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await store.listCalls({ limit: 2, cursor, tool: "calc" });
        paged.push(...ids(page.calls));
        cursor = page.nextCursor;
      } while (cursor !== null);
      const calcs = newestFirst.filter((id) => made.find((r) => r.callId === id)?.tool === "calc");
      assert.deepEqual(
        paged.filter((id) => calcs.includes(id)),
        calcs,
      );
      await assert.rejects(store.listCalls({ limit: 2, cursor: "nope" }), InvalidCursorError);
    });

    it("exports settled calls only, refunded ones at 0 credits, with who called", async (t) => {
      const store = await opened(t);
      const key = await keyed(store);
      const charged = reservation(key.id, { origin: OAUTH, credits: 3 });
      const refunded = reservation(key.id, { origin: HTTP, credits: 3 });
      await store.runCall(charged, ok);
      await store.runCall(refunded, failed);
      const settle = await pending(store, reservation(key.id, { origin: MCP }));
      await caughtUp(store, key.accountId, 2);
      const { calls } = await store.usageEvents({ limit: 10, cursor: null, accountId: key.accountId });
      assert.deepEqual(
        calls.map((c) => [c.callId, c.outcome, c.credits, c.origin]),
        [
          [charged.callId, "charged", 3, OAUTH],
          [refunded.callId, "refunded", 0, HTTP],
        ],
      );
      assert.ok(calls.every((c) => c.settledAt !== null));
      await settle();
    });

    it("gives the same ids in the same order read whole and in pages, twice", async (t) => {
      const store = await opened(t);
      const keys = [await keyed(store), await keyed(store)];
      for (let i = 0; i < 7; i++)
        await store.runCall(reservation(keys[i % 2]?.id ?? "", { origin: HTTP }), i === 3 ? failed : ok);
      await caughtUp(store, keys[0]?.accountId ?? "", 4);
      await caughtUp(store, keys[1]?.accountId ?? "", 3);
      const whole = await exportAll(store, 100);
      assert.equal(whole.ids.length >= 7, true);
      const count = whole.ids.length;
      assert.deepEqual((await exportAll(store, 3, {}, count)).ids, whole.ids);
      assert.deepEqual((await exportAll(store, 1, {}, count)).ids, whole.ids);
      assert.deepEqual((await exportAll(store, 100, {}, count)).ids, whole.ids);
      const one = keys[0]?.accountId ?? "";
      const ofOne = (await exportAll(store, 2, { accountId: one }, 4)).ids;
      assert.equal(ofOne.length, 4);
      assert.deepEqual(
        ofOne,
        whole.ids.filter((id) => ofOne.includes(id)),
      );
      await assert.rejects(store.usageEvents({ limit: 2, cursor: "x" }), InvalidCursorError);
    });

    it("a reservation settling after a page was read comes after that page, never before", async (t) => {
      const store = await opened(t);
      const key = await keyed(store);
      const early = reservation(key.id, { origin: HTTP });
      const settle = await pending(store, early);
      const later = reservation(key.id, { origin: HTTP });
      await store.runCall(later, ok);
      await caughtUp(store, key.accountId, 1);
      const first = await exportAll(store, 10, { accountId: key.accountId }, 1);
      assert.deepEqual(first.ids, [later.callId]);
      assert.equal((await settle()).status, "charged");
      await caughtUp(store, key.accountId, 2);
      const next = await exportAll(store, 10, { cursor: first.cursor, accountId: key.accountId }, 1);
      assert.deepEqual(next.ids, [early.callId]);
      // Read again from the start: the order it was first given in, the late one after.
      assert.deepEqual((await exportAll(store, 1, { accountId: key.accountId }, 2)).ids, [
        later.callId,
        early.callId,
      ]);
      // An empty read keeps its place.
      const empty = await store.usageEvents({ limit: 10, cursor: next.cursor, accountId: key.accountId });
      assert.deepEqual(empty.calls, []);
      assert.equal(empty.nextCursor, next.cursor);
    });

    it("filters the export by settlement time", async (t) => {
      const store = await opened(t);
      const key = await keyed(store);
      const days = ["2026-10-01", "2026-10-02", "2026-10-03"].map((day) =>
        reservation(key.id, { origin: HTTP, at: `${day}T12:00:00.000Z`, period: "2026-10" }),
      );
      for (const r of days) await store.runCall(r, ok);
      await caughtUp(store, key.accountId, 3);
      const { calls } = await store.usageEvents({
        limit: 10,
        cursor: null,
        accountId: key.accountId,
        since: "2026-10-02T00:00:00.000Z",
        until: "2026-10-03T00:00:00.000Z",
      });
      assert.deepEqual(
        calls.map((c) => [c.callId, c.settledAt]),
        [[days[1]?.callId, "2026-10-02T12:00:00.000Z"]],
      );
    });
  });
}
