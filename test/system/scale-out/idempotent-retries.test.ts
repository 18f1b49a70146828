/**
 * An instance killed with SIGKILL while calls with idempotency keys are in flight, each
 * retried by its client on another instance with the same key, is never charged twice, and every
 * 200 the client finally holds was charged. Three instances on PostgreSQL; 30 calculator calls with
 * keys `idem-N`, all sent to instance 0 (the victim), then retried on the two survivors until they
 * get a final answer (a 409 `idempotency_key_in_use`, a 503 or a lost connection is retried after a
 * moment, as docs/retries.md tells clients to).
 *
 * The dangerous moment is between a call's reservation and its settlement, when its claim is in
 * flight. As in crash.test.ts, a test-only trigger holds the victim's settlements, so the kill
 * always catches several there: half of those database sessions are terminated (the call stays
 * `pending` with its claim in flight until the survivors' sweep, with TOOLRUN_CALL_ABANDON_S=2,
 * refunds it and frees the key: the retry then runs), the other half commit after the process died
 * (charged with the answer stored: the retry gets it replayed). Both happen in every run.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerProcess } from "../../helpers/process.ts";
import { testDatabaseUrl, uniqueName } from "../../helpers/services.ts";
import { CALCULATOR, CALCULATOR_INPUT, type Json } from "./calls.ts";
import { type Cluster, createCluster, type TestKey } from "./cluster.ts";
import { holdSettlements } from "./hold.ts";

const CALLS = 30;
const COST = 3;
const CONFIG = { plans: { builder: { rpm: 1000, minCredits: COST } } };
const HOLD_S = 4;
const MIN_HELD = 4;

interface Answer {
  readonly status: number | null;
  readonly replayed: boolean;
  readonly body: Json | null;
}

async function post(
  baseUrl: string,
  key: string,
  idempotencyKey: string,
  requestId: string,
): Promise<Answer> {
  try {
    const res = await fetch(`${baseUrl}/v1/tool/${CALCULATOR}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": idempotencyKey,
        "x-request-id": requestId,
      },
      body: JSON.stringify(CALCULATOR_INPUT),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json()) as Json;
    return { status: res.status, replayed: res.headers.get("idempotent-replayed") === "true", body };
  } catch {
    return { status: null, replayed: false, body: null };
  }
}

const database = testDatabaseUrl();

if (database.url === undefined) {
  it("idempotent retries across a killed instance", { skip: database.skip }, () => {});
} else {
  const databaseUrl = database.url;

  describe("idempotent retries when an instance is killed with SIGKILL mid-call", () => {
    let cluster: Cluster | undefined;
    let key: TestKey;
    let survivors: ServerProcess[] = [];
    const firstAnswers: Answer[] = [];
    const finalAnswers: Answer[] = [];
    let terminated: string[] = [];
    let committedAfterKill: string[] = [];

    const heldSessions = async (): Promise<{ pid: number; name: string }[]> => {
      assert.ok(cluster);
      return cluster.query(
        "SELECT pid, application_name AS name FROM pg_stat_activity WHERE application_name LIKE 'held:idem-%'",
      );
    };

    before(async () => {
      const c = await createCluster({ databaseUrl, redisUrl: null, config: CONFIG });
      cluster = c;
      const victimApp = `victim-${uniqueName("i")}`;
      const victimUrl = new URL(databaseUrl);
      victimUrl.searchParams.set("application_name", victimApp);
      await c.query(holdSettlements(victimApp, HOLD_S));
      key = await c.createKey("builder", 100_000);
      const [victim] = await c.start(1, { TOOLRUN_DATABASE: victimUrl.toString() });
      survivors = await c.start(2, { TOOLRUN_CALL_ABANDON_S: "2" });
      assert.ok(victim);

      // Every call goes to the victim; the kill comes while several are held in settlement.
      const sent = Array.from({ length: CALLS }, (_, i) =>
        post(victim.url, key.key, `idem-${i}`, `idem-${i}-try-0`),
      );
      let held: { pid: number; name: string }[] = [];
      for (let wait = 0; wait < 100 && held.length < MIN_HELD; wait++) {
        await sleep(50);
        held = await heldSessions();
      }
      assert.ok(held.length >= MIN_HELD, `only ${held.length} calls were held in settlement`);
      victim.child.kill("SIGKILL");
      const half = held.slice(0, Math.ceil(held.length / 2));
      terminated = half.map((s) => s.name.slice("held:".length).replace(/-try-0$/, ""));
      committedAfterKill = held
        .slice(half.length)
        .map((s) => s.name.slice("held:".length).replace(/-try-0$/, ""));
      await c.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [
        half.map((s) => s.pid),
      ]);
      firstAnswers.push(...(await Promise.all(sent)));
      // The sessions left alone commit their charge (and answer) after the process died.
      for (let wait = 0; wait < 200 && (await heldSessions()).length > 0; wait++) await sleep(50);

      // Each client retries what it does not hold a final answer for, on a survivor, same key.
      await Promise.all(
        firstAnswers.map(async (first, i) => {
          let answer = first;
          for (let attempt = 1; attempt <= 120 && isRetryable(answer); attempt++) {
            if (attempt > 1) await sleep(250);
            const survivor = survivors[attempt % survivors.length] as ServerProcess;
            answer = await post(survivor.url, key.key, `idem-${i}`, `idem-${i}-try-${attempt}`);
          }
          finalAnswers[i] = answer;
        }),
      );
    });

    after(async () => {
      await cluster?.cleanup();
    });

    it("caught calls in both dangerous states: charged but unanswered, and reserved but never settled", () => {
      assert.ok(terminated.length >= 2, `terminated: ${terminated}`);
      assert.ok(committedAfterKill.length >= 2, `committed after the kill: ${committedAfterKill}`);
      for (const id of [...terminated, ...committedAfterKill]) {
        assert.equal(firstAnswers[Number(id.slice("idem-".length))]?.status, null, `${id} got no answer`);
      }
    });

    it("gives every client a final 200; a retry of a call charged after the kill is its replay", () => {
      assert.deepEqual(
        finalAnswers.map((a) => a.status),
        Array.from({ length: CALLS }, () => 200),
      );
      for (const id of committedAfterKill) {
        const answer = finalAnswers[Number(id.slice("idem-".length))];
        assert.equal(answer?.replayed, true, `${id} was replayed`);
        assert.equal(answer?.body?.request_id, `${id}-try-0`);
      }
      for (const id of terminated) {
        assert.equal(finalAnswers[Number(id.slice("idem-".length))]?.replayed, false, `${id} ran again`);
      }
    });

    it("charged each key at most once, and every 200 the clients hold was charged", async () => {
      assert.ok(cluster);
      const rows = await cluster.query<{ request_id: string; status: string; credits: number }>(
        "SELECT request_id, status, credits FROM usage_calls WHERE key_id = $1",
        [key.id],
      );
      const charged = rows.filter((r) => r.status === "charged");
      assert.equal(rows.filter((r) => r.status === "pending").length, 0, "the sweep left nothing pending");
      for (let i = 0; i < CALLS; i++) {
        const ofKey = charged.filter((r) => r.request_id.startsWith(`idem-${i}-try-`));
        assert.equal(ofKey.length, 1, `idem-${i} charged ${ofKey.length} times`);
        assert.equal(
          ofKey[0]?.request_id,
          finalAnswers[i]?.body?.request_id,
          `idem-${i}'s 200 is its charged call`,
        );
      }
      const [balance] = await cluster.query<{ used: number }>(
        "SELECT used FROM credit_balances WHERE account_id = (SELECT account_id FROM api_keys WHERE id = $1)",
        [key.id],
      );
      assert.equal(balance?.used, CALLS * COST);
      const survivor = survivors[0] as ServerProcess;
      const credits = await fetch(`${survivor.url}/v1/me/credits`, {
        headers: { authorization: `Bearer ${key.key}` },
      }).then((r) => r.json() as Promise<Json>);
      assert.equal(credits.credits_used, CALLS * COST);
    });
  });
}

/** What docs/retries.md tells a client to retry: no answer, 409 in use, 429 and 5xx. */
function isRetryable(answer: Answer): boolean {
  return answer.status === null || answer.status === 409 || answer.status === 429 || answer.status >= 500;
}
