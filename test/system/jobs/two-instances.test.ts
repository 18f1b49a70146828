/**
 * Jobs on two instances of one PostgreSQL database, started as operators start them (the example's
 * `build-report` against the slow report service of examples/reports): a job started on one
 * instance is read on the other, running and then succeeded, charged once; an instance killed
 * with SIGKILL while its job waits on the upstream leaves the job running until its lease lapses,
 * then the survivor's sweep ends it failed and its credits go back; an instance stopped with
 * SIGTERM lets its job end within the shutdown bound and ends the one past it failed, released, at
 * once.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createReportService, type ReportService } from "../../../examples/reports/server.ts";
import { testDatabaseUrl } from "../../helpers/services.ts";
import { type Cluster, createCluster } from "../scale-out/cluster.ts";

const database = testDatabaseUrl();
const ABANDON_S = 2;
const PRICE = 10;

async function listen(service: ReportService): Promise<string> {
  service.server.listen(0, "127.0.0.1");
  await once(service.server, "listening");
  return `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
}

describe("jobs on two PostgreSQL instances", { skip: database.skip }, () => {
  const quick = createReportService(300);
  const stuck = createReportService(600_000);
  let cluster: Cluster;

  before(async () => {
    const [quickOrigin, stuckOrigin] = [await listen(quick), await listen(stuck)];
    const example = JSON.parse(
      readFileSync(new URL("../../../examples/tools/job-tools.json", import.meta.url), "utf8"),
    ) as { httpTools: Record<string, unknown>[] };
    const [report] = example.httpTools;
    assert.ok(report);
    cluster = await createCluster({
      databaseUrl: database.url ?? "",
      redisUrl: null,
      config: {
        httpTools: [
          { ...report, url: String(report.url).replace("http://127.0.0.1:8788", quickOrigin) },
          {
            ...report,
            slug: "stuck-report",
            url: String(report.url).replace("http://127.0.0.1:8788", stuckOrigin),
          },
        ],
      },
    });
  });
  after(async () => {
    await cluster?.cleanup();
    quick.server.close();
    stuck.server.close();
  });

  const send = (base: string, key: string, path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });

  async function job(base: string, key: string, id: string): Promise<Record<string, unknown>> {
    return (await (await send(base, key, `/v1/jobs/${id}`)).json()) as Record<string, unknown>;
  }

  it("reads a job started on one instance on the other, until it succeeded, charged once", async () => {
    const [a, b] = await cluster.start(2, { TOOLRUN_CALL_ABANDON_S: String(ABANDON_S) });
    assert.ok(a && b);
    const { key } = await cluster.createKey("builder", 1000);
    const started = await send(a.url, key, "/v1/tool/build-report", {
      method: "POST",
      body: JSON.stringify({ period: "2026-10" }),
    });
    assert.equal(started.status, 202);
    const { id } = (await started.json()) as { id: string };
    assert.equal((await job(b.url, key, id)).status, "running");
    let read = await job(b.url, key, id);
    while (read.status === "running") {
      await sleep(100);
      read = await job(b.url, key, id);
    }
    assert.equal(read.status, "succeeded", JSON.stringify(read));
    assert.equal(read.credits_used, PRICE);
    const credits = (await (await send(b.url, key, "/v1/me/credits")).json()) as { credits_used: number };
    assert.equal(credits.credits_used, PRICE);
    await a.stop();
    await b.stop();
  });

  it("ends the job of a killed instance failed, its credits given back, by the survivor's sweep", async () => {
    const [victim, survivor] = await cluster.start(2, { TOOLRUN_CALL_ABANDON_S: String(ABANDON_S) });
    assert.ok(victim && survivor);
    const { key } = await cluster.createKey("builder", 1000);
    const started = await send(victim.url, key, "/v1/tool/stuck-report", {
      method: "POST",
      body: JSON.stringify({ period: "2026-10" }),
    });
    assert.equal(started.status, 202);
    const { id } = (await started.json()) as { id: string };
    while (stuck.counts.received === 0) await sleep(20);
    await victim.stop("SIGKILL");

    assert.equal((await job(survivor.url, key, id)).status, "running", "until its lease lapses");
    let read = await job(survivor.url, key, id);
    while (read.status === "running") {
      await sleep(200);
      read = await job(survivor.url, key, id);
    }
    assert.equal(read.status, "failed");
    assert.equal((read.problem as { code: string }).code, "processing_error");
    assert.equal(read.credits_used, 0);
    // The call, pending as long as the lease, is released by the sweep of abandoned calls.
    let used = PRICE;
    while (used !== 0) {
      await sleep(200);
      used = ((await (await send(survivor.url, key, "/v1/me/credits")).json()) as { credits_used: number })
        .credits_used;
    }
    await survivor.stop();
  });

  it("lets a stopping instance's job end within the bound, and ends the one past it failed, released, at once", async () => {
    // A lease far longer than the test: nothing here waits for a sweep.
    const extra = { TOOLRUN_CALL_ABANDON_S: "600", TOOLRUN_SHUTDOWN_TIMEOUT_MS: "1500" };
    const [stopping, other] = await cluster.start(2, extra);
    assert.ok(stopping && other);
    const { key } = await cluster.createKey("builder", 1000);
    const stuckBefore = stuck.counts.received;
    const startOn = async (slug: string) => {
      const started = await send(stopping.url, key, `/v1/tool/${slug}`, {
        method: "POST",
        body: JSON.stringify({ period: "2026-10" }),
      });
      assert.equal(started.status, 202);
      return ((await started.json()) as { id: string }).id;
    };
    const [ends, outlasts] = [await startOn("build-report"), await startOn("stuck-report")];
    while (stuck.counts.received === stuckBefore) await sleep(20);
    await stopping.stop("SIGTERM");

    const ended = await job(other.url, key, ends);
    assert.equal(ended.status, "succeeded", JSON.stringify(ended));
    assert.equal(ended.credits_used, PRICE);
    const stopped = await job(other.url, key, outlasts);
    assert.equal(stopped.status, "failed", JSON.stringify(stopped));
    assert.equal((stopped.problem as { code: string }).code, "processing_error");
    assert.equal(stopped.credits_used, 0);
    const credits = (await (await send(other.url, key, "/v1/me/credits")).json()) as { credits_used: number };
    assert.equal(credits.credits_used, PRICE, "the stopped job's credits went back at once");
    await other.stop();
  });
});
