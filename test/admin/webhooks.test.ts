/**
 * Webhooks through the admin API and the deliverer, on every store this machine runs: endpoints
 * made, changed and deleted, each mistake refused naming its field; and deliveries to a local
 * receiver that checks each one with the `standardwebhooks` library: the same `webhook-id` on
 * every retry, the retry schedule (set short, as TOOLRUN_WEBHOOK_RETRY_SCHEDULE would), a 3xx
 * failing, `Retry-After` honoured, a 410 turning the endpoint off, the log of every attempt.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, it, type TestContext } from "node:test";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import { createWebhookDeliverer, type WebhookDeliverer } from "../../src/core/admin/webhook-delivery.ts";
import { parseRetrySchedule } from "../../src/core/kernel/webhook-events.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { storesToTest } from "../helpers/stores.ts";
import { startReceiver, verified, type WebhookReceiver } from "../helpers/webhook-receiver.ts";
import { type AdminClient, adminClient } from "./helpers.ts";

interface Setup {
  app: TestApp;
  admin: AdminClient;
  receiver: WebhookReceiver;
  /** Moves the deliverer's clock forward (the app's moves with it). */
  advance(ms: number): void;
  deliverer(schedule?: string, timeoutMs?: number): WebhookDeliverer;
}

for (const { name, make } of storesToTest({ postgres: "system" })) {
  describe(`webhooks (${name})`, () => {
    async function setup(t: TestContext): Promise<Setup> {
      // The real time, so the receiver's check of the signature's timestamp holds.
      const app = await createTestApp({ store: await make(), at: new Date().toISOString() }, t);
      const admin = await adminClient(app);
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const upstream = createHttpUpstream();
      return {
        app,
        admin,
        receiver,
        advance: (ms) => app.clock.advance(ms),
        deliverer: (schedule = "2s,3s", timeoutMs) =>
          createWebhookDeliverer({
            store: app.store,
            upstream,
            now: app.clock.now,
            scheduleMs: parseRetrySchedule(schedule) ?? [],
            random: () => 0.5,
            ...(timeoutMs === undefined ? {} : { timeoutMs }),
          }),
      };
    }

    async function endpoint(s: Setup, events = ["key.revoked"], url = s.receiver.url) {
      const created = await s.admin.post("/webhooks", { url, events, description: "billing" });
      assert.equal(created.statusCode, 201, created.body);
      return created.json() as { id: string; secret: string };
    }

    async function revokeOne(s: Setup): Promise<string> {
      const id = (await s.app.recordOf(await s.app.key())).id;
      assert.equal((await s.admin.post(`/keys/${id}/revoke`)).statusCode, 200);
      return id;
    }

    async function deliveries(s: Setup, id: string) {
      const res = await s.admin.get(`/webhooks/${id}/deliveries`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().deliveries as {
        id: string;
        event_id: string;
        state: string;
        attempts: number;
        next_attempt_at: string | null;
        attempt_log: { status_code: number | null; error: string | null; at: string }[];
      }[];
    }

    it("creates an endpoint with its secret shown once, lists, changes and deletes it, audited", async (t) => {
      const s = await setup(t);
      const created = await endpoint(s, ["key.revoked", "credits.threshold"]);
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
      assert.match(created.id, /^whe_[0-9a-f]{24}$/);
      const read = await s.admin.get(`/webhooks/${created.id}`);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().secret, undefined);
      assert.ok(!read.body.includes(created.secret.slice(6)), "the secret is never shown again");
      assert.deepEqual(read.json().events, ["key.revoked", "credits.threshold"]);
      assert.equal(read.json().enabled, true);
      const list = await s.admin.get("/webhooks");
      assert.deepEqual(
        list.json().webhooks.map((w: { id: string }) => w.id),
        [created.id],
      );
      const changed = await s.admin.patch(`/webhooks/${created.id}`, { enabled: false, description: "off" });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().enabled, false);
      assert.equal(changed.json().description, "off");
      assert.equal(changed.json().url, s.receiver.url);
      assert.equal((await s.admin.delete(`/webhooks/${created.id}`)).statusCode, 200);
      assertProblem(await s.admin.get(`/webhooks/${created.id}`), 404, "webhook_not_found");
      assertProblem(await s.admin.delete(`/webhooks/${created.id}`), 404, "webhook_not_found");
      const audit = await s.admin.get(`/audit?target=${created.id}`);
      assert.deepEqual(
        audit.json().entries.map((e: { action: string }) => e.action),
        ["webhooks.delete", "webhooks.update", "webhooks.create"],
      );
    });

    it("refuses a bad endpoint naming the field", async (t) => {
      const s = await setup(t);
      for (const [body, field] of [
        [{ url: "ftp://example.com/x", events: ["key.revoked"] }, "url"],
        [{ url: "not a url", events: ["key.revoked"] }, "url"],
        [{ url: "https://user:pw@example.com/x", events: ["key.revoked"] }, "url"],
        [{ events: ["key.revoked"] }, "url"],
        [{ url: "https://example.com/x", events: ["key.created"] }, "events"],
        [{ url: "https://example.com/x", events: [] }, "events"],
        [{ url: "https://example.com/x" }, "events"],
        [{ url: "https://example.com/x", events: ["key.revoked"], secret: "mine" }, "secret"],
      ] as const) {
        const res = await s.admin.post("/webhooks", body);
        const problem = assertProblem(res, 400, "validation_error");
        const fields = JSON.stringify(problem.fields);
        assert.match(fields, new RegExp(field), `${JSON.stringify(body)}: ${fields}`);
      }
      const made = await endpoint(s);
      assertProblem(
        await s.admin.patch(`/webhooks/${made.id}`, { url: "file:///etc/passwd" }),
        400,
        "validation_error",
      );
      assertProblem(await s.admin.patch(`/webhooks/${made.id}`, {}), 400, "validation_error");
      assertProblem(
        await s.admin.patch("/webhooks/whe_missing", { enabled: true }),
        404,
        "webhook_not_found",
      );
      assertProblem(await s.admin.get("/webhooks/whe_missing/deliveries"), 404, "webhook_not_found");
      assertProblem(
        await s.admin.post(`/webhooks/${made.id}/deliveries/dlv_missing/retry`),
        404,
        "webhook_delivery_not_found",
      );
      assertProblem(
        await s.admin.get(`/webhooks/${made.id}/deliveries?cursor=nope`),
        400,
        "validation_error",
      );
    });

    it("delivers key.revoked signed, once, with its attempt in the log", async (t) => {
      const s = await setup(t);
      const made = await endpoint(s);
      const other = await endpoint(s, ["credits.granted"]);
      const keyId = await revokeOne(s);
      assert.equal(await s.deliverer().deliverDue(), 1);
      assert.equal(s.receiver.received.length, 1);
      const [delivery] = s.receiver.received;
      assert.ok(delivery);
      assert.equal(delivery.path, "/hooks");
      assert.equal(delivery.headers["content-type"], "application/json");
      assert.match(String(delivery.headers["webhook-id"]), /^evt_[0-9a-f]{32}$/);
      assert.match(String(delivery.headers["webhook-signature"]), /^v1,[A-Za-z0-9+/=]+$/);
      const body = verified(made.secret, delivery);
      assert.equal(body.type, "key.revoked");
      assert.equal(body.data.key_id, keyId);
      assert.equal(typeof body.data.revoked_at, "string");
      assert.equal(body.timestamp, body.data.revoked_at);
      assert.throws(
        () => verified(other.secret, delivery),
        /signature/i,
        "another endpoint's secret does not verify it",
      );
      const [logged] = await deliveries(s, made.id);
      assert.equal(logged?.state, "delivered");
      assert.equal(logged?.event_id, delivery.headers["webhook-id"]);
      assert.deepEqual(
        logged?.attempt_log.map((a) => [a.status_code, a.error]),
        [[200, null]],
      );
      assert.deepEqual(await deliveries(s, other.id), []);
      assert.equal(await s.deliverer().deliverDue(), 0, "nothing is sent twice");
    });

    it("retries on the schedule with the same webhook-id, fails a 3xx without following it, gives up when it is spent", async (t) => {
      const s = await setup(t);
      const made = await endpoint(s);
      const deliverer = s.deliverer("2s,3s");
      s.receiver.answer(
        { status: 500 },
        { status: 302, headers: { location: "/elsewhere" } },
        { status: 503 },
      );
      await revokeOne(s);
      assert.equal(await deliverer.deliverDue(), 1);
      assert.equal(await deliverer.deliverDue(), 0, "not due before its delay");
      let [logged] = await deliveries(s, made.id);
      assert.equal(logged?.state, "pending");
      assert.equal(
        Date.parse(logged?.next_attempt_at ?? "") - Date.parse(logged?.attempt_log[0]?.at ?? ""),
        2000,
      );
      s.advance(2000);
      assert.equal(await deliverer.deliverDue(), 1);
      s.advance(3000);
      assert.equal(await deliverer.deliverDue(), 1);
      s.advance(86_400_000);
      assert.equal(await deliverer.deliverDue(), 0, "given up");
      [logged] = await deliveries(s, made.id);
      assert.equal(logged?.state, "failed");
      assert.equal(logged?.next_attempt_at, null);
      assert.deepEqual(
        logged?.attempt_log.map((a) => [a.status_code, a.error]),
        [
          [500, "HTTP 500"],
          [302, "HTTP 302: redirects are not followed"],
          [503, "HTTP 503"],
        ],
      );
      assert.deepEqual(
        s.receiver.received.map((r) => r.path),
        ["/hooks", "/hooks", "/hooks"],
        "the redirect was not followed",
      );
      assert.equal(new Set(s.receiver.received.map((r) => r.headers["webhook-id"])).size, 1);

      // A retry from the admin API: one attempt more, the same id again, delivered.
      const retried = await s.admin.post(`/webhooks/${made.id}/deliveries/${logged?.id}/retry`);
      assert.equal(retried.statusCode, 202, retried.body);
      assert.equal(retried.json().state, "pending");
      assert.equal(await deliverer.deliverDue(), 1);
      [logged] = await deliveries(s, made.id);
      assert.equal(logged?.state, "delivered");
      assert.equal(logged?.attempts, 4);
      const last = s.receiver.received.at(-1);
      assert.ok(last);
      // A day on the test's clock: the signature is checked, not its timestamp against the real one.
      verified(made.secret, last, { anyTime: true });
      assert.equal(last.headers["webhook-id"], s.receiver.received[0]?.headers["webhook-id"]);
    });

    it("waits at least the receiver's Retry-After", async (t) => {
      const s = await setup(t);
      const made = await endpoint(s);
      s.receiver.answer({ status: 429, headers: { "retry-after": "120" } });
      await revokeOne(s);
      const deliverer = s.deliverer("1s");
      await deliverer.deliverDue();
      const [logged] = await deliveries(s, made.id);
      const waited = Date.parse(logged?.next_attempt_at ?? "") - Date.parse(logged?.attempt_log[0]?.at ?? "");
      assert.ok(waited >= 120_000, `next attempt after ${waited} ms`);
      s.advance(60_000);
      assert.equal(await deliverer.deliverDue(), 0);
      s.advance(61_000);
      assert.equal(await deliverer.deliverDue(), 1);
    });

    it("turns the endpoint off on a 410; test events go to it alone once it is on again", async (t) => {
      const s = await setup(t);
      const made = await endpoint(s);
      s.receiver.answer({ status: 410 });
      await revokeOne(s);
      const deliverer = s.deliverer();
      await deliverer.deliverDue();
      const read = (await s.admin.get(`/webhooks/${made.id}`)).json();
      assert.equal(read.enabled, false);
      assert.equal(read.disabled_reason, "gone");
      const [logged] = await deliveries(s, made.id);
      assert.equal(logged?.state, "failed");
      // Off: no event is written for it.
      await revokeOne(s);
      assert.equal((await s.admin.post(`/webhooks/${made.id}/test`)).json().deliveries, 0);
      assert.equal((await deliveries(s, made.id)).length, 1);
      // On again: a test event, though it subscribed to key.revoked only.
      const on = await s.admin.patch(`/webhooks/${made.id}`, { enabled: true });
      assert.equal(on.json().disabled_reason, null);
      const tested = await s.admin.post(`/webhooks/${made.id}/test`);
      assert.equal(tested.statusCode, 202, tested.body);
      assert.equal(tested.json().deliveries, 1);
      assert.equal(await deliverer.deliverDue(), 1);
      const last = s.receiver.received.at(-1);
      assert.ok(last);
      assert.equal(verified(made.secret, last).type, "webhook.test");
      assert.equal(last.headers["webhook-id"], tested.json().event_id);
    });

    it("retries a timeout and a refused connection", async (t) => {
      const s = await setup(t);
      const hanging = await endpoint(s);
      const closed = await closedPortUrl();
      const refused = await endpoint(s, ["key.revoked"], closed);
      s.receiver.answer({ status: 0, hang: true });
      await revokeOne(s);
      assert.equal(await s.deliverer("1s", 200).deliverDue(), 2);
      const [timedOut] = await deliveries(s, hanging.id);
      assert.equal(timedOut?.state, "pending");
      assert.deepEqual(
        timedOut?.attempt_log.map((a) => [a.status_code, a.error]),
        [[null, "no answer within 0.2 s"]],
      );
      const [noConnection] = await deliveries(s, refused.id);
      assert.equal(noConnection?.state, "pending");
      assert.match(noConnection?.attempt_log[0]?.error ?? "", /^connection refused \(ECONNREFUSED\)$/);
    });

    it("hands back what it was sending when it stops: due again at once, no attempt counted", async (t) => {
      const s = await setup(t);
      const made = await endpoint(s);
      s.receiver.answer({ status: 0, hang: true });
      await revokeOne(s);
      const stopping = s.deliverer();
      const pass = stopping.deliverDue();
      while (s.receiver.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await stopping.stop();
      assert.equal(await pass, 0);
      assert.equal(await stopping.deliverDue(), 0, "a stopped deliverer sends nothing");
      let [logged] = await deliveries(s, made.id);
      assert.equal(logged?.state, "pending");
      assert.equal(logged?.attempts, 0);
      assert.equal(await s.deliverer().deliverDue(), 1, "another deliverer takes it at once");
      [logged] = await deliveries(s, made.id);
      assert.equal(logged?.state, "delivered");
      assert.equal(
        s.receiver.received[0]?.headers["webhook-id"],
        s.receiver.received[1]?.headers["webhook-id"],
      );
    });

    it("has two deliverers on one store send each delivery once", async (t) => {
      const s = await setup(t);
      await endpoint(s);
      for (let i = 0; i < 12; i++) await revokeOne(s);
      const one = s.deliverer();
      const two = s.deliverer();
      // A call during a pass joins it: the second call of each is its first's pass.
      const made = await Promise.all([
        one.deliverDue(),
        two.deliverDue(),
        one.deliverDue(),
        two.deliverDue(),
      ]);
      assert.equal((made[0] ?? 0) + (made[1] ?? 0), 12);
      assert.equal(s.receiver.received.length, 12);
      assert.equal(new Set(s.receiver.received.map((r) => r.headers["webhook-id"])).size, 12);
    });

    it("pages the deliveries newest first", async (t) => {
      const s = await setup(t);
      const made = await endpoint(s);
      for (let i = 0; i < 3; i++) await revokeOne(s);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await s.admin.get(
          `/webhooks/${made.id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        );
        assert.equal(res.statusCode, 200, res.body);
        seen.push(...res.json().deliveries.map((d: { id: string }) => d.id));
        cursor = res.json().next_cursor;
      } while (cursor !== null);
      assert.equal(new Set(seen).size, 3);
    });
  });
}

/** A URL on 127.0.0.1 where nothing listens: a port taken, then given back. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
