/**
 * The PostgreSQL ledger when its connection stalls mid-call: one store reaches the database through
 * a TCP proxy the test freezes, another (a second instance) directly. A call is never delivered for
 * credits the ledger does not hold, and a call answered 503 holds no credits once the database
 * answers again, whatever reaches it first; the capture of a tool that acted outside waits for the
 * database instead, and charges the call exactly once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createPostgresStore, type PostgresStore } from "../../src/adapters/postgres/store.ts";
import { BackendUnavailableError, CallAbandonedError } from "../../src/ports/errors.ts";
import { accountOf, newKey, reservation } from "../contracts/store.contract.ts";
import { testDatabaseUrl, uniqueName } from "../helpers/services.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";
import { dropSchema, uniqueSchema } from "./postgres-fixture.ts";

const SETTLE = "toolrun_ledger_settle";
/** The one statement of a call without an idempotency key, alone or batched (toolrun_ledger_calls). */
const CALL = "toolrun_ledger_call";
const idempotency = { key: "retry-me", fingerprint: "f1", expiresAt: "2099-01-01T00:00:00.000Z" };
const answerOf = () => ({ status: 200, body: '{"paid":true}' });
const db = testDatabaseUrl();

/** Polls until `check` holds, for at most ~10 s. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let n = 0; n < 100; n++) {
    if (await check()) return;
    await sleep(100);
  }
  assert.fail(`never happened: ${what}`);
}

if (db.url === undefined) {
  it("PostgreSQL ledger under a stalled connection", { skip: db.skip }, () => {});
} else {
  const url = db.url;
  const schema = uniqueSchema();
  let proxy: TcpProxy;
  let other: PostgresStore;
  const stores: PostgresStore[] = [];
  /** The application_name of the stores behind the proxy, to find their backends. */
  const stalledName = uniqueName("toolrun_stalled");
  const behindProxy = async (queryTimeoutMs: number) => {
    const target = new URL(url);
    target.host = `127.0.0.1:${proxy.port}`;
    const store = await createPostgresStore({
      url: target.href,
      schema,
      queryTimeoutMs,
      connectTimeoutMs: queryTimeoutMs,
      applicationName: stalledName,
      keyCache: false,
    });
    stores.push(store);
    return store;
  };
  /** A store behind the proxy, and a fresh key made through the other one. */
  const stalledWithKey = async (queryTimeoutMs: number) => {
    const stalled = await behindProxy(queryTimeoutMs);
    const key = newKey();
    await other.createKey(key);
    return { stalled, key };
  };
  /** A call of 3 credits with the Idempotency-Key `retry-me`, whose run returns `value`. */
  const keyedCall = (store: PostgresStore, keyId: string, value: string) =>
    store.runCall(
      reservation(keyId, { credits: 3, allowance: 100, idempotency }),
      () => ({ ok: true, value }),
      answerOf,
    );
  /** Waits, reading through the healthy store, until the key's latest call is recorded refunded. */
  const untilRefunded = (keyId: string) =>
    eventually("the unconfirmed charge is refunded", async () => {
      const [row] = (
        await other.usage({ accountId: accountOf(keyId), period: "2026-11", limit: 1, cursor: null })
      ).recent;
      return row?.status === "refunded";
    });
  describe("PostgreSQL ledger under a stall", () => {
    before(async () => {
      proxy = await startTcpProxy(new URL(url).hostname, Number(new URL(url).port || 5432));
      other = await createPostgresStore({ url, schema, keyCache: false });
      await other.migrate();
    });
    after(async () => {
      proxy.release();
      for (const store of stores) await store.close();
      await other.close();
      await proxy.close();
      await dropSchema(url, schema);
    });

    describe("PostgreSQL ledger: the capture of a tool with effects outside, under a stall", () => {
      /** A call of 3 credits of a tool that acted outside, with the Idempotency-Key `acted`. */
      const actedCall = (store: PostgresStore, keyId: string) =>
        store.runReservedCall(
          reservation(keyId, {
            credits: 3,
            allowance: 100,
            idempotency: { ...idempotency, key: "acted" },
          }),
          () => ({ ok: true, value: "acted" }),
          answerOf,
        );
      /** The key's calls as the healthy store reads them: [status, credits]. */
      const callsOf = async (keyId: string) =>
        (
          await other.usage({ accountId: accountOf(keyId), period: "2026-11", limit: 10, cursor: null })
        ).recent.map((c) => [c.status, c.credits]);

      it("delivers and charges once a call whose capture committed with its answer lost", async () => {
        const { stalled, key } = await stalledWithKey(300);
        const held = proxy.freezeOn(SETTLE, "response");
        const call = actedCall(stalled, key.id);
        await held;
        // The capture is tried again on another connection, finds the call charged, and is done.
        assert.deepEqual(await call, { status: "charged", value: "acted", creditsUsed: 3, grantsLeft: 0 });
        proxy.release();
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 3);
        assert.deepEqual(await callsOf(key.id), [["charged", 3]]);
        const retry = await actedCall(other, key.id);
        assert.deepEqual(retry, { status: "claimed", existing: { fingerprint: "f1", answer: answerOf() } });
      });

      it("charges once a call whose capture was held on its way, when the held statement arrives after", async () => {
        const { stalled, key } = await stalledWithKey(300);
        const held = proxy.freezeOn(SETTLE, "request");
        const call = actedCall(stalled, key.id);
        await held;
        assert.deepEqual(await call, { status: "charged", value: "acted", creditsUsed: 3, grantsLeft: 0 });
        const backends = async () =>
          (
            await other.pool.query("SELECT 1 FROM pg_stat_activity WHERE application_name = $1", [
              stalledName,
            ])
          ).rows.length;
        const open = await backends();
        proxy.release();
        await eventually("the held statement has run", async () => (await backends()) < open);
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 3);
        assert.deepEqual(await callsOf(key.id), [["charged", 3]]);
      });

      it("waits for the database through a whole stall, then charges the call once instead of answering 503", async () => {
        const { stalled, key } = await stalledWithKey(300);
        await stalled.ping();
        const frozen = proxy.freezeOn(SETTLE, "request");
        const call = actedCall(stalled, key.id);
        await frozen;
        proxy.freeze();
        let ended = false;
        void call.finally(() => {
          ended = true;
        });
        // Several of its attempts time out meanwhile.
        await sleep(1_500);
        assert.equal(ended, false, "the call ended while the database was away");
        proxy.release();
        assert.deepEqual(await call, { status: "charged", value: "acted", creditsUsed: 3, grantsLeft: 0 });
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 3);
      });
    });

    describe("PostgreSQL ledger: a connection that stalls between reserve and settle", () => {
      it("answers 503, not a result, when the sweep refunded the call before its settle arrived", async () => {
        const { stalled, key } = await stalledWithKey(60_000);
        const held = proxy.freezeOn(SETTLE, "request");
        const call = keyedCall(stalled, key.id, "result");
        const outcome = call.then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        await held;
        // Another instance's sweep: the call is pending and (for this test) old enough.
        assert.equal(await other.refundAbandoned(new Date(Date.now() + 60_000).toISOString()), 1);
        proxy.release();
        const settled = await outcome;
        assert.ok("error" in settled, `the call was delivered: ${JSON.stringify(settled)}`);
        // Not the database's fault: the call took longer than the abandon time.
        assert.ok(settled.error instanceof CallAbandonedError);
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 0);
        const usage = await other.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.equal(usage.creditsUsed, 0);
        assert.deepEqual(
          usage.recent.map((c) => [c.status, c.credits]),
          [["refunded", 0]],
        );
      });

      it("refunds a call answered 503 whose charge did commit, once the database answers", async () => {
        const { stalled, key } = await stalledWithKey(300);
        // The call's one statement reaches the server and commits; its answer never comes back.
        const held = proxy.freezeOn(CALL, "response");
        const call = stalled.runCall(reservation(key.id, { credits: 3, allowance: 100 }), () => ({
          ok: true,
          value: "result",
        }));
        await held;
        await assert.rejects(call, BackendUnavailableError);
        await untilRefunded(key.id);
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 0);
        proxy.release();
      });

      it("refunds every call of a batch answered 503 whose charges did commit", async () => {
        const { stalled, key } = await stalledWithKey(300);
        const held = proxy.freezeOn(CALL, "response");
        // Queued in one turn: one statement for the four.
        const calls = Array.from({ length: 4 }, (_, i) =>
          stalled.runCall(reservation(key.id, { credits: 3, allowance: 100, tool: `t${i % 2}` }), () => ({
            ok: true,
            value: i,
          })),
        );
        await held;
        for (const call of calls) await assert.rejects(call, BackendUnavailableError);
        await eventually("every unconfirmed charge is refunded", async () => {
          const report = await other.usage({
            accountId: key.accountId,
            period: "2026-11",
            limit: 10,
            cursor: null,
          });
          return report.recent.length === 4 && report.recent.every((c) => c.status === "refunded");
        });
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 0);
        proxy.release();
      });

      it("records nothing of a call answered 503 whose statement reaches the database after its compensation", async () => {
        const { stalled, key } = await stalledWithKey(300);
        // The call's one statement waits in its connection; new connections (the compensation's) flow.
        const held = proxy.freezeOn(CALL, "request");
        const call = stalled.runCall(reservation(key.id, { credits: 3, allowance: 100 }), () => ({
          ok: true,
          value: "result",
        }));
        await held;
        await assert.rejects(call, BackendUnavailableError);
        await eventually("the compensation is recorded", async () => {
          const { rows } = await other.pool.query("SELECT 1 FROM voided_calls");
          return rows.length > 0;
        });
        const backends = async () =>
          (
            await other.pool.query("SELECT 1 FROM pg_stat_activity WHERE application_name = $1", [
              stalledName,
            ])
          ).rows.length;
        const open = await backends();
        proxy.release();
        // The held statement now reaches the server, which runs it and then closes that connection.
        await eventually("the held statement has run", async () => (await backends()) < open);
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 0);
        const usage = await other.usage({
          accountId: key.accountId,
          period: "2026-11",
          limit: 10,
          cursor: null,
        });
        assert.deepEqual([usage.creditsUsed, usage.calls, usage.recent], [0, 0, []]);
      });

      it("frees the Idempotency-Key of a call answered 503 whose charge and answer did commit", async () => {
        const { stalled, key } = await stalledWithKey(300);
        const held = proxy.freezeOn(SETTLE, "response");
        const call = keyedCall(stalled, key.id, "result");
        await held;
        await assert.rejects(call, BackendUnavailableError);
        await untilRefunded(key.id);
        proxy.release();
        // The stored answer was never delivered: a retry with the same key runs, and is charged once.
        const retry = await keyedCall(other, key.id, "again");
        assert.equal(retry.status, "charged");
        assert.equal(await other.creditsUsed(key.accountId, "2026-11"), 3);
      });

      it("bounds a statement's wait by queryTimeoutMs while the network is frozen", async () => {
        const { stalled, key } = await stalledWithKey(300);
        await stalled.ping();
        proxy.freeze();
        await assert.rejects(stalled.getKey(key.id), BackendUnavailableError);
        await assert.rejects(
          stalled.runCall(reservation(key.id), () => ({ ok: true, value: 1 })),
          BackendUnavailableError,
        );
        proxy.release();
        await eventually(
          "the reservation made before the freeze is not held",
          async () => (await other.creditsUsed(key.accountId, "2026-11")) === 0,
        );
      });
    });
  });
}
