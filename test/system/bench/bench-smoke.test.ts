/**
 * The bench harness itself works: one-second runs of the cases produce the JSON report with every
 * case measured, the peer beside toolrun, the ratios between them, and the accounting checks met.
 * No timing is asserted; the figures are the bench's business, not the tests'.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { testDatabaseUrl, testRedisUrl } from "../../helpers/services.ts";

const RUN = fileURLToPath(new URL("../../../bench/run.ts", import.meta.url));

interface Row {
  label: string;
  requests: number;
  non2xx: number;
  serverCpuUsPerRequest: number | null;
  allCpuUsPerRequest: number | null;
}

interface Report {
  comparisons: { name: string; row: string; against: string; rps: number; allCpu: number | null }[];
  cases: {
    name: string;
    status: string;
    reason?: string;
    rows: Row[];
    checks: { name: string; ok: boolean; detail: string }[];
  }[];
}

async function bench(dir: string, cases: readonly string[], extra: readonly string[] = []): Promise<Report> {
  const out = join(dir, `${cases.join("+")}.json`);
  const args = [RUN, "--quick", "--duration", "1", "--warmup", "0", "--no-pin"];
  args.push("--cases", cases.join(","), "--out", out, ...extra);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (c) => (c === 0 ? resolve() : reject(new Error(`bench exited ${c}:\n${stderr}`))));
  });
  return JSON.parse(readFileSync(out, "utf8")) as Report;
}

function assertMeasured(report: Report): void {
  for (const row of report.cases.flatMap((c) => c.rows)) {
    assert.ok(row.requests > 0, `${row.label} made no requests`);
    assert.equal(row.non2xx, 0, `${row.label} had non-2xx answers`);
    assert.ok(
      row.serverCpuUsPerRequest !== null && row.serverCpuUsPerRequest > 0,
      `${row.label}: server CPU`,
    );
    assert.ok(
      row.allCpuUsPerRequest !== null && row.allCpuUsPerRequest >= row.serverCpuUsPerRequest,
      `${row.label}: CPU over every process counts at least the server's`,
    );
  }
  for (const check of report.cases.flatMap((c) =>
    c.checks.filter((k) => k.name.startsWith("exact accounting")),
  ))
    assert.ok(check.ok, `${check.name}: ${check.detail}`);
}

describe("bench harness", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-bench-smoke-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("measures the baseline, the calculator on SQLite (paced beside the baseline) and the peer, with their ratios", async () => {
    const report = await bench(dir, ["baseline", "calculator-sqlite", "peer-sqlite"]);
    assert.deepEqual(
      report.cases.map((c) => [c.name, c.status, c.reason]),
      [
        ["baseline", "ok", undefined],
        ["calculator-sqlite", "ok", undefined],
        ["peer-sqlite", "ok", undefined],
      ],
    );
    assert.deepEqual(
      report.cases.flatMap((c) => c.rows).map((r) => r.label.replace(/\d+\/s/, "N/s")),
      [
        "baseline",
        "calculator-sqlite",
        "calculator-sqlite @ N/s paced",
        "calculator-sqlite @ N/s overallRate",
        "baseline @ N/s paced, same generator",
        "calculator-sqlite @ N/s paced, --initial-old-space-size=256",
        "peer-sqlite",
        "peer-sqlite-warn",
      ],
    );
    assertMeasured(report);
    assert.deepEqual(
      report.cases.find((c) => c.name === "peer-sqlite")?.checks.map((c) => [c.name, c.ok]),
      [
        ["exact accounting (peer-sqlite)", true],
        ["exact accounting (peer-sqlite-warn)", true],
      ],
    );
    assert.deepEqual(
      report.comparisons.map((c) => [c.name, c.row, c.against]),
      [
        ["toolrun/bare, SQLite, LOG_LEVEL=info", "calculator-sqlite", "baseline"],
        ["toolrun/peer, SQLite, LOG_LEVEL=info", "calculator-sqlite", "peer-sqlite"],
      ],
    );
    for (const comparison of report.comparisons) {
      assert.ok(comparison.rps > 0, comparison.name);
      assert.ok(comparison.allCpu !== null && comparison.allCpu > 0, comparison.name);
    }
  });

  const database = testDatabaseUrl();
  const redis = testRedisUrl();
  it("measures the calculator and the peer on PostgreSQL + Redis, with their ratio and the peer's accounting", {
    skip: database.skip || redis.skip,
  }, async () => {
    if (database.url === undefined || redis.url === undefined) return;
    const report = await bench(
      dir,
      ["calculator-pg-redis", "peer-pg-redis"],
      ["--postgres", database.url, "--redis", redis.url],
    );
    assert.deepEqual(
      report.cases.map((c) => [c.name, c.status, c.reason]),
      [
        ["calculator-pg-redis", "ok", undefined],
        ["peer-pg-redis", "ok", undefined],
      ],
    );
    assert.deepEqual(
      report.cases.flatMap((c) => c.rows).map((r) => r.label),
      ["calculator-pg-redis", "peer-pg-redis"],
    );
    assertMeasured(report);
    assert.deepEqual(
      report.cases.find((c) => c.name === "peer-pg-redis")?.checks.map((c) => [c.name, c.ok]),
      [["exact accounting (peer-pg-redis)", true]],
    );
    assert.deepEqual(
      report.comparisons.map((c) => c.name),
      ["toolrun/peer, PostgreSQL + Redis"],
    );
  });
});
