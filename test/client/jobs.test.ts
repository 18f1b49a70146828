/**
 * The client's job methods (clients/typescript, as built) against a started server: start a job,
 * read it, wait for it (and stop waiting on an abort signal, the job going on), cancel one.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createToolrunClient } from "@toolrun/client";
import type { AnyToolDefinition } from "../../src/tools/tool.ts";
import { createTestApp, type TestApp, untilSuiteEnds } from "../helpers/app.ts";

/** Waits until the test lets it go (`release`), or until its signal fires. */
const gates: (() => void)[] = [];
const waiting = {
  slug: "waiting-job",
  name: "Waiting job",
  description: "Answers when the test lets it.",
  keywords: [],
  version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 1024 },
  inputSchema: { type: "object" },
  outputSchema: { type: "object", required: ["done"], properties: { done: { type: "boolean" } } },
  examples: [],
  effects: "external",
  jobs: "required",
  timeoutMs: 600_000,
  run(_input: unknown, context: { signal: AbortSignal }) {
    return new Promise((resolve, reject) => {
      gates.push(() => resolve({ done: true }));
      context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true });
    });
  },
} as unknown as AnyToolDefinition;

describe("TypeScript client: jobs", () => {
  let t: TestApp;
  let base: string;
  const suite = untilSuiteEnds();

  before(async () => {
    t = await createTestApp({ tools: [waiting] }, suite);
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  it("starts a job, stops waiting when told, and waits for its result", async () => {
    const api = createToolrunClient({ baseUrl: base, apiKey: await t.key("builder") });
    const job = await api.startJob("waiting-job", {});
    assert.equal(job.status, "running");
    assert.equal((await api.job(job.id)).status, "running");

    const stop = new AbortController();
    const stopped = api.waitForJob(job.id, { signal: stop.signal, intervalMs: 10 });
    stop.abort(new Error("no longer"));
    await assert.rejects(stopped, /no longer/);
    assert.equal((await api.job(job.id)).status, "running", "the job goes on");

    const done = api.waitForJob(job.id, { intervalMs: 10 });
    gates.shift()?.();
    const ended = await done;
    assert.equal(ended.status, "succeeded");
    assert.deepEqual(ended.result?.outputs, { done: true });
  });

  it("cancels a job", async () => {
    const api = createToolrunClient({ baseUrl: base, apiKey: await t.key("builder") });
    const job = await api.startJob("waiting-job", {});
    const canceled = await api.cancelJob(job.id);
    assert.equal(canceled.status, "canceled");
    const listed = await api.listJobs({ status: "canceled" });
    assert.deepEqual(
      listed.jobs.map((j) => j.id),
      [job.id],
    );
    await t.deps.jobs.idle();
  });
});
