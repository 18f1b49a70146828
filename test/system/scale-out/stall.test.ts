/**
 * An instance whose PostgreSQL connection stalls (a network freeze) while calls are in flight, with
 * another instance on the same database sweeping abandoned calls (TOOLRUN_CALL_ABANDON_S=2).
 * Instance A reaches PostgreSQL through a TCP proxy the test freezes and releases; instance B
 * directly. The invariant (docs/scale-out.md): the credits of the 200s the client received equal
 * what /v1/me/credits and /v1/me/usage report as used.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { assertProblem } from "../../helpers/problem.ts";
import type { ServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl, testRedisUrl, uniqueName } from "../../helpers/services.ts";
import { proxyUrl, type TcpProxy } from "../../helpers/tcp-proxy.ts";
import { type CallRecord, callTool, getJson } from "./calls.ts";
import { type Cluster, createCluster, type TestKey } from "./cluster.ts";

const COST = 1; // the calculator on builder
const database = testDatabaseUrl();

async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let n = 0; n < 60; n++) {
    if (await check()) return;
    await sleep(250);
  }
  assert.fail(`${what} did not happen within 15 s`);
}

/** The invariant, read from a healthy instance: used credits = the credits of the 200s. */
async function assertPaidFor(healthy: ServerProcess, key: TestKey, records: readonly CallRecord[]) {
  const paid = records.filter((r) => r.status === 200);
  const received = paid.reduce((sum, r) => sum + Number(r.body?.credits_used), 0);
  assert.equal(received, paid.length * COST);
  await eventually("the ledger agrees with the 200s", async () => {
    const credits = await getJson(healthy.url, "/v1/me/credits", key.key);
    const usage = await getJson(healthy.url, "/v1/me/usage?limit=100", key.key);
    return credits.body.credits_used === received && usage.body.credits_used === received;
  });
}

if (database.url === undefined) {
  it("an instance whose database connection stalls", { skip: database.skip }, () => {});
} else {
  const databaseUrl = database.url;

  describe("an instance whose PostgreSQL connection stalls while calls are in flight", () => {
    let cluster: Cluster | undefined;
    let proxy: TcpProxy;
    let sweeper: ServerProcess;
    const tag = uniqueName("s");

    const paidFor = (key: TestKey, records: readonly CallRecord[]) => assertPaidFor(sweeper, key, records);
    /** Waits until the call sent with `requestId` is recorded refunded. */
    const untilRefunded = (what: string, requestId: string) =>
      eventually(what, async () => {
        assert.ok(cluster);
        const [row] = await cluster.query<{ status: string }>(
          "SELECT status FROM usage_calls WHERE request_id = $1",
          [requestId],
        );
        return row?.status === "refunded";
      });
    let proxiedUrl: string;

    before(async () => {
      // Rate limits out of the way: the freeze test sends calls as fast as they are answered.
      cluster = await createCluster({
        databaseUrl,
        redisUrl: null,
        config: { plans: { builder: { rpm: 100_000 } } },
      });
      ({ proxy, url: proxiedUrl } = await proxyUrl(databaseUrl));
      [sweeper] = (await cluster.start(1, { TOOLRUN_CALL_ABANDON_S: "2" })) as [ServerProcess];
    });
    after(async () => {
      proxy?.release();
      await cluster?.cleanup();
      await proxy?.close();
    });

    it("a call with an idempotency key whose settle arrives after the sweep refunded it answers 503, never a 200 it did not pay for", async () => {
      assert.ok(cluster);
      const key = await cluster.createKey("builder", 1000);
      // No statement of A times out here: only the sweep can end the stalled call.
      const [stalled] = (await cluster.start(1, {
        TOOLRUN_DATABASE: proxiedUrl,
        TOOLRUN_DB_TIMEOUT_MS: "60000",
        TOOLRUN_CALL_ABANDON_S: "2",
      })) as [ServerProcess];
      const records: CallRecord[] = [];
      for (let n = 0; n < 3; n++) records.push(await callTool(stalled.url, 0, key.key, `${tag}-a-${n}`));
      // Only a call with an idempotency key is pending between two statements; one without is
      // checked and recorded by one statement (the next test).
      const held = proxy.freezeOn("toolrun_ledger_settle", "request");
      const inFlight = callTool(stalled.url, 0, key.key, `${tag}-a-stalled`, undefined, undefined, {
        "idempotency-key": `${tag}-a-stalled`,
      });
      await held;
      await untilRefunded("the sweep refunds the stalled call", `${tag}-a-stalled`);
      proxy.release();
      const answer = await inFlight;
      records.push(answer);
      // What happened: the call outlasted TOOLRUN_CALL_ABANDON_S; the database itself is fine.
      assertProblem(answer, 503, "backend_unavailable", null);
      assert.equal(answer.headers?.get("retry-after"), "1");
      assert.deepEqual(
        records.map((r) => r.status),
        [200, 200, 200, 503],
      );
      await paidFor(key, records);
    });

    it("a call whose one statement committed but whose answer was lost answers 503 and is refunded", async () => {
      assert.ok(cluster);
      const key = await cluster.createKey("builder", 1000);
      const [stalled] = (await cluster.start(1, {
        TOOLRUN_DATABASE: proxiedUrl,
        TOOLRUN_DB_TIMEOUT_MS: "1000",
      })) as [ServerProcess];
      const records: CallRecord[] = [];
      for (let n = 0; n < 3; n++) records.push(await callTool(stalled.url, 0, key.key, `${tag}-c-${n}`));
      const held = proxy.freezeOn("toolrun_ledger_call", "response");
      const inFlight = callTool(stalled.url, 0, key.key, `${tag}-c-stalled`);
      await held;
      const answer = await inFlight;
      records.push(answer);
      assertProblem(answer, 503, "backend_unavailable", null);
      proxy.release();
      await untilRefunded("the unconfirmed charge is refunded", `${tag}-c-stalled`);
      assert.deepEqual(
        records.map((r) => r.status),
        [200, 200, 200, 503],
      );
      await paidFor(key, records);
    });

    it("calls in flight during a freeze end in 200 or 503 within TOOLRUN_DB_TIMEOUT_MS, and only the 200s are paid for", async () => {
      assert.ok(cluster);
      const key = await cluster.createKey("builder", 1000);
      const [stalled] = (await cluster.start(1, {
        TOOLRUN_DATABASE: proxiedUrl,
        TOOLRUN_DB_TIMEOUT_MS: "1000",
        TOOLRUN_CALL_ABANDON_S: "2",
      })) as [ServerProcess];
      const records: CallRecord[] = [];
      let running = true;
      let sent = 0;
      const worker = async () => {
        while (running) records.push(await callTool(stalled.url, 0, key.key, `${tag}-b-${sent++}`));
      };
      const workers = Array.from({ length: 8 }, worker);
      await sleep(300);
      proxy.freeze();
      await sleep(3_000);
      proxy.release();
      await sleep(500);
      running = false;
      await Promise.all(workers);
      assert.ok(
        records.every((r) => r.status === 200 || r.status === 503),
        JSON.stringify(records.map((r) => r.status)),
      );
      assert.ok(
        records.some((r) => r.status === 503),
        "the freeze was felt",
      );
      for (const r of records.filter((r) => r.status === 503))
        assertProblem(r, 503, "backend_unavailable", null);
      await paidFor(key, records);
    });
  });

  const redis = testRedisUrl();
  describe("an instance whose open PostgreSQL connections stall while new ones work", {
    skip: redis.skip,
  }, () => {
    // Rate limits in Redis, so that every statement the stall holds is a call's charge.
    let cluster: Cluster | undefined;
    let proxy: TcpProxy;
    let proxiedUrl: string;
    let healthy: ServerProcess;
    const tag = uniqueName("p");

    before(async () => {
      cluster = await createCluster({
        databaseUrl,
        redisUrl: redis.url ?? null,
        config: { plans: { builder: { rpm: 100_000 } } },
      });
      ({ proxy, url: proxiedUrl } = await proxyUrl(databaseUrl));
      [healthy] = (await cluster.start(1)) as [ServerProcess];
    });
    after(async () => {
      proxy?.release();
      await cluster?.cleanup();
      await proxy?.close();
    });

    it("when only the open connections stall and new ones work, no call answered 503 stays charged", async (t) => {
      assert.ok(cluster);
      const key = await cluster.createKey("builder", 100_000);
      const [stalled] = (await cluster.start(1, {
        TOOLRUN_DATABASE: proxiedUrl,
        TOOLRUN_DB_TIMEOUT_MS: "1000",
      })) as [ServerProcess];
      const records: CallRecord[] = [];
      let running = true;
      let sent = 0;
      const worker = async () => {
        while (running) records.push(await callTool(stalled.url, 0, key.key, `${tag}-p-${sent++}`));
      };
      const workers = Array.from({ length: 8 }, worker);
      await sleep(300);
      // One path losing packets: what is in flight on the open connections waits there, while the
      // compensations of the calls answered 503 reach the database first on new connections.
      proxy.freezeOpen();
      await sleep(3_000);
      running = false;
      await Promise.all(workers);
      proxy.release();
      // What the stalled connections held reaches the database now.
      await sleep(1_000);
      const failed = records.filter((r) => r.status === 503);
      for (const r of failed) assertProblem(r, 503, "backend_unavailable", null);
      assert.ok(failed.length > 0, "the stall was felt");
      const rows = await cluster.query<{ request_id: string; status: string }>(
        "SELECT request_id, status FROM usage_calls WHERE request_id = ANY($1::text[])",
        [failed.map((r) => r.id)],
      );
      const charged = rows.filter((row) => row.status !== "refunded");
      const paid = records.filter((r) => r.status === 200).length * COST;
      const used = (await getJson(healthy.url, "/v1/me/credits", key.key)).body.credits_used;
      t.diagnostic(
        `${records.length} calls, ${failed.length} answered 503, ${charged.length} of those charged; ` +
          `credits of the 200s ${paid}, /v1/me/credits ${used}`,
      );
      assert.deepEqual(charged, [], "calls answered 503 and charged");
      assert.ok(
        records.every((r) => r.status === 200 || r.status === 503),
        JSON.stringify(records.map((r) => r.status)),
      );
      await assertPaidFor(healthy, key, records);
    });
  });
}
