/**
 * The compute offload on a real worker thread (adapters/compute/pool.ts): the worker loads the
 * runner, answers with the same bytes as the main thread, takes tasks one at a time and drops one
 * whose client has gone while it waits, runs below the main thread's priority, and closes without
 * hanging. Everything around the offload is tested in-process (test/http/compute-offload.test.ts).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { describe, it } from "node:test";
import { githubPushNear } from "../../../bench/lib/payloads.ts";
import { createComputePool } from "../../../src/adapters/compute/pool.ts";
import { computeRunner } from "../../../src/core/call/compute-runner.ts";
import { ComputeDroppedError } from "../../../src/ports/compute-offload.ts";
import { tools } from "../../../src/tools/index.ts";
import { bearer, createTestApp, json } from "../../helpers/app.ts";
import { fixtureRunner } from "../../helpers/offload.ts";

const task = (body: string, owner = "key") => ({ slug: "echo", raw: Buffer.from(body), run: true, owner });

describe("the compute offload on a worker thread", () => {
  it("answers a 1 MiB inspector call with the same bytes as the main thread", async (t) => {
    const pool = createComputePool({ runner: computeRunner() });
    t.after(() => pool.close());
    const body = githubPushNear();
    assert.ok(Buffer.byteLength(body) >= pool.minBytes);
    const inline = await createTestApp({ tools }, t);
    const pooled = await createTestApp({ tools, offload: pool }, t);
    const post = async (app: typeof inline) =>
      app.app.inject({
        method: "POST",
        url: "/v1/tool/webhook-payload-inspector",
        headers: json({ ...bearer(await app.key("builder")), "x-request-id": "req-big" }),
        payload: body,
      });
    const expected = await post(inline);
    const actual = await post(pooled);
    assert.equal(expected.statusCode, 200);
    assert.equal(actual.statusCode, 200);
    assert.equal(actual.body, expected.body);
  });

  it("drops a waiting task whose client has gone, without running it, and serves the rest in order", async (t) => {
    const pool = createComputePool({ runner: fixtureRunner, minBytes: 0 });
    t.after(() => pool.close());
    const finished: string[] = [];
    // Keeps the worker busy for 300 ms, long after the next lines have run.
    const busy = pool.compute(task('{"value":30,"mode":"slow"}')).then(() => finished.push("busy"));
    const left = new AbortController();
    const dropped = pool.compute(task('{"value":1}', "leaving"), left.signal);
    const next = pool.compute(task('{"value":2}', "next")).then(() => finished.push("next"));
    left.abort();
    assert.deepEqual(finished, []);
    await assert.rejects(dropped, ComputeDroppedError);
    await Promise.all([busy, next]);
    assert.deepEqual(finished, ["busy", "next"]);
  });

  it("closes without hanging, whether it ever started a worker or not, and refuses tasks after", async () => {
    const unused = createComputePool({ runner: fixtureRunner, minBytes: 0 });
    await unused.close();
    const used = createComputePool({ runner: fixtureRunner, minBytes: 0 });
    const ran = await used.compute(task('{"value":2}'));
    assert.equal(ran.kind, "ran");
    await used.close();
    await assert.rejects(used.compute(task('{"value":2}')), /closed/);
  });

  it("lowers V8's helper threads to the worker's priority once it starts (Linux)", {
    skip: !existsSync("/proc/self/task"),
  }, async () => {
    const helpers = () =>
      readdirSync("/proc/self/task")
        .filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === "V8Worker")
        .map(Number);
    const pool = createComputePool({ runner: fixtureRunner, minBytes: 0 });
    try {
      await pool.compute(task('{"value":2}'));
      assert.ok(helpers().length > 0);
      for (const tid of helpers()) assert.ok(getPriority(tid) > getPriority(process.pid), `thread ${tid}`);
    } finally {
      await pool.close();
    }
  });
});
