/**
 * Idempotency keys on PostgreSQL, step by step: a call's claim is visible to every instance from
 * its reservation on, its answer commits with its charge or refund, and a call that ends without an
 * answer (its process died and the sweep refunded it, or its charge found the reservation gone)
 * frees its key. The whole-call behaviour is the contract (test/contracts/idempotency.contract.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createPostgresStore } from "../../src/adapters/postgres/store.ts";
import { fingerprintOf } from "../../src/core/call/idempotency.ts";
import type { Reservation, StoredAnswer } from "../../src/ports/store.ts";
import { newKey, reservation } from "../contracts/store.contract.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { testDatabaseUrl } from "../helpers/services.ts";
import { dropSchema, uniqueSchema, withLedgerSteps } from "./postgres-fixture.ts";

const db = testDatabaseUrl();
if (db.url === undefined) {
  it("PostgreSQL idempotency keys", { skip: db.skip }, () => {});
} else {
  const url = db.url;
  const schema = uniqueSchema();
  describe("PostgreSQL idempotency", () => {
    // Two instances on one database.
    let a: ReturnType<typeof withLedgerSteps>;
    let b: ReturnType<typeof withLedgerSteps>;
    before(async () => {
      a = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 4 }));
      b = withLedgerSteps(await createPostgresStore({ url, schema, poolSize: 4 }));
      await a.migrate();
    });
    after(async () => {
      await Promise.all([a.close(), b.close()]);
      await dropSchema(url, schema);
    });

    const ANSWER: StoredAnswer = { status: 200, body: '{"answer":1}' };
    const claimed = (keyId: string, idem: string, overrides: Partial<Reservation> = {}) =>
      reservation(keyId, {
        idempotency: { key: idem, fingerprint: "f1", expiresAt: "2999-01-01T00:00:00.000Z" },
        ...overrides,
      });
    const runOnB = (r: Reservation) => {
      let runs = 0;
      const outcome = b.runCall(
        r,
        () => {
          runs++;
          return { ok: true, value: runs };
        },
        () => ANSWER,
      );
      return outcome.then((o) => ({ outcome: o, runs }));
    };

    describe("PostgreSQL idempotency keys", () => {
      it("show a call's claim to every instance from its reservation on, and its answer once it is charged", async () => {
        const key = newKey();
        await a.createKey(key);
        const first = claimed(key.id, "k1");
        assert.equal((await a.reserve(first)).ok, true);
        const during = await runOnB(claimed(key.id, "k1"));
        assert.deepEqual(during, {
          outcome: { status: "claimed", existing: { fingerprint: "f1", answer: null } },
          runs: 0,
        });
        assert.equal(await a.settle(first.callId, 200, ANSWER), true);
        const afterwards = await runOnB(claimed(key.id, "k1"));
        assert.deepEqual(afterwards.outcome, {
          status: "claimed",
          existing: { fingerprint: "f1", answer: ANSWER },
        });
        assert.equal(await a.creditsUsed(key.accountId, "2026-11"), 2);
      });

      it("free the key of a call abandoned by a dead process once the sweep refunds it", async () => {
        const key = newKey();
        await a.createKey(key);
        assert.equal((await a.reserve(claimed(key.id, "k2"))).ok, true);
        assert.equal(await b.refundAbandoned("2999-01-01T00:00:00.000Z"), 1);
        const retry = await runOnB(claimed(key.id, "k2"));
        assert.equal(retry.outcome.status, "charged");
        assert.equal(retry.runs, 1);
        assert.equal(await a.creditsUsed(key.accountId, "2026-11"), 2);
      });

      it("give no answer and keep none when the charge finds its reservation already refunded", async () => {
        const key = newKey();
        await a.createKey(key);
        const first = claimed(key.id, "k3");
        assert.equal((await a.reserve(first)).ok, true);
        await b.refundAbandoned("2999-01-01T00:00:00.000Z");
        assert.equal(await a.settle(first.callId, 200, ANSWER), false);
        assert.equal(await a.creditsUsed(key.accountId, "2026-11"), 0);
        assert.equal((await runOnB(claimed(key.id, "k3"))).outcome.status, "charged");
      });

      it("leave no claim behind a refused reservation", async () => {
        const key = newKey();
        await a.createKey(key);
        const refused = await runOnB(claimed(key.id, "k4", { credits: 20, allowance: 10 }));
        assert.equal(refused.outcome.status, "refused");
        assert.equal((await runOnB(claimed(key.id, "k4"))).outcome.status, "charged");
      });
    });

    describe("PostgreSQL idempotency over HTTP", () => {
      it("answers 409 idempotency_key_in_use with Retry-After: 1 while the first request runs, then its answer", async (t) => {
        const app = await createTestApp({ store: await createPostgresStore({ url, schema }) }, t);
        const secret = await app.key();
        const record = (await app.store.listKeys()).find((k) => secret.startsWith(k.displayPrefix));
        assert.ok(record);
        const body = '{"value": 4}';
        // The first request, reserved on another instance and still running.
        const first = claimed(record.id, "in-flight", {
          accountId: record.accountId,
          tool: "echo",
          credits: 3,
          allowance: 1000,
          idempotency: {
            key: "in-flight",
            fingerprint: fingerprintOf("echo", body),
            expiresAt: "2999-01-01T00:00:00.000Z",
          },
        });
        assert.equal((await a.reserve(first)).ok, true);
        const post = () =>
          app.app.inject({
            method: "POST",
            url: "/v1/tool/echo",
            headers: json({ ...bearer(secret), "idempotency-key": "in-flight" }),
            payload: body,
          });
        const busy = await post();
        assertProblem(busy, 409, "idempotency_key_in_use");
        assert.equal(busy.headers["retry-after"], "1");
        const envelope = {
          tool: "echo",
          tool_version: "2.1.0",
          outputs: { value: 4, doubled: 8 },
          credits_used: 3,
          credits_remaining: 997,
          request_id: "first",
        };
        assert.equal(
          await a.settle(first.callId, 200, { status: 200, body: JSON.stringify(envelope) }),
          true,
        );
        const replay = await post();
        assert.equal(replay.statusCode, 200);
        assert.equal(replay.headers["idempotent-replayed"], "true");
        assert.deepEqual(replay.json(), envelope);
        assert.equal(replay.headers["x-request-id"], "first");
      });
    });
  });
}
