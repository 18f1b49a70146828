/**
 * The captures part of the Store, the same for every adapter: each adapter's test file calls
 * `describeCaptureStoreContract` with a database that two instances (two stores) can open, so the
 * limits it pins (live captures per account, requests kept per capture) are checked across
 * instances at once, not only within one.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it, type TestContext } from "node:test";
import type { NewCapture, NewCapturedRequest } from "../../src/ports/capture-store.ts";
import type { Store } from "../../src/ports/store.ts";

export interface CaptureDatabase {
  /** A migrated store on the database, as one more instance would open it. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const NOW = "2026-11-15T12:00:00.000Z";
const TOMORROW = "2026-11-16T12:00:00.000Z";
const LATER_TOMORROW = "2026-11-16T12:00:01.000Z";

function capture(accountId: string, overrides: Partial<NewCapture> = {}): NewCapture {
  return {
    id: `cap_${randomUUID().slice(0, 12)}`,
    accountId,
    tokenHash: `hash-${randomUUID()}`,
    createdAt: NOW,
    expiresAt: TOMORROW,
    ...overrides,
  };
}

function request(n: number, body: Uint8Array = Buffer.from(`{"n":${n}}`)): NewCapturedRequest {
  return {
    id: `creq_${n}_${randomUUID().slice(0, 8)}`,
    receivedAt: NOW,
    method: "POST",
    head: `POST /hooks/t HTTP/1.1\r\nContent-Type: application/json\r\nX-N: ${n}`,
    body,
  };
}

export function describeCaptureStoreContract(
  name: string,
  makeDatabase: () => Promise<CaptureDatabase>,
): void {
  describe(`capture store contract: ${name}`, () => {
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

    it("creates a capture its account finds by id and by token hash, and no other account finds", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = capture("acct_a");
      assert.equal(await store.createCapture(made, 5, NOW), true);
      const expected = {
        id: made.id,
        accountId: "acct_a",
        createdAt: NOW,
        expiresAt: TOMORROW,
        requestCount: 0,
      };
      assert.deepEqual(await store.findCapture("acct_a", made.id, NOW), expected);
      assert.deepEqual(await store.findCaptureByToken(made.tokenHash, NOW), expected);
      assert.deepEqual(await store.listCaptures("acct_a", NOW), [expected]);
      assert.equal(await store.findCapture("acct_b", made.id, NOW), null);
      assert.deepEqual(await store.listCaptures("acct_b", NOW), []);
      assert.equal(await store.findCaptureByToken("hash-unknown", NOW), null);
    });

    it("lists an account's captures newest first", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const first = capture("acct_a");
      const second = capture("acct_a", { createdAt: "2026-11-15T12:00:01.000Z" });
      await store.createCapture(first, 5, NOW);
      await store.createCapture(second, 5, NOW);
      assert.deepEqual(
        (await store.listCaptures("acct_a", NOW)).map((c) => c.id),
        [second.id, first.id],
      );
    });

    it("refuses a capture past the live limit of its account, counting only unexpired ones", async (t) => {
      const [store] = (await stores(t)) as [Store];
      await store.createCapture(capture("acct_a", { expiresAt: "2026-11-15T11:00:00.000Z" }), 2, NOW);
      assert.equal(await store.createCapture(capture("acct_a"), 2, NOW), true);
      assert.equal(await store.createCapture(capture("acct_a"), 2, NOW), true);
      assert.equal(await store.createCapture(capture("acct_a"), 2, NOW), false);
      assert.equal(await store.createCapture(capture("acct_b"), 2, NOW), true);
      assert.equal((await store.listCaptures("acct_a", NOW)).length, 2);
    });

    it("never lets concurrent creations on two instances pass the live limit", async (t) => {
      const [one, two] = (await stores(t, 2)) as [Store, Store];
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 ? one : two).createCapture(capture("acct_a"), 5, NOW),
        ),
      );
      assert.equal(results.filter(Boolean).length, 5);
      assert.equal((await one.listCaptures("acct_a", NOW)).length, 5);
    });

    it("hides an expired capture from every read, whatever its requests", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = capture("acct_a");
      await store.createCapture(made, 5, NOW);
      assert.equal(await store.addCapturedRequest(made.id, request(1), 100), true);
      assert.equal(await store.findCapture("acct_a", made.id, TOMORROW), null);
      assert.equal(await store.findCaptureByToken(made.tokenHash, TOMORROW), null);
      assert.deepEqual(await store.listCaptures("acct_a", TOMORROW), []);
    });

    it("keeps a caught request's head and body bytes exactly, and lists them newest first by cursor", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = capture("acct_a");
      await store.createCapture(made, 5, NOW);
      const binary = Uint8Array.from([0, 255, 13, 10, 128, 0x7b]);
      const requests = [request(1, binary), request(2), request(3, new Uint8Array(0))];
      for (const r of requests) assert.equal(await store.addCapturedRequest(made.id, r, 100), true);
      assert.equal((await store.findCapture("acct_a", made.id, NOW))?.requestCount, 3);

      const all = await store.listCapturedRequests(made.id, 10, null);
      assert.deepEqual(
        all.map((r) => r.id),
        [requests[2]?.id, requests[1]?.id, requests[0]?.id],
      );
      const oldest = all[2];
      assert.ok(oldest);
      assert.deepEqual([...oldest.body], [...binary]);
      assert.equal(oldest.head, requests[0]?.head);
      assert.equal(oldest.method, "POST");
      assert.equal(oldest.receivedAt, NOW);
      assert.equal(all[0]?.body.length, 0);
      assert.ok((all[0]?.sequence ?? 0) > (all[1]?.sequence ?? 0));

      const first = await store.listCapturedRequests(made.id, 2, null);
      assert.equal(first.length, 2);
      const rest = await store.listCapturedRequests(made.id, 2, first[1]?.sequence ?? null);
      assert.deepEqual(
        rest.map((r) => r.id),
        [requests[0]?.id],
      );
    });

    it("drops the oldest requests past the limit, even when they arrive at once on two instances", async (t) => {
      const [one, two] = (await stores(t, 2)) as [Store, Store];
      const made = capture("acct_a");
      await one.createCapture(made, 5, NOW);
      for (let n = 1; n <= 3; n++) await one.addCapturedRequest(made.id, request(n), 3);
      await one.addCapturedRequest(made.id, request(4), 3);
      assert.deepEqual(
        (await one.listCapturedRequests(made.id, 10, null)).map((r) => r.head.endsWith("X-N: 1")),
        [false, false, false],
      );
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? one : two).addCapturedRequest(made.id, request(10 + i), 3),
        ),
      );
      assert.equal((await two.listCapturedRequests(made.id, 10, null)).length, 3);
      assert.equal((await two.findCapture("acct_a", made.id, NOW))?.requestCount, 3);
    });

    it("stores nothing for a capture that is gone", async (t) => {
      const [store] = (await stores(t)) as [Store];
      assert.equal(await store.addCapturedRequest("cap_gone", request(1), 100), false);
    });

    it("deletes only the account's own capture, with its requests", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = capture("acct_a");
      await store.createCapture(made, 5, NOW);
      await store.addCapturedRequest(made.id, request(1), 100);
      assert.equal(await store.deleteCapture("acct_b", made.id), false);
      assert.equal(await store.deleteCapture("acct_a", made.id), true);
      assert.equal(await store.deleteCapture("acct_a", made.id), false);
      assert.equal(await store.findCaptureByToken(made.tokenHash, NOW), null);
      assert.deepEqual(await store.listCapturedRequests(made.id, 10, null), []);
      // The freed place counts again.
      for (let i = 0; i < 5; i++) assert.equal(await store.createCapture(capture("acct_a"), 5, NOW), true);
    });

    it("purges expired captures with their requests, and only those", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const old = capture("acct_a");
      const fresh = capture("acct_a", { expiresAt: "2026-11-17T12:00:00.000Z" });
      await store.createCapture(old, 5, NOW);
      await store.createCapture(fresh, 5, NOW);
      await store.addCapturedRequest(old.id, request(1), 100);
      await store.addCapturedRequest(fresh.id, request(2), 100);
      assert.equal(await store.purgeCaptures(LATER_TOMORROW), 1);
      assert.deepEqual(await store.listCapturedRequests(old.id, 10, null), []);
      assert.equal((await store.listCapturedRequests(fresh.id, 10, null)).length, 1);
      assert.equal(await store.purgeCaptures(LATER_TOMORROW), 0);
    });
  });
}
