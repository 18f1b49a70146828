/**
 * Jobs over HTTP, on every store: a `required` tool answers 202 with the job, then its result,
 * charged once; `Prefer: respond-async` on an `optional` one; the free plan's one live job; cancel
 * fires the tool's signal and refunds; 402 before anything runs; the same Idempotency-Key gives
 * the same job; another account's job is 404; a failing tool ends the job failed and refunded; a
 * stopping instance lets a job end within its bound and ends the one past it failed, released.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import type { AnyToolDefinition } from "../../src/tools/tool.ts";
import { bearer, createTestApp, json, type TestApp } from "../helpers/app.ts";
import { assertProblem } from "../helpers/problem.ts";
import { type StoreToTest, storesToTest } from "../helpers/stores.ts";

/** A gate each run of the slow tool waits at until the test opens it; it sees its signal fire. */
function slowTool(slug: string, jobs: "optional" | "required") {
  const runs: { open(): void; fail(message: string): void; aborted: Promise<unknown> }[] = [];
  const definition = {
    slug,
    name: "Slow conversion",
    description: "Waits for the test, as a slow upstream would.",
    keywords: [],
    version: "1.0.0",
    defaults: { weight: 3, maxBodyBytes: 1024 },
    inputSchema: { type: "object", properties: { n: { type: "integer" } } },
    outputSchema: { type: "object", required: ["n"], properties: { n: { type: "integer" } } },
    examples: [],
    effects: "external",
    jobs,
    timeoutMs: 600_000,
    run(input: { n?: number }, context: { signal: AbortSignal }) {
      return new Promise((resolve, reject) => {
        const aborted = new Promise((heard) =>
          context.signal.addEventListener("abort", heard, { once: true }),
        );
        runs.push({
          open: () => resolve({ n: input.n ?? 0 }),
          fail: (message) => reject(new Error(message)),
          aborted,
        });
      });
    },
  } as unknown as AnyToolDefinition;
  return { definition, runs };
}

async function appOn(store: StoreToTest, t: TestContext) {
  const required = slowTool("slow-convert", "required");
  const optional = slowTool("slow-optional", "optional");
  // Before the app closes, every run still waiting is let go and its job ends.
  const lifetime = {
    after: (close: () => Promise<void>) =>
      t.after(async () => {
        for (const run of [...required.runs, ...optional.runs]) run.open();
        await app.deps.jobs.idle();
        await close();
      }),
  };
  const app = await createTestApp(
    { store: await store.make(), tools: [required.definition, optional.definition] },
    lifetime,
  );
  return { t: app, required, optional };
}

function start(t: TestApp, key: string, slug: string, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: `/v1/tool/${slug}`,
    headers: json({ ...bearer(key), ...headers }),
    payload: JSON.stringify(body),
  });
}

async function read(t: TestApp, key: string, id: string) {
  return t.app.inject({ method: "GET", url: `/v1/jobs/${id}`, headers: bearer(key) });
}

async function creditsUsed(t: TestApp, key: string): Promise<number> {
  const usage = await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) });
  return usage.json().credits_used as number;
}

/** Waits for the runs the tool has started to reach `count`. */
async function runsStarted(runs: readonly unknown[], count: number): Promise<void> {
  while (runs.length < count) await new Promise((resolve) => setImmediate(resolve));
}

for (const store of storesToTest({ postgres: "system" })) {
  describe(`jobs over HTTP (${store.name})`, () => {
    it("answers a required tool's call 202 with the job, then its result, charged once", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("builder");
      const started = await start(app, key, "slow-convert", { n: 7 });
      assert.equal(started.statusCode, 202, started.body);
      const job = started.json();
      assert.match(job.id, /^job_[0-9a-f]{32}$/);
      assert.equal(started.headers.location, `/v1/jobs/${job.id}`);
      assert.equal(started.headers["retry-after"], "1");
      assert.equal(started.headers["preference-applied"], undefined);
      assert.equal(job.status, "running");
      assert.equal(job.tool, "slow-convert");
      // Its credits are held while it runs.
      const price = await creditsUsed(app, key);
      assert.ok(price > 0);

      await runsStarted(required.runs, 1);
      required.runs[0]?.open();
      await app.deps.jobs.idle();
      const done = (await read(app, key, job.id)).json();
      assert.equal(done.status, "succeeded");
      assert.equal(done.credits_used, price);
      assert.deepEqual(done.result.outputs, { n: 7 });
      assert.equal(done.result.credits_used, price);
      assert.ok(done.finished_at !== null);
      assert.equal(await creditsUsed(app, key), price);
      // Its call is on the books with who made it, as a synchronous call's is.
      const { accountId } = await app.recordOf(key);
      const { calls } = await app.store.listCalls({ limit: 10, cursor: null, accountId });
      assert.deepEqual(
        calls.map((c) => [c.tool, c.origin?.transport, c.origin?.credential]),
        [["slow-convert", "http", "key"]],
      );
    });

    it("runs an optional tool as a job only when asked, saying it applied the preference", async (t) => {
      const { t: app, optional } = await appOn(store, t);
      const key = await app.key("builder");
      const asked = await start(app, key, "slow-optional", { n: 1 }, { prefer: "respond-async, wait=10" });
      assert.equal(asked.statusCode, 202, asked.body);
      assert.equal(asked.headers["preference-applied"], "respond-async");
      await runsStarted(optional.runs, 1);
      optional.runs[0]?.open();
      await app.deps.jobs.idle();

      const sync = start(app, key, "slow-optional", { n: 2 });
      await runsStarted(optional.runs, 2);
      optional.runs[1]?.open();
      const answered = await sync;
      assert.equal(answered.statusCode, 200, answered.body);
      assert.deepEqual(answered.json().outputs, { n: 2 });
    });

    it("holds a free account to one live job, and frees its place when it ends", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("free");
      const first = await start(app, key, "slow-convert", {});
      assert.equal(first.statusCode, 202, first.body);
      const before = await creditsUsed(app, key);
      const refused = await start(app, key, "slow-convert", {});
      const problem = assertProblem(refused, 429, "too_many_jobs");
      assert.equal(refused.headers["retry-after"], "5");
      assert.equal(problem.retry_after, 5);
      assert.equal(await creditsUsed(app, key), before, "nothing charged for the refusal");

      await runsStarted(required.runs, 1);
      required.runs[0]?.open();
      await app.deps.jobs.idle();
      assert.equal((await start(app, key, "slow-convert", {})).statusCode, 202);
    });

    it("cancels a running job: its tool's signal fires and its credits go back", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("builder");
      const job = (await start(app, key, "slow-convert", {})).json();
      await runsStarted(required.runs, 1);
      const canceled = await app.app.inject({
        method: "POST",
        url: `/v1/jobs/${job.id}/cancel`,
        headers: bearer(key),
      });
      assert.equal(canceled.statusCode, 200, canceled.body);
      assert.equal(canceled.json().status, "canceled");
      await required.runs[0]?.aborted;
      await app.deps.jobs.idle();
      assert.equal(await creditsUsed(app, key), 0);
      const after = (await read(app, key, job.id)).json();
      assert.equal(after.status, "canceled");
      assert.equal(after.credits_used, 0);
      // Canceling again answers the job as it is.
      const again = await app.app.inject({
        method: "POST",
        url: `/v1/jobs/${job.id}/cancel`,
        headers: bearer(key),
      });
      assert.equal(again.json().status, "canceled");
    });

    it("lets a job end within a stopping instance's bound, and ends one past it failed, released", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("builder");
      const quick = (await start(app, key, "slow-convert", { n: 1 })).json();
      const stuck = (await start(app, key, "slow-convert", { n: 2 })).json();
      await runsStarted(required.runs, 2);
      const price = (await creditsUsed(app, key)) / 2;

      const drained = app.deps.jobs.drain(1_000);
      required.runs[0]?.open();
      assert.deepEqual(await drained, { stopped: 1, left: 0 });
      await required.runs[1]?.aborted;

      const ended = (await read(app, key, quick.id)).json();
      assert.equal(ended.status, "succeeded");
      assert.equal(ended.credits_used, price);
      const stopped = (await read(app, key, stuck.id)).json();
      assert.equal(stopped.status, "failed");
      assert.equal(stopped.credits_used, 0);
      assert.equal(stopped.problem.code, "processing_error");
      assert.match(stopped.problem.detail, /stopped before the job ended; nothing was charged/);
      assert.equal(await creditsUsed(app, key), price, "only the job that ended is charged");
    });

    it("refuses a job the account cannot pay for with 402 before anything runs, and keeps no job", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("builder", 0);
      const refused = await start(app, key, "slow-convert", {});
      assertProblem(refused, 402, "insufficient_credits");
      assert.equal(required.runs.length, 0);
      const listed = await app.app.inject({ method: "GET", url: "/v1/jobs", headers: bearer(key) });
      assert.deepEqual(listed.json().jobs, []);
      // The refusal is the month's depletion (credits.depleted), as a refused call's is.
      const { accountId } = await app.recordOf(key);
      const now = app.clock.now();
      const period = now.toISOString().slice(0, 7);
      assert.equal(await app.store.recordDepletion(accountId, period, now.toISOString(), []), false);
    });

    it("gives the same job for the same Idempotency-Key, and 422 for another body under it", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("builder");
      const headers = { "idempotency-key": "convert-42" };
      const first = (await start(app, key, "slow-convert", { n: 1 }, headers)).json();
      const again = await start(app, key, "slow-convert", { n: 1 }, headers);
      assert.equal(again.statusCode, 202);
      assert.equal(again.json().id, first.id);
      assertProblem(
        await start(app, key, "slow-convert", { n: 2 }, headers),
        422,
        "idempotency_key_mismatch",
      );
      await runsStarted(required.runs, 1);
      assert.equal(required.runs.length, 1, "one run for the key");
    });

    it("shows a job only to its account: another's id is 404 job_not_found", async (t) => {
      const { t: app } = await appOn(store, t);
      const owner = await app.key("builder");
      const stranger = await app.key("builder");
      const job = (await start(app, owner, "slow-convert", {})).json();
      assertProblem(await read(app, stranger, job.id), 404, "job_not_found");
      assertProblem(
        await app.app.inject({ method: "POST", url: `/v1/jobs/${job.id}/cancel`, headers: bearer(stranger) }),
        404,
        "job_not_found",
      );
      assertProblem(await read(app, owner, "job_nope"), 400, "validation_error");
      assert.equal((await read(app, owner, job.id)).statusCode, 200);
    });

    it("ends a job whose tool fails failed, with its problem, refunded", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("builder");
      const job = (await start(app, key, "slow-convert", {})).json();
      await runsStarted(required.runs, 1);
      required.runs[0]?.fail("the upstream fell over");
      await app.deps.jobs.idle();
      const failed = (await read(app, key, job.id)).json();
      assert.equal(failed.status, "failed");
      assert.equal(failed.problem.code, "processing_error");
      assert.equal(failed.credits_used, 0);
      assert.equal(await creditsUsed(app, key), 0);
    });

    it("lists the account's jobs newest first, by status", async (t) => {
      const { t: app, required } = await appOn(store, t);
      const key = await app.key("builder");
      const first = (await start(app, key, "slow-convert", { n: 1 })).json();
      const second = (await start(app, key, "slow-convert", { n: 2 })).json();
      await runsStarted(required.runs, 2);
      required.runs[0]?.open();
      while ((await read(app, key, first.id)).json().status !== "succeeded")
        await new Promise((resolve) => setImmediate(resolve));
      const all = (
        await app.app.inject({ method: "GET", url: "/v1/jobs?limit=1", headers: bearer(key) })
      ).json();
      assert.deepEqual(
        all.jobs.map((j: { id: string }) => j.id),
        [second.id],
      );
      assert.notEqual(all.next_cursor, null);
      const next = (
        await app.app.inject({
          method: "GET",
          url: `/v1/jobs?limit=1&cursor=${all.next_cursor}`,
          headers: bearer(key),
        })
      ).json();
      assert.deepEqual(
        next.jobs.map((j: { id: string }) => j.id),
        [first.id],
      );
      const running = (
        await app.app.inject({ method: "GET", url: "/v1/jobs?status=running", headers: bearer(key) })
      ).json();
      assert.deepEqual(
        running.jobs.map((j: { id: string }) => j.id),
        [second.id],
      );
    });
  });
}
