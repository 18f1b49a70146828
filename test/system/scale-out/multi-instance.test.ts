/**
 * Three `toolrun serve --no-migrate` processes on one PostgreSQL schema (windows in Redis,
 * or in PostgreSQL without Redis) behave as one service under a concurrent burst spread
 * round-robin over them: no credit is spent twice and no window admits more than its limit.
 *
 * Numbers (TOOLRUN_CONFIG): `free` rpm 25, `builder` rpm 1000 with a per-call minimum of 3.
 * - credit key: builder, 50 credits, the calculator costs max(1, 3) = 3 -> exactly
 *   floor(50 / 3) = 16 of 60 calls succeed, 44 get 402 insufficient_credits, 2 credits remain.
 * - rate key: free, 10,000 credits, costs 2 -> exactly 25 of 80 calls succeed in one UTC-minute
 *   window, 55 get 429 rate_limited with Retry-After.
 * Both keys' 140 calls are in flight at once. Afterwards the ledger in PostgreSQL, /v1/me/credits
 * and /v1/me/usage on every instance agree to the credit. The two deployments (windows in Redis,
 * windows in PostgreSQL) run side by side, each in its own schema and prefix, and fire in the same
 * UTC minute (started with at least 15 s of it left), which also shows they do not see each other.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertProblem } from "../../helpers/problem.ts";
import { testDatabaseUrl, testRedisUrl, uniqueName } from "../../helpers/services.ts";
import {
  CALCULATOR,
  type CallRecord,
  callTool,
  count,
  getJson,
  type Json,
  WINDOW_MS,
  waitForRoomInWindow,
  windowOf,
} from "./calls.ts";
import { type Cluster, createCluster, type TestKey } from "./cluster.ts";

const INSTANCES = 3;
const CONFIG = { plans: { free: { rpm: 25 }, builder: { rpm: 1000, minCredits: 3 } } };

const CREDIT = { plan: "builder", balance: 50, cost: 3, calls: 60, admitted: 16 } as const;
const RATE = { plan: "free", balance: 10_000, cost: 2, calls: 80, rpm: 25 } as const;

const database = testDatabaseUrl();
const redis = testRedisUrl();

interface Burst {
  readonly credit: CallRecord[];
  readonly rate: CallRecord[];
  /** GET /v1/me/credits of the rate key on each instance, right after the burst. */
  readonly rateReadsAfter: number[];
}

function _problemCode(call: CallRecord): unknown {
  return call.body?.code;
}

/** A refused call: the problem document, answered under the request id the call sent. */
function assertRefused(call: CallRecord, status: number, code: string): void {
  assert.equal(call.headers?.get("x-request-id"), call.id);
  assertProblem(call, status, code, null);
}

/** `RateLimit: "minute";r=<remaining>;t=<seconds>` -> remaining. */
function remainingOf(call: CallRecord): number {
  const match = /;r=(\d+);/.exec(call.headers?.get("ratelimit") ?? "");
  assert.ok(match?.[1], `${call.id} has a RateLimit header`);
  return Number(match[1]);
}

function range(from: number, to: number, step = 1): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n += step) out.push(n);
  return out;
}

const ascending = (a: number, b: number) => a - b;

interface Deployment {
  readonly cluster: Cluster;
  readonly urls: string[];
  readonly creditKey: TestKey;
  readonly rateKey: TestKey;
}

/** A migrated schema, the two keys (before the first start: no bootstrap key) and 3 instances. */
async function deploy(databaseUrl: string, redisUrl: string | null): Promise<Deployment> {
  const cluster = await createCluster({ databaseUrl, redisUrl, config: CONFIG });
  try {
    const [creditKey, rateKey] = await Promise.all([
      cluster.createKey(CREDIT.plan, CREDIT.balance),
      cluster.createKey(RATE.plan, RATE.balance),
    ]);
    const urls = (await cluster.start(INSTANCES)).map((server) => server.url);
    return { cluster, urls, creditKey, rateKey };
  } catch (error) {
    await cluster.cleanup();
    throw error;
  }
}

/** 140 calls at once, 3 of every 7 on the credit key, call i on instance i % 3. */
async function fire({ urls, creditKey, rateKey }: Deployment): Promise<Burst> {
  const tag = uniqueName("m");
  const calls = range(0, CREDIT.calls + RATE.calls - 1).map((i) => {
    const kind = i % 7 < 3 ? "credit" : "rate";
    const instance = i % INSTANCES;
    const key = kind === "credit" ? creditKey : rateKey;
    return callTool(urls[instance] ?? "", instance, key.key, `${tag}-${kind}-${i}-i${instance}`).then(
      (record) => ({ kind, record }),
    );
  });
  const done = await Promise.all(calls);
  const rateReadsAfter = await Promise.all(
    urls.map(async (url) => (await getJson(url, "/v1/me/credits", rateKey.key)).status),
  );
  return {
    credit: done.filter((c) => c.kind === "credit").map((c) => c.record),
    rate: done.filter((c) => c.kind === "rate").map((c) => c.record),
    rateReadsAfter,
  };
}

interface Scenario {
  readonly name: string;
  readonly redisUrl: string | null;
  deployment?: Deployment;
  burst?: Burst;
}

/**
 * Both deployments (Redis windows, PostgreSQL windows) start together and fire in the same UTC
 * minute, each in its own schema and prefix; then each one's figures are checked.
 */
function scaleOut(databaseUrl: string, scenarios: Scenario[]): void {
  describe("three instances behave as one", () => {
    before(async () => {
      const deployed = await Promise.allSettled(scenarios.map((s) => deploy(databaseUrl, s.redisUrl)));
      deployed.forEach((result, n) => {
        const scenario = scenarios[n];
        if (scenario && result.status === "fulfilled") scenario.deployment = result.value;
      });
      for (const result of deployed) if (result.status === "rejected") throw result.reason;
      await waitForRoomInWindow(15_000);
      const bursts = await Promise.all(scenarios.map((s) => (s.deployment ? fire(s.deployment) : undefined)));
      bursts.forEach((burst, n) => {
        const scenario = scenarios[n];
        if (scenario) scenario.burst = burst;
      });
    });

    after(async () => {
      await Promise.all(scenarios.map((s) => s.deployment?.cluster.cleanup()));
    });

    for (const scenario of scenarios) checks(scenario);
  });
}

function checks(scenario: Scenario): void {
  describe(scenario.name, () => {
    let cluster: Cluster;
    let urls: string[];
    let creditKey: TestKey;
    let rateKey: TestKey;
    let burst: Burst;

    before(() => {
      assert.ok(scenario.deployment && scenario.burst, "deployed and fired");
      ({ cluster, urls, creditKey, rateKey } = scenario.deployment);
      burst = scenario.burst;
    });

    it(`credits bind: exactly ${CREDIT.admitted} of ${CREDIT.calls} calls succeed, the rest 402`, () => {
      const { credit } = burst;
      assert.equal(credit.length, CREDIT.calls);
      const ok = credit.filter((c) => c.status === 200);
      assert.equal(ok.length, CREDIT.admitted);
      for (const call of credit.filter((c) => c.status !== 200)) {
        assertRefused(call, 402, "insufficient_credits");
        assert.equal(call.body?.credits_used, 0);
        assert.equal(call.body?.credits_remaining, CREDIT.balance - CREDIT.admitted * CREDIT.cost);
      }
      // Each success saw a different balance: the reservations were serialized across instances.
      for (const call of ok) assert.equal(call.body?.credits_used, CREDIT.cost);
      assert.deepEqual(
        ok.map((c) => Number(c.body?.credits_remaining)).sort(ascending),
        range(1, CREDIT.admitted)
          .map((k) => CREDIT.balance - k * CREDIT.cost)
          .sort(ascending),
      );
      assert.deepEqual(new Set(credit.map((c) => c.instance)).size, INSTANCES);
    });

    it(`the rate limit binds: exactly ${RATE.rpm} of ${RATE.calls} calls in one window, the rest 429`, () => {
      const { rate } = burst;
      const first = Math.min(...rate.map((c) => c.sentAt));
      const last = Math.max(...rate.map((c) => c.receivedAt));
      assert.equal(windowOf(first), windowOf(last), "the burst stayed inside one UTC minute");
      const windowEnd = windowOf(first) + WINDOW_MS;

      const ok = rate.filter((c) => c.status === 200);
      assert.equal(ok.length, RATE.rpm);
      // Every slot was handed out once: the remaining counts seen are 24, 23, ..., 0.
      assert.deepEqual(ok.map(remainingOf).sort(ascending), range(0, RATE.rpm - 1));
      assert.deepEqual(
        ok.map((c) => Number(c.body?.credits_remaining)).sort(ascending),
        range(1, RATE.rpm)
          .map((k) => RATE.balance - k * RATE.cost)
          .sort(ascending),
      );
      for (const call of rate.filter((c) => c.status !== 200)) {
        assertRefused(call, 429, "rate_limited");
        assert.equal(remainingOf(call), 0);
        const retryAfter = Number(call.headers?.get("retry-after"));
        assert.ok(Number.isInteger(retryAfter), `${call.id}: Retry-After is whole seconds`);
        assert.equal(call.body?.retry_after, retryAfter);
        // The server's clock read lies between sending and receiving: bounds for the window's end.
        const low = Math.max(1, Math.ceil((windowEnd - call.receivedAt) / 1000));
        const high = Math.max(1, Math.ceil((windowEnd - call.sentAt) / 1000));
        assert.ok(low <= retryAfter && retryAfter <= high, `Retry-After ${retryAfter} in [${low}, ${high}]`);
      }
      // The window is full on every instance, not only on the ones that refused.
      assert.deepEqual(
        burst.rateReadsAfter,
        urls.map(() => 429),
      );
    });

    it("the ledger in PostgreSQL holds exactly the calls that succeeded", async () => {
      const c = cluster;
      for (const [key, spec, calls] of [
        [creditKey, CREDIT, burst.credit],
        [rateKey, RATE, burst.rate],
      ] as const) {
        const ok = calls.filter((c) => c.status === 200);
        const balances = await c.query<{ used: number }>(
          "SELECT used FROM credit_balances WHERE account_id = (SELECT account_id FROM api_keys WHERE id = $1)",
          [key.id],
        );
        assert.deepEqual(
          balances.map((b) => b.used),
          [ok.length * spec.cost],
        );
        const rows = await c.query<{
          request_id: string;
          status: string;
          credits: number;
          http_status: number;
        }>("SELECT request_id, status, credits, http_status FROM usage_calls WHERE key_id = $1", [key.id]);
        assert.deepEqual(rows.map((r) => r.request_id).sort(), ok.map((c) => c.id).sort());
        for (const row of rows) {
          assert.deepEqual(
            { status: row.status, credits: row.credits, http_status: row.http_status },
            {
              status: "charged",
              credits: spec.cost,
              http_status: 200,
            },
          );
        }
        const monthly = await c.query<{
          tool: string;
          calls: number;
          active_calls: number;
          credits: number;
        }>(
          "SELECT tool, calls, active_calls, credits FROM tool_usage_monthly WHERE account_id = (SELECT account_id FROM api_keys WHERE id = $1)",
          [key.id],
        );
        assert.deepEqual(monthly, [
          { tool: CALCULATOR, calls: ok.length, active_calls: ok.length, credits: ok.length * spec.cost },
        ]);
      }
    });

    it("/v1/me/credits and /v1/me/usage agree with the ledger on every instance", async () => {
      // The rate key's window is spent; give it the builder plan's 1000 rpm so it can read.
      await cluster.cli(["keys", "set-plan", rateKey.id, "builder"]);
      for (const [key, spec, calls] of [
        [creditKey, CREDIT, burst.credit],
        [rateKey, RATE, burst.rate],
      ] as const) {
        const ok = calls.filter((c) => c.status === 200);
        const used = ok.length * spec.cost;
        for (const url of urls) {
          const credits = await getJson(url, "/v1/me/credits", key.key);
          assert.equal(credits.status, 200, JSON.stringify(credits.body));
          assert.equal(credits.body.monthly_allowance, spec.balance);
          assert.equal(credits.body.credits_used, used);
          assert.equal(credits.body.credits_remaining, spec.balance - used);

          const usage = await getJson(url, "/v1/me/usage?limit=100", key.key);
          assert.equal(usage.status, 200, JSON.stringify(usage.body));
          assert.equal(usage.body.credits_used, used);
          assert.equal(usage.body.calls, ok.length);
          assert.deepEqual(usage.body.by_tool, [{ tool: CALCULATOR, calls: ok.length, credits: used }]);
          assert.equal(usage.body.next_cursor, null);
          const recent = usage.body.recent as Json[];
          assert.deepEqual(recent.map((r) => r.request_id).sort(), ok.map((c) => c.id).sort());
          assert.equal(
            count(recent, (r) => r.status === "charged" && r.credits === spec.cost),
            ok.length,
          );
        }
      }
    });
  });
}

if (database.url === undefined) {
  it("scale-out: several instances behave as one", { skip: database.skip }, () => {});
} else {
  const scenarios: Scenario[] = [];
  if (redis.url === undefined) it("three instances, windows in Redis", { skip: redis.skip }, () => {});
  else scenarios.push({ name: "on PostgreSQL, windows in Redis", redisUrl: redis.url });
  scenarios.push({ name: "on PostgreSQL alone, windows in PostgreSQL", redisUrl: null });
  scaleOut(database.url, scenarios);
}
