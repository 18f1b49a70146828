/**
 * The jobs example (examples/reports and examples/tools/job-tools.json), as docs/jobs.md runs it:
 * `build-report` against the slow report service answers 202 with a job, which ends with the
 * report, charged once; a canceled one drops its upstream request, charged nothing.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { describe, it, type TestContext } from "node:test";
import { fileURLToPath } from "node:url";
import { createReportService } from "../../examples/reports/server.ts";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import { loadTools } from "../../src/core/tools/loader.ts";
import { bearer, createTestApp, json } from "../helpers/app.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLE_ORIGIN = "http://127.0.0.1:8788";

async function exampleApp(t: TestContext, delayMs: number) {
  const service = createReportService(delayMs);
  service.server.listen(0, "127.0.0.1");
  await once(service.server, "listening");
  t.after(() => service.server.close());
  const origin = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
  const file = readFileSync(new URL("../../examples/tools/job-tools.json", import.meta.url), "utf8");
  assert.ok(file.includes(EXAMPLE_ORIGIN));
  const config = JSON.parse(file.replaceAll(EXAMPLE_ORIGIN, origin)) as { httpTools: unknown };
  const loadedTools = await loadTools({
    builtIns: [],
    httpTools: { declarations: config.httpTools, configPath: "examples/tools/job-tools.json" },
    env: {},
    cwd: ROOT,
    upstream: createHttpUpstream(),
    abandonAfterMs: 120_000,
    syncTimeoutMs: 120_000,
  });
  const app = await createTestApp(
    { tools: [], loadedTools },
    {
      after: (close) =>
        t.after(async () => {
          await app.deps.jobs.idle();
          await close();
        }),
    },
  );
  return { app, service };
}

describe("examples: a tool that runs as a job", () => {
  it("builds a report as a job: 202, then the report, charged once", async (t) => {
    const { app, service } = await exampleApp(t, 200);
    const key = await app.key("builder");
    const started = await app.app.inject({
      method: "POST",
      url: "/v1/tool/build-report",
      headers: json(bearer(key)),
      payload: JSON.stringify({ period: "2026-10" }),
    });
    assert.equal(started.statusCode, 202, started.body);
    const { id } = started.json();
    await app.deps.jobs.idle();
    const job = (await app.app.inject({ method: "GET", url: `/v1/jobs/${id}`, headers: bearer(key) })).json();
    assert.equal(job.status, "succeeded", JSON.stringify(job));
    assert.equal(job.result.outputs.period, "2026-10");
    assert.equal(job.credits_used, 10);
    assert.equal(service.counts.made, 1);
    const usage = (await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) })).json();
    assert.equal(usage.credits_used, 10);
  });

  it("cancels a report being built: the upstream request is dropped and nothing is charged", async (t) => {
    const { app, service } = await exampleApp(t, 600_000);
    const key = await app.key("builder");
    const { id } = (
      await app.app.inject({
        method: "POST",
        url: "/v1/tool/build-report",
        headers: json(bearer(key)),
        payload: JSON.stringify({ period: "2026-10" }),
      })
    ).json();
    while (service.counts.received === 0) await new Promise((resolve) => setImmediate(resolve));
    const canceled = await app.app.inject({
      method: "POST",
      url: `/v1/jobs/${id}/cancel`,
      headers: bearer(key),
    });
    assert.equal(canceled.json().status, "canceled");
    await app.deps.jobs.idle();
    while (service.counts.dropped === 0) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(service.counts.made, 0);
    const usage = (await app.app.inject({ method: "GET", url: "/v1/me/usage", headers: bearer(key) })).json();
    assert.equal(usage.credits_used, 0);
  });
});
