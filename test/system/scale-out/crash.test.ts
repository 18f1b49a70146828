/**
 * An instance killed with SIGKILL in the middle of a burst loses nothing charged and runs
 * nothing unpaid. Three instances (PostgreSQL + Redis); 150 calculator calls at 3 credits each
 * (builder, minCredits 3; 100,000 credits, so neither limit binds), 24 in flight at a time, sent
 * round-robin with the instance in each x-request-id. Once 45 calls (30%) are out, instance 1 is
 * killed; later calls go to the two survivors, as a load balancer would route them.
 *
 * The dangerous moment is between a call's commit and its answer: a call (no idempotency key) is
 * checked and recorded charged by one statement, batched with the calls of the same moment. A
 * test-only trigger in the throwaway schema holds instance 1's charges for 5 seconds, so the kill
 * always catches several there: half of those database sessions are then terminated (their
 * statement rolls back: the calls leave no row at all), the other half complete after the process
 * died (`charged`, but the 200 never left). Both cases happen in every run instead of by luck.
 * A held statement holds its keys' balance rows, so each call sent to instance 1 uses a key of its
 * own (the survivors share one): the hold then stalls nothing but instance 1's own calls, as a
 * real statement's few milliseconds would.
 * (Calls with an idempotency key, pending between their reservation and their settlement, are
 * killed the same way in idempotent-retries.test.ts.)
 *
 * The invariant, precisely:
 * - every 200 a client received is one `charged` usage row with that request id;
 * - a `charged` row whose 200 never arrived belongs to a call that was in flight on the killed
 *   instance;
 * - nothing is left pending, so refundAbandoned() (the server's sweeper, here without its 120 s
 *   lease) has nothing to refund, and `used` is the sum of the charged rows, which is what
 *   /v1/me/credits and /v1/me/usage report on the survivors.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createPostgresStore } from "../../../src/adapters/postgres/index.ts";
import { testDatabaseUrl, testRedisUrl, uniqueName } from "../../helpers/services.ts";
import { CALCULATOR, type CallRecord, callTool, getJson } from "./calls.ts";
import { type Cluster, createCluster, type TestKey } from "./cluster.ts";
import { holdSettlements } from "./hold.ts";

const TOTAL = 150;
const IN_FLIGHT = 24;
const KILL_AFTER = 45;
const VICTIM = 1;
const COST = 3;
const BALANCE = 100_000;
const CONFIG = { plans: { builder: { rpm: 1000, minCredits: COST } } };
/** How long the victim's charges are held, in seconds. */
const HOLD_S = 5;
/** Database sessions holding charges on the victim when it is killed, at least. */
const MIN_HELD = 3;

interface Row {
  key_id: string;
  request_id: string;
  status: "pending" | "charged" | "refunded";
  credits: number;
  http_status: number | null;
}

const database = testDatabaseUrl();
const redis = testRedisUrl();

function instanceOf(requestId: string): number {
  const match = /-i(\d+)$/.exec(requestId);
  assert.ok(match?.[1], `request id ${requestId} names its instance`);
  return Number(match[1]);
}

if (database.url === undefined || redis.url === undefined) {
  it("an instance killed mid-burst", { skip: database.skip || redis.skip }, () => {});
} else {
  const databaseUrl = database.url;
  const redisUrl = redis.url;

  describe("an instance killed with SIGKILL in the middle of a burst", () => {
    let cluster: Cluster | undefined;
    let key: TestKey;
    /** The key of each call sent to the victim, by call number. */
    const victimKeys = new Map<number, TestKey>();
    let urls: string[] = [];
    const calls: CallRecord[] = [];
    let sentAtKill = 0;
    let inFlightOnVictimAtKill = 0;
    /** Request ids of the calls held in their charge at the kill: terminated, and left to finish. */
    let terminated: string[] = [];
    let finished: string[] = [];
    let rowsBefore: Row[] = [];
    let usedBefore = 0;

    const used = async (): Promise<number> => {
      assert.ok(cluster);
      // The schema is this test's own: every key in it is one of this test's.
      const [row] = await cluster.query<{ used: number }>(
        "SELECT coalesce(sum(used), 0)::integer AS used FROM credit_balances",
      );
      return row?.used ?? 0;
    };
    const rows = async (): Promise<Row[]> => {
      assert.ok(cluster);
      return cluster.query<Row>(
        "SELECT key_id, request_id, status, credits, http_status FROM usage_calls ORDER BY seq",
      );
    };

    before(async () => {
      const c = await createCluster({ databaseUrl, redisUrl, config: CONFIG });
      cluster = c;
      const tag = uniqueName("c");
      // The victim's connections carry their own application_name (a libpq URL parameter).
      const victimApp = `victim-${tag}`;
      const victimUrl = new URL(databaseUrl);
      victimUrl.searchParams.set("application_name", victimApp);
      key = await c.createKey("builder", BALANCE);
      for (let i = VICTIM; i < TOTAL; i += 3) victimKeys.set(i, await c.createKey("builder", BALANCE));
      await c.query(holdSettlements(victimApp, HOLD_S));
      const [first, third] = await c.start(2);
      // Its statements may outlive the hold (TOOLRUN_DB_TIMEOUT_MS would cancel them at 5 s).
      const [victim] = await c.start(1, {
        TOOLRUN_DATABASE: victimUrl.toString(),
        TOOLRUN_DB_TIMEOUT_MS: "30000",
      });
      assert.ok(first && victim && third);
      urls = [first.url, victim.url, third.url];

      const sessions = (prefix: string) =>
        c.query<{ pid: number; name: string; age_ms: number }>(
          `SELECT pid, application_name AS name,
                  (extract(epoch FROM clock_timestamp() - query_start) * 1000)::float8 AS age_ms
           FROM pg_stat_activity WHERE starts_with(application_name, $1) ORDER BY query_start DESC`,
          [prefix],
        );

      const inFlight = [0, 0, 0];
      let next = 0;
      let killed = false;
      const worker = async (): Promise<void> => {
        while (next < TOTAL) {
          const i = next++;
          const live = killed ? [0, 1, 2].filter((n) => n !== VICTIM) : [0, 1, 2];
          const instance = live[i % live.length] ?? 0;
          inFlight[instance] = (inFlight[instance] ?? 0) + 1;
          const secret = (instance === VICTIM ? victimKeys.get(i) : key)?.key ?? "";
          const record = await callTool(urls[instance] ?? "", instance, secret, `${tag}-${i}-i${instance}`);
          inFlight[instance] = (inFlight[instance] ?? 0) - 1;
          calls.push(record);
        }
      };
      const killer = async (): Promise<void> => {
        for (let n = 0; n < 1000 && next < KILL_AFTER; n++) await sleep(5);
        let held: { pid: number; name: string; age_ms: number }[] = [];
        for (let n = 0; n < 500 && held.length < MIN_HELD; n++) {
          held = await sessions(`held:${tag}-`);
          if (held.length < MIN_HELD) await sleep(10);
        }
        sentAtKill = next;
        inFlightOnVictimAtKill = inFlight[VICTIM] ?? 0;
        victim.child.kill("SIGKILL");
        killed = true;
        // The newest half, well inside their hold, is terminated: those results are never recorded.
        const cut = held.slice(0, Math.ceil(held.length / 2)).filter((h) => h.age_ms < (HOLD_S - 2) * 1000);
        terminated = cut.map((h) => h.name.slice("held:".length));
        finished = held.filter((h) => !cut.includes(h)).map((h) => h.name.slice("held:".length));
        await c.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [
          cut.map((h) => h.pid),
        ]);
      };
      await Promise.all([killer(), ...Array.from({ length: IN_FLIGHT }, worker)]);
      assert.ok(killed, "the victim was killed during the burst");
      // Wait until every session of the dead process has ended (held ones within HOLD_S seconds).
      for (let n = 0; n < 200; n++) {
        const left = [...(await sessions(victimApp)), ...(await sessions(`held:${tag}-`))];
        if (left.length === 0) break;
        await sleep(50);
      }
      rowsBefore = await rows();
      usedBefore = await used();
    });

    after(async () => {
      await cluster?.cleanup();
    });

    it("kills the instance while calls are in flight on it; the survivors answer every call", (t) => {
      assert.equal(calls.length, TOTAL);
      assert.ok(sentAtKill >= KILL_AFTER && sentAtKill < TOTAL, `killed after ${sentAtKill} calls`);
      assert.ok(terminated.length + finished.length >= MIN_HELD, "calls were held in their charge");
      assert.ok(terminated.length >= 1 && finished.length >= 1);
      assert.ok(inFlightOnVictimAtKill >= MIN_HELD);
      const toVictim = calls.filter((c) => c.instance === VICTIM);
      for (const call of toVictim) assert.ok(call.status === 200 || call.status === null, call.id);
      for (const call of calls.filter((c) => c.instance !== VICTIM)) {
        assert.equal(call.status, 200, `${call.id}: ${JSON.stringify(call.body)}`);
        assert.equal(call.body?.credits_used, COST);
      }
      const lost = toVictim.filter((c) => c.status === null).length;
      t.diagnostic(
        `killed after ${sentAtKill} calls with ${inFlightOnVictimAtKill} in flight on it: ${lost} responses lost; ` +
          `${terminated.length} held calls terminated, ${finished.length} left to finish`,
      );
    });

    it("every 200 received is a charged row; every other row belongs to a call lost on the killed instance", () => {
      const byId = new Map<string, Row>();
      for (const row of rowsBefore) {
        assert.ok(!byId.has(row.request_id), `one row per call: ${row.request_id}`);
        byId.set(row.request_id, row);
      }
      const sent = new Map(calls.map((c) => [c.id, c]));
      for (const call of calls.filter((c) => c.status === 200)) {
        const { key_id: _, ...row } = byId.get(call.id) ?? { key_id: "" };
        assert.deepEqual(row, {
          request_id: call.id,
          status: "charged",
          credits: COST,
          http_status: 200,
        });
      }
      for (const row of rowsBefore) {
        const call = sent.get(row.request_id);
        assert.ok(call, `row ${row.request_id} is a call a client sent`);
        assert.notEqual(row.status, "refunded", "nothing failed on a live instance");
        if (call.status === 200) continue;
        assert.equal(call.status, null);
        assert.equal(call.instance, VICTIM);
        assert.equal(instanceOf(row.request_id), VICTIM, `${row.request_id} was on the killed instance`);
      }
      // The held calls: terminated ones were never recorded; the others were charged after the death.
      for (const id of terminated) assert.equal(byId.get(id), undefined, id);
      for (const id of finished) assert.equal(byId.get(id)?.status, "charged", id);
      for (const id of [...terminated, ...finished]) assert.equal(sent.get(id)?.status, null, id);
    });

    it("the balance holds exactly the charged calls, and nothing is left pending for the sweep", () => {
      assert.equal(rowsBefore.filter((r) => r.status === "pending").length, 0);
      const held = rowsBefore.filter((r) => r.status === "charged").reduce((sum, r) => sum + r.credits, 0);
      assert.equal(usedBefore, held);
    });

    it("the sweep finds nothing to refund; the balance is the charged calls, everywhere", async () => {
      assert.ok(cluster);
      const store = await createPostgresStore({ url: databaseUrl, schema: cluster.schema, poolSize: 2 });
      try {
        assert.equal(await store.refundAbandoned(new Date(Date.now() + 1000).toISOString()), 0);
      } finally {
        await store.close();
      }

      const after = await rows();
      assert.deepEqual(after, rowsBefore);
      const charged = after.filter((r) => r.status === "charged");
      const usedAfter = await used();
      assert.equal(usedAfter, charged.length * COST);
      // Charged = delivered 200s + results settled on the killed instance whose response was lost.
      const delivered = calls.filter((c) => c.status === 200).length;
      const lostButCharged = charged.filter(
        (r) => !calls.some((c) => c.id === r.request_id && c.status === 200),
      );
      assert.equal(charged.length, delivered + lostButCharged.length);
      assert.ok(lostButCharged.length >= finished.length);

      const [monthly] = await cluster.query<{ calls: number; active_calls: number; credits: number }>(
        `SELECT sum(calls)::integer AS calls, sum(active_calls)::integer AS active_calls,
                sum(credits)::integer AS credits FROM tool_usage_monthly`,
      );
      assert.deepEqual(
        { ...monthly },
        { calls: after.length, active_calls: charged.length, credits: usedAfter },
      );

      for (const k of [key, ...victimKeys.values()]) {
        const own = after.filter((r) => r.key_id === k.id);
        const ownUsed = own.filter((r) => r.status === "charged").length * COST;
        for (const url of urls.filter((_, n) => n !== VICTIM)) {
          const credits = await getJson(url, "/v1/me/credits", k.key);
          assert.equal(credits.status, 200);
          assert.equal(credits.body.credits_used, ownUsed);
          assert.equal(credits.body.credits_remaining, BALANCE - ownUsed);
          const usage = await getJson(url, "/v1/me/usage?limit=1", k.key);
          assert.equal(usage.status, 200);
          assert.equal(usage.body.credits_used, ownUsed);
          assert.equal(usage.body.calls, own.length);
          const byTool = own.length === 0 ? [] : [{ tool: CALCULATOR, calls: own.length, credits: ownUsed }];
          assert.deepEqual(usage.body.by_tool, byTool);
        }
      }
    });
  });
}
