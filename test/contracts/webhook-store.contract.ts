/**
 * The webhooks part of the Store, the same for every adapter: each adapter's test file calls
 * `describeWebhookStoreContract` with a database that two instances (two stores, each with its own
 * connections) can open, so the claims it pins (two deliverers never hold one delivery) are
 * checked across instances, not only within one.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it, type TestContext } from "node:test";
import type { NewAuditEntry, Store } from "../../src/ports/store.ts";
import type { NewWebhookEndpoint, NewWebhookEvent } from "../../src/ports/webhook-store.ts";
import { newKey } from "./store.contract.ts";

export interface WebhookDatabase {
  /** A migrated store on the database, as one more instance would open it. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const NOW = "2026-11-15T12:00:00.000Z";
const LATER = "2026-11-15T12:05:00.000Z";
const LEASE = "2026-11-15T12:01:00.000Z";

export function newEndpoint(overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint {
  return {
    id: `whe_${randomUUID().slice(0, 12)}`,
    url: "https://hooks.example.com/toolrun",
    events: ["key.revoked"],
    description: "",
    secret: `whsec_${Buffer.from(randomUUID()).toString("base64")}`,
    createdAt: "2026-11-01T00:00:00.000Z",
    ...overrides,
  };
}

export function newEvent(overrides: Partial<NewWebhookEvent> = {}): NewWebhookEvent {
  return {
    id: `evt_${randomUUID().replaceAll("-", "")}`,
    type: "key.revoked",
    createdAt: NOW,
    data: JSON.stringify({ key_id: "key_1" }),
    ...overrides,
  };
}

const entry = (target: string, details: Record<string, unknown> = {}): NewAuditEntry => ({
  at: NOW,
  actor: { type: "cli", id: "tester" },
  action: "webhooks.test",
  target,
  requestId: null,
  details,
});

export function describeWebhookStoreContract(
  name: string,
  makeDatabase: () => Promise<WebhookDatabase>,
): void {
  describe(`Webhook store contract: ${name}`, () => {
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

    const claim = (store: Store, limit = 10, now = NOW) =>
      store.claimWebhookDeliveries({ now, leaseUntil: LEASE, claim: randomUUID(), limit });

    it("keeps endpoints, changes them and deletes them", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const endpoint = newEndpoint({ events: ["key.revoked", "webhook.test"], description: "ops" });
      await store.createWebhookEndpoint(endpoint, entry(endpoint.id, { step: "create" }));
      const found = await store.getWebhookEndpoint(endpoint.id);
      assert.deepEqual(found, {
        ...endpoint,
        enabled: true,
        disabledReason: null,
        updatedAt: endpoint.createdAt,
      });
      assert.equal(
        await store.updateWebhookEndpoint(endpoint.id, { enabled: false, events: ["webhook.test"] }, LATER),
        true,
      );
      const changed = await store.getWebhookEndpoint(endpoint.id);
      assert.equal(changed?.enabled, false);
      assert.deepEqual(changed?.events, ["webhook.test"]);
      assert.equal(changed?.url, endpoint.url);
      assert.equal(changed?.updatedAt, LATER);
      assert.equal(await store.updateWebhookEndpoint("whe_missing", { enabled: true }, LATER), false);
      assert.deepEqual(
        (await store.listWebhookEndpoints()).map((e) => e.id),
        [endpoint.id],
      );
      assert.equal(await store.deleteWebhookEndpoint(endpoint.id, entry(endpoint.id)), true);
      assert.equal(await store.deleteWebhookEndpoint(endpoint.id), false);
      assert.equal(await store.getWebhookEndpoint(endpoint.id), null);
      const audit = await store.listAudit({ limit: 10, cursor: null, target: endpoint.id });
      assert.equal(audit.entries.length, 2);
    });

    it("fans an event out to the enabled endpoints subscribed to it, and writes none without one", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const subscribed = newEndpoint();
      const other = newEndpoint({ events: ["webhook.test"] });
      const off = newEndpoint();
      for (const e of [subscribed, other, off]) await store.createWebhookEndpoint(e);
      await store.updateWebhookEndpoint(off.id, { enabled: false }, NOW);
      const event = newEvent();
      assert.equal(await store.appendWebhookEvents([event]), 1);
      assert.equal(await store.appendWebhookEvents([newEvent({ type: "credits.granted" })]), 0);
      const page = await store.listWebhookDeliveries({ endpointId: subscribed.id, limit: 10, cursor: null });
      assert.equal(page.deliveries.length, 1);
      const [delivery] = page.deliveries;
      assert.equal(delivery?.eventId, event.id);
      assert.equal(delivery?.eventType, "key.revoked");
      assert.equal(delivery?.state, "pending");
      assert.equal(delivery?.attempts, 0);
      assert.equal(delivery?.nextAttemptAt, NOW);
      assert.deepEqual(delivery?.attemptLog, []);
      for (const e of [other, off])
        assert.equal(
          (await store.listWebhookDeliveries({ endpointId: e.id, limit: 10, cursor: null })).deliveries
            .length,
          0,
        );
      // One endpoint only, whatever it subscribed to (the test event).
      assert.equal(
        await store.appendWebhookEvents([newEvent({ type: "webhook.test", endpointId: subscribed.id })]),
        1,
      );
      assert.equal(
        (await store.listWebhookDeliveries({ endpointId: other.id, limit: 10, cursor: null })).deliveries
          .length,
        0,
      );
    });

    it("writes key.revoked with the revocation, and nothing when the revocation is not made", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const endpoint = newEndpoint();
      await store.createWebhookEndpoint(endpoint);
      const key = newKey();
      await store.createKey(key);
      const list = async () =>
        (await store.listWebhookDeliveries({ endpointId: endpoint.id, limit: 10, cursor: null })).deliveries;

      // The audit entry cannot be written (a BigInt): the revocation and its event roll back together.
      const failing = newEvent();
      await assert.rejects(store.revokeKey(key.id, NOW, entry(key.id, { n: 1n }), [failing]), TypeError);
      assert.equal((await store.getKey(key.id))?.revokedAt, null);
      assert.deepEqual(await list(), []);

      // The event cannot be written (its id is taken): the key is not revoked either.
      const taken = newEvent();
      await store.appendWebhookEvents([taken]);
      const before = (await list()).length;
      await assert.rejects(store.revokeKey(key.id, NOW, entry(key.id), [newEvent({ id: taken.id })]));
      assert.equal((await store.getKey(key.id))?.revokedAt, null);
      assert.equal((await list()).length, before);

      const revoked = newEvent();
      assert.equal(await store.revokeKey(key.id, NOW, entry(key.id), [revoked]), true);
      assert.equal((await list())[0]?.eventId, revoked.id);
      // Already revoked: no change, no event.
      assert.equal(await store.revokeKey(key.id, LATER, undefined, [newEvent()]), false);
      assert.equal((await list()).length, before + 1);
      // Without an audit entry the event still goes with the change.
      const other = newKey();
      await store.createKey(other);
      const plain = newEvent();
      assert.equal(await store.revokeKey(other.id, NOW, undefined, [plain]), true);
      assert.equal((await list())[0]?.eventId, plain.id);
    });

    it("claims due deliveries of enabled endpoints once, until their lease runs out", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const endpoint = newEndpoint();
      await store.createWebhookEndpoint(endpoint);
      const event = newEvent();
      await store.appendWebhookEvents([event, newEvent({ createdAt: LATER })]);
      const claimed = await claim(store);
      assert.equal(claimed.length, 1, "the second is not due yet");
      const [first] = claimed;
      assert.equal(first?.event.id, event.id);
      assert.equal(first?.event.data, event.data);
      assert.equal(first?.event.createdAt, NOW);
      assert.deepEqual(first?.endpoint, { id: endpoint.id, url: endpoint.url, secret: endpoint.secret });
      assert.equal(first?.attempts, 0);
      assert.deepEqual(await claim(store), [], "held by the first claim");
      // The lease ran out (its deliverer died): due again.
      const again = await claim(store, 10, LEASE);
      assert.equal(again.length, 1);
      // The first claim no longer holds it: its result is not recorded.
      assert.equal(
        await store.recordWebhookAttempt({
          deliveryId: first?.deliveryId ?? "",
          claim: first?.claim ?? "",
          attempt: { at: LEASE, statusCode: 200, error: null, durationMs: 5 },
          state: "delivered",
          nextAttemptAt: null,
          disableEndpoint: false,
        }),
        false,
      );
      await store.releaseWebhookClaim(again[0]?.deliveryId ?? "", again[0]?.claim ?? "");
      // A disabled endpoint's deliveries wait.
      await store.updateWebhookEndpoint(endpoint.id, { enabled: false }, NOW);
      assert.deepEqual(await claim(store, 10, LEASE), []);
      await store.updateWebhookEndpoint(endpoint.id, { enabled: true }, NOW);
      assert.equal((await claim(store, 10, LEASE)).length, 1);
      assert.equal((await claim(store, 10, LATER)).length, 2, "the lease ran out, and the second is due");
    });

    it("records attempts: retried, delivered, given up, and a 410 turning the endpoint off", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const endpoint = newEndpoint();
      await store.createWebhookEndpoint(endpoint);
      await store.appendWebhookEvents([newEvent()]);
      const [held] = await claim(store);
      assert.ok(held);
      const recorded = await store.recordWebhookAttempt({
        deliveryId: held.deliveryId,
        claim: held.claim,
        attempt: { at: NOW, statusCode: 503, error: "HTTP 503", durationMs: 12 },
        state: "pending",
        nextAttemptAt: LATER,
        disableEndpoint: false,
      });
      assert.equal(recorded, true);
      let delivery = await store.getWebhookDelivery(endpoint.id, held.deliveryId);
      assert.equal(delivery?.state, "pending");
      assert.equal(delivery?.attempts, 1);
      assert.equal(delivery?.nextAttemptAt, LATER);
      assert.deepEqual(delivery?.attemptLog, [
        { attempt: 1, at: NOW, statusCode: 503, error: "HTTP 503", durationMs: 12 },
      ]);
      assert.deepEqual(await claim(store), [], "not due before its next attempt");
      const [second] = await claim(store, 10, LATER);
      assert.equal(second?.attempts, 1);
      await store.recordWebhookAttempt({
        deliveryId: held.deliveryId,
        claim: second?.claim ?? "",
        attempt: { at: LATER, statusCode: 410, error: "HTTP 410", durationMs: 3 },
        state: "failed",
        nextAttemptAt: null,
        disableEndpoint: true,
      });
      delivery = await store.getWebhookDelivery(endpoint.id, held.deliveryId);
      assert.equal(delivery?.state, "failed");
      assert.equal(delivery?.nextAttemptAt, null);
      assert.equal(delivery?.attemptLog.length, 2);
      const gone = await store.getWebhookEndpoint(endpoint.id);
      assert.equal(gone?.enabled, false);
      assert.equal(gone?.disabledReason, "gone");
      await store.updateWebhookEndpoint(endpoint.id, { enabled: true }, LATER);
      assert.equal((await store.getWebhookEndpoint(endpoint.id))?.disabledReason, null);

      // A retry makes it due again; delivered then.
      assert.equal(
        await store.retryWebhookDelivery(endpoint.id, held.deliveryId, LATER, entry(endpoint.id)),
        true,
      );
      assert.equal(await store.retryWebhookDelivery(endpoint.id, "dlv_missing", LATER), false);
      const [third] = await claim(store, 10, LATER);
      assert.equal(third?.attempts, 2);
      await store.recordWebhookAttempt({
        deliveryId: held.deliveryId,
        claim: third?.claim ?? "",
        attempt: { at: LATER, statusCode: 204, error: null, durationMs: 1 },
        state: "delivered",
        nextAttemptAt: null,
        disableEndpoint: false,
      });
      delivery = await store.getWebhookDelivery(endpoint.id, held.deliveryId);
      assert.equal(delivery?.state, "delivered");
      assert.equal(delivery?.deliveredAt, LATER);
      assert.deepEqual(
        delivery?.attemptLog.map((a) => a.attempt),
        [1, 2, 3],
      );
    });

    it("pages deliveries newest first", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const endpoint = newEndpoint();
      await store.createWebhookEndpoint(endpoint);
      const events = Array.from({ length: 5 }, () => newEvent());
      for (const event of events) await store.appendWebhookEvents([event]);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await store.listWebhookDeliveries({ endpointId: endpoint.id, limit: 2, cursor });
        seen.push(...page.deliveries.map((d) => d.eventId));
        cursor = page.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(seen, events.map((e) => e.id).reverse());
      const other = newEndpoint();
      await store.createWebhookEndpoint(other);
      assert.equal(await store.getWebhookDelivery(other.id, "dlv_x"), null);
      assert.equal(await store.deleteWebhookEndpoint(endpoint.id), true);
      assert.deepEqual(
        (await store.listWebhookDeliveries({ endpointId: endpoint.id, limit: 10, cursor: null })).deliveries,
        [],
      );
    });

    it("purges finished deliveries created before the cutoff and the events left without one, never a pending one", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const OLD = "2026-09-01T00:00:00.000Z";
      const CUTOFF = "2026-10-16T12:00:00.000Z";
      const one = newEndpoint();
      const two = newEndpoint();
      await store.createWebhookEndpoint(one);
      await store.createWebhookEndpoint(two);
      const oldDelivered = newEvent({ createdAt: OLD, endpointId: one.id });
      const oldFailed = newEvent({ createdAt: OLD, endpointId: one.id });
      const oldPending = newEvent({ createdAt: OLD, endpointId: one.id });
      // To both endpoints: delivered to one, still retried for two.
      const oldShared = newEvent({ createdAt: OLD });
      const recentDelivered = newEvent({ createdAt: NOW, endpointId: one.id });
      await store.appendWebhookEvents([oldDelivered, oldFailed, oldPending, oldShared, recentDelivered]);
      const outcome = (event: string, endpoint: string) => {
        if (event === oldFailed.id) return "failed";
        if (event === oldPending.id || (event === oldShared.id && endpoint === two.id)) return "pending";
        return "delivered";
      };
      const held = await claim(store, 10, NOW);
      assert.equal(held.length, 6);
      for (const delivery of held) {
        const state = outcome(delivery.event.id, delivery.endpoint.id);
        await store.recordWebhookAttempt({
          deliveryId: delivery.deliveryId,
          claim: delivery.claim,
          attempt: { at: NOW, statusCode: state === "delivered" ? 200 : 503, error: null, durationMs: 1 },
          state,
          nextAttemptAt: state === "pending" ? LATER : null,
          disableEndpoint: false,
        });
      }

      assert.deepEqual(await store.purgeWebhooks(CUTOFF), { deliveries: 3, events: 2 });
      const kept = async (endpointId: string) =>
        (await store.listWebhookDeliveries({ endpointId, limit: 10, cursor: null })).deliveries.map((d) => ({
          event: d.eventId,
          state: d.state,
          attempts: d.attemptLog.length,
        }));
      assert.deepEqual(await kept(one.id), [
        { event: recentDelivered.id, state: "delivered", attempts: 1 },
        { event: oldPending.id, state: "pending", attempts: 1 },
      ]);
      // Its event stays with it: the delivery still reads its type through it.
      assert.deepEqual(await kept(two.id), [{ event: oldShared.id, state: "pending", attempts: 1 }]);
      for (const delivery of held.filter((d) => d.endpoint.id === one.id)) {
        const found = await store.getWebhookDelivery(one.id, delivery.deliveryId);
        const purged = delivery.event.id !== recentDelivered.id && delivery.event.id !== oldPending.id;
        assert.equal(found === null, purged, `${delivery.event.id} purged: ${purged}`);
      }
      // The pending ones are still claimed when due.
      assert.equal((await claim(store, 10, LATER)).length, 2);
      assert.deepEqual(await store.purgeWebhooks(CUTOFF), { deliveries: 0, events: 0 }, "nothing twice");
    });

    it("purges the events of a deleted endpoint once they are older than the cutoff", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const endpoint = newEndpoint();
      await store.createWebhookEndpoint(endpoint);
      await store.appendWebhookEvents([newEvent({ createdAt: "2026-09-01T00:00:00.000Z" }), newEvent()]);
      await store.deleteWebhookEndpoint(endpoint.id);
      assert.deepEqual(await store.purgeWebhooks("2026-10-16T12:00:00.000Z"), { deliveries: 0, events: 1 });
      assert.deepEqual(await store.purgeWebhooks(LATER), { deliveries: 0, events: 1 });
    });

    it("never lets two instances claim one delivery", async (t) => {
      const [one, two] = (await stores(t, 2)) as [Store, Store];
      const endpoint = newEndpoint();
      await one.createWebhookEndpoint(endpoint);
      const events = Array.from({ length: 40 }, () => newEvent());
      await one.appendWebhookEvents(events);
      const claimedBy: string[] = [];
      // Both instances claim small batches at once until nothing is left.
      const drain = async (store: Store) => {
        for (;;) {
          const batch = await claim(store, 3);
          if (batch.length === 0) return;
          claimedBy.push(...batch.map((c) => c.deliveryId));
        }
      };
      await Promise.all([drain(one), drain(two), drain(one), drain(two)]);
      assert.equal(claimedBy.length, 40);
      assert.equal(new Set(claimedBy).size, 40);
    });
  });
}
