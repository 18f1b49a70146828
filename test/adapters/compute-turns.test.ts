/**
 * How the compute offload shares its one worker (adapters/compute/turns.ts, under both the worker
 * pool and the same-thread offload): keys take turns, a key holds at most its share of waiting and
 * running tasks, the queue is bounded in tasks and in bytes, and a task past a bound is refused at
 * once with a wait to retry after. Tasks here are held by the test until it lets them go, so the
 * order of events is the test's.
 */
import assert from "node:assert/strict";
import { describe, it, type TestContext } from "node:test";
import { setImmediate } from "node:timers/promises";
import { createSameThreadOffload } from "../../src/adapters/compute/same-thread.ts";
import {
  type ComputeAnswer,
  ComputeBusyError,
  type ComputeLimits,
  type ComputeOffload,
  type ComputeTask,
} from "../../src/ports/compute-offload.ts";

const LIMITS: ComputeLimits = { perOwner: 2, queuedTasks: 4, queuedBytes: 1_000 };

/** An offload whose tasks each wait for the test to finish them, in the order they started. */
function heldOffload(t: TestContext, limits: ComputeLimits = LIMITS) {
  const started: string[] = [];
  const finishers: (() => void)[] = [];
  const offload: ComputeOffload = createSameThreadOffload({
    minBytes: 0,
    limits,
    runner: (task) =>
      new Promise<ComputeAnswer>((resolve) => {
        started.push(`${task.owner}:${Buffer.from(task.raw).toString("utf8")}`);
        finishers.push(() => resolve({ kind: "valid" }));
      }),
  });
  t.after(() => offload.close());
  return {
    offload,
    started,
    /** Lets the running task finish, and the next one start. */
    async finishOne() {
      finishers.shift()?.();
      await setImmediate();
    },
  };
}

const task = (owner: string, body: string, bytes = body.length): ComputeTask => ({
  slug: "echo",
  owner,
  run: true,
  raw: Buffer.from(body.padEnd(bytes, " ")),
});

// A bound that never comes would leave a test waiting: it fails instead.
describe("the compute offload's turns and bounds", { timeout: 30_000 }, () => {
  it("gives each key its turn: another key's call runs before a key's second one", async (t) => {
    const { offload, started, finishOne } = heldOffload(t);
    const all = [
      offload.compute(task("greedy", "1")),
      offload.compute(task("greedy", "2")),
      offload.compute(task("other", "1")),
    ];
    await setImmediate();
    for (let i = 0; i < 3; i++) await finishOne();
    await Promise.all(all);
    assert.deepEqual(started, ["greedy:1", "other:1", "greedy:2"]);
  });

  it("refuses at once a key's call past its share, with a wait to retry after, and serves it again once one ends", async (t) => {
    const { offload, started, finishOne } = heldOffload(t);
    const mine = [offload.compute(task("greedy", "1")), offload.compute(task("greedy", "2"))];
    const refused = await offload.compute(task("greedy", "3")).catch((error: unknown) => error);
    assert.ok(refused instanceof ComputeBusyError, String(refused));
    assert.equal(refused.reason, "owner");
    assert.equal(refused.limit, 2);
    assert.ok(refused.retryAfterS >= 1);
    // Another key is not held back by it.
    const other = offload.compute(task("other", "1"));
    await finishOne();
    const again = offload.compute(task("greedy", "4"));
    for (let i = 0; i < 3; i++) await finishOne();
    await Promise.all([...mine, other, again]);
    assert.deepEqual(started, ["greedy:1", "other:1", "greedy:2", "greedy:4"]);
  });

  it("refuses a call when as many calls wait as the queue holds", async (t) => {
    const { offload, finishOne } = heldOffload(t, { perOwner: 10, queuedTasks: 2, queuedBytes: 1_000 });
    const held = [
      offload.compute(task("a", "running")),
      offload.compute(task("b", "waiting 1")),
      offload.compute(task("c", "waiting 2")),
    ];
    const refused = await offload.compute(task("d", "one more")).catch((error: unknown) => error);
    assert.ok(refused instanceof ComputeBusyError, String(refused));
    assert.equal(refused.reason, "queue");
    for (let i = 0; i < 3; i++) await finishOne();
    await Promise.all(held);
  });

  it("refuses a call whose body would take the waiting bytes past their bound", async (t) => {
    const { offload, finishOne } = heldOffload(t, { perOwner: 10, queuedTasks: 10, queuedBytes: 1_000 });
    // The running task's body is not waiting: only the queue's bodies count.
    const held = [offload.compute(task("a", "running", 900)), offload.compute(task("b", "waiting", 600))];
    const refused = await offload.compute(task("c", "too big", 401)).catch((error: unknown) => error);
    assert.ok(refused instanceof ComputeBusyError, String(refused));
    assert.equal(refused.reason, "queue");
    const fits = offload.compute(task("c", "fits", 400));
    for (let i = 0; i < 3; i++) await finishOne();
    await Promise.all([...held, fits]);
  });

  it("frees a key's share when its waiting call is dropped", async (t) => {
    const { offload, started, finishOne } = heldOffload(t);
    const running = offload.compute(task("k", "1"));
    const left = new AbortController();
    const dropped = offload.compute(task("k", "2"), left.signal);
    left.abort();
    await assert.rejects(dropped, { name: "ComputeDroppedError" });
    const next = offload.compute(task("k", "3"));
    await finishOne();
    await finishOne();
    await Promise.all([running, next]);
    assert.deepEqual(started, ["k:1", "k:3"]);
  });
});
