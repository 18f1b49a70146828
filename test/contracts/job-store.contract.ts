/**
 * The jobs part of the Store, the same for every adapter: each adapter's test file calls
 * `describeJobStoreContract` with a database two instances (two stores) can open, so the limit of
 * live jobs per account is checked across instances at once, not only within one.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it, type TestContext } from "node:test";
import type { JobEnd, NewJob } from "../../src/ports/job-store.ts";
import type { Store } from "../../src/ports/store.ts";
import { newKey, reservation } from "./store.contract.ts";

export interface JobDatabase {
  /** A migrated store on the database, as one more instance would open it. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

const NOW = "2026-11-15T12:00:00.000Z";
const LEASE = "2026-11-15T12:02:00.000Z";
const AFTER_LEASE = "2026-11-15T12:02:00.000Z";
const TOMORROW = "2026-11-16T12:00:00.000Z";
/** A sweep of abandoned calls for those begun before 12:01: the job's reservation (12:00) is one. */
const SWEPT_BEFORE = "2026-11-15T12:01:00.000Z";
/** A sweep once the lease (12:02) lapsed. */
const SWEPT_AFTER_LEASE = "2026-11-15T12:03:00.000Z";

function job(accountId: string, overrides: Partial<NewJob> = {}): NewJob {
  return {
    id: `job_${randomUUID().replaceAll("-", "")}`,
    accountId,
    keyId: "key_1",
    tool: "slow-convert",
    callId: `call_${randomUUID()}`,
    createdAt: NOW,
    leaseOwner: "instance-a",
    leaseExpiresAt: LEASE,
    ...overrides,
  };
}

function ending(id: string, status: JobEnd["status"], overrides: Partial<JobEnd> = {}): JobEnd {
  return {
    id,
    status,
    finishedAt: "2026-11-15T12:01:00.000Z",
    expiresAt: TOMORROW,
    creditsUsed: status === "succeeded" ? 5 : 0,
    result: status === "succeeded" ? '{"outputs":{}}' : null,
    problem: status === "succeeded" ? null : '{"code":"processing_error"}',
    ...overrides,
  };
}

export function describeJobStoreContract(name: string, makeDatabase: () => Promise<JobDatabase>): void {
  describe(`job store contract: ${name}`, () => {
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

    it("creates a queued job its account finds, and no other account finds", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = await store.createJob(job("acc_a", { id: "job_one" }), 5, NOW);
      assert.equal(made.created, true);
      const found = await store.getJob("acc_a", "job_one");
      assert.equal(found?.status, "queued");
      assert.equal(found?.tool, "slow-convert");
      assert.equal(found?.createdAt, NOW);
      assert.equal(found?.startedAt, null);
      assert.equal(await store.getJob("acc_b", "job_one"), null);
    });

    it("holds the account to its live jobs when two instances create at once", async (t) => {
      const [a, b] = (await stores(t, 2)) as [Store, Store];
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).createJob(job("acc_cap"), 3, NOW)),
      );
      assert.equal(results.filter((r) => r.created).length, 3);
      assert.ok(results.filter((r) => !r.created).every((r) => !r.created && r.reason === "limit"));
      // Another account has its own places.
      assert.equal((await a.createJob(job("acc_other"), 3, NOW)).created, true);
    });

    it("frees a place when a job ends, and when its lease lapsed", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const first = job("acc_a");
      await store.createJob(first, 1, NOW);
      assert.deepEqual(await store.createJob(job("acc_a"), 1, NOW), { created: false, reason: "limit" });
      assert.equal(await store.endJob(ending(first.id, "failed"), []), true);
      const second = job("acc_a");
      assert.equal((await store.createJob(second, 1, NOW)).created, true);
      assert.equal((await store.createJob(job("acc_a"), 1, AFTER_LEASE)).created, true);
    });

    it("gives the job an idempotency key made, whatever it asked for, and creates none", async (t) => {
      const [a, b] = (await stores(t, 2)) as [Store, Store];
      const idempotency = { key: "k-1", fingerprint: "fp-1" };
      const results = await Promise.all([
        a.createJob(job("acc_a", { idempotency }), 5, NOW),
        b.createJob(job("acc_a", { idempotency: { key: "k-1", fingerprint: "fp-2" } }), 5, NOW),
      ]);
      const made = results.filter((r) => r.created);
      assert.equal(made.length, 1);
      const other = results.find((r) => !r.created);
      assert.ok(other && !other.created && other.reason === "exists");
      assert.equal(other.job.id, made[0]?.job.id);
      assert.equal((await a.listJobs("acc_a", { limit: 10, before: null })).length, 1);
      // The same key on another account is another job.
      assert.equal((await a.createJob(job("acc_b", { idempotency }), 5, NOW)).created, true);
    });

    it("runs, settles and ends a job once", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = job("acc_a");
      await store.createJob(made, 5, NOW);
      assert.equal(await store.markJobRunning(made.id, "2026-11-15T12:00:01.000Z"), true);
      assert.equal(await store.markJobRunning(made.id, "2026-11-15T12:00:02.000Z"), false);
      assert.equal(await store.settleJob(made.id), true);
      assert.equal((await store.getJob("acc_a", made.id))?.status, "running");
      assert.equal(await store.endJob(ending(made.id, "succeeded"), []), true);
      assert.equal(await store.endJob(ending(made.id, "failed"), []), false);
      const ended = await store.getJob("acc_a", made.id);
      assert.equal(ended?.status, "succeeded");
      assert.equal(ended?.creditsUsed, 5);
      assert.equal(ended?.result, '{"outputs":{}}');
      assert.equal(ended?.startedAt, "2026-11-15T12:00:01.000Z");
    });

    it("cancels a queued or running job, never a settling or ended one", async (t) => {
      const [a, b] = (await stores(t, 2)) as [Store, Store];
      const running = job("acc_a");
      await a.createJob(running, 5, NOW);
      await a.markJobRunning(running.id, NOW);
      const { id: _, status: __, ...rest } = ending(running.id, "canceled");
      assert.equal((await b.cancelJob("acc_a", running.id, rest))?.status, "canceled");
      // The instance running it hears of it when it renews its lease, and cannot settle it.
      assert.equal(await a.renewJobLease(running.id, "instance-a", TOMORROW), "canceled");
      assert.equal(await a.settleJob(running.id), false);
      assert.equal(await a.endJob(ending(running.id, "succeeded"), []), false);
      assert.equal(await b.cancelJob("acc_b", running.id, rest), null);

      const settling = job("acc_a");
      await a.createJob(settling, 5, NOW);
      await a.markJobRunning(settling.id, NOW);
      await a.settleJob(settling.id);
      assert.equal((await b.cancelJob("acc_a", settling.id, rest))?.status, "running");
    });

    it("renews only the lease of its own instance", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = job("acc_a");
      await store.createJob(made, 5, NOW);
      assert.equal(await store.renewJobLease(made.id, "instance-b", TOMORROW), null);
      assert.equal(await store.renewJobLease(made.id, "instance-a", TOMORROW), "queued");
      assert.deepEqual(await store.lapsedJobs(AFTER_LEASE, 10), []);
      assert.equal(await store.renewJobLease("job_none", "instance-a", TOMORROW), null);
    });

    it("lists the lapsed jobs, and ends one only while its lease is still lapsed", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const dead = job("acc_a");
      const alive = job("acc_a", { leaseExpiresAt: TOMORROW });
      await store.createJob(dead, 5, NOW);
      await store.createJob(alive, 5, NOW);
      const lapsed = await store.lapsedJobs(AFTER_LEASE, 10);
      assert.deepEqual(
        lapsed.map((j) => j.id),
        [dead.id],
      );
      // Renewed meanwhile: the sweep leaves it.
      await store.renewJobLease(dead.id, "instance-a", TOMORROW);
      assert.equal(await store.endJob(ending(dead.id, "failed"), [], AFTER_LEASE), false);
      assert.equal(await store.endJob(ending(alive.id, "failed"), [], TOMORROW), true);
    });

    it("lists the account's jobs newest first, by status, a page at a time", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const made = job("acc_a");
        ids.push(made.id);
        await store.createJob(made, 10, NOW);
      }
      await store.createJob(job("acc_b"), 10, NOW);
      await store.markJobRunning(ids[1] as string, NOW);
      await store.settleJob(ids[1] as string);
      const first = await store.listJobs("acc_a", { limit: 3, before: null });
      assert.deepEqual(
        first.map((j) => j.id),
        [ids[4], ids[3], ids[2]],
      );
      const next = await store.listJobs("acc_a", { limit: 3, before: first[2]?.sequence ?? null });
      assert.deepEqual(
        next.map((j) => j.id),
        [ids[1], ids[0]],
      );
      const runningOnes = await store.listJobs("acc_a", { limit: 10, before: null, status: "running" });
      assert.deepEqual(
        runningOnes.map((j) => j.id),
        [ids[1]],
      );
    });

    it("purges ended jobs whose time ran out, never a live one", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const ended = job("acc_a");
      const live = job("acc_a");
      await store.createJob(ended, 5, NOW);
      await store.createJob(live, 5, NOW);
      await store.endJob(ending(ended.id, "failed"), []);
      assert.equal(await store.purgeJobs("2026-11-16T11:59:59.000Z"), 0);
      assert.equal(await store.purgeJobs(TOMORROW), 1);
      assert.equal(await store.getJob("acc_a", ended.id), null);
      assert.notEqual(await store.getJob("acc_a", live.id), null);
    });

    describe("its reservation and the sweep of abandoned calls", () => {
      /** A running job of a new key whose credits (2) are reserved by a run held until `finish`. */
      async function runningJob(store: Store) {
        const key = newKey();
        await store.createKey(key);
        const r = reservation(key.id, { at: NOW, period: "2026-11" });
        const made = job(key.accountId, { callId: r.callId });
        await store.createJob(made, 5, NOW);
        await store.markJobRunning(made.id, NOW);
        const started = Promise.withResolvers<void>();
        const running = Promise.withResolvers<
          { ok: true; value: string } | { ok: false; httpStatus: number; error: Error }
        >();
        const call = store.runReservedCall(r, () => {
          started.resolve();
          return running.promise;
        });
        await started.promise;
        const credits = () => store.creditsUsed(key.accountId, "2026-11");
        return { made, call, credits, finish: running.resolve };
      }

      it("keeps a job's reservation older than the abandon time while its lease holds; its capture charges it once", async (t) => {
        const [store] = (await stores(t)) as [Store];
        const held = await runningJob(store);
        assert.equal(await store.refundAbandoned(SWEPT_BEFORE), 0);
        assert.equal(await held.credits(), 2, "its credits are held all along");
        held.finish({ ok: true, value: "report" });
        assert.deepEqual(await held.call, {
          status: "charged",
          value: "report",
          creditsUsed: 2,
          grantsLeft: 0,
        });
        assert.equal(await held.credits(), 2);
      });

      it("releases it once its lease lapsed, and the sweep of jobs ends the job failed", async (t) => {
        const [store] = (await stores(t)) as [Store];
        const held = await runningJob(store);
        assert.equal(await store.refundAbandoned(SWEPT_AFTER_LEASE), 1);
        assert.equal(await held.credits(), 0);
        const lapsed = await store.lapsedJobs(SWEPT_AFTER_LEASE, 10);
        assert.deepEqual(
          lapsed.map((j) => j.id),
          [held.made.id],
        );
        assert.equal(await store.endJob(ending(held.made.id, "failed"), [], SWEPT_AFTER_LEASE), true);
        assert.equal((await store.getJob(held.made.accountId, held.made.id))?.status, "failed");
        held.finish({ ok: false, httpStatus: 500, error: new Error("the instance died") });
        assert.equal((await held.call).status, "refunded");
        assert.equal(await held.credits(), 0, "released once");
      });

      it("releases the reservation of a job that ended, whatever its lease", async (t) => {
        const [store] = (await stores(t)) as [Store];
        const held = await runningJob(store);
        await store.endJob(ending(held.made.id, "failed"), []);
        assert.equal(await store.refundAbandoned(SWEPT_BEFORE), 1);
        assert.equal(await held.credits(), 0);
        held.finish({ ok: false, httpStatus: 500, error: new Error("ended") });
        await held.call;
      });
    });

    it("removes a job that never ran", async (t) => {
      const [store] = (await stores(t)) as [Store];
      const made = job("acc_a");
      await store.createJob(made, 1, NOW);
      await store.deleteJob(made.id);
      assert.equal(await store.getJob("acc_a", made.id), null);
      assert.equal((await store.createJob(job("acc_a"), 1, NOW)).created, true);
    });
  });
}
