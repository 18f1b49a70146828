/**
 * The bench harness itself works: a one-second run of two cases produces the JSON report with both
 * cases measured. No timing is asserted; the figures are the bench's business, not the tests'.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const RUN = fileURLToPath(new URL("../../../bench/run.ts", import.meta.url));

interface Report {
  cases: {
    name: string;
    status: string;
    reason?: string;
    rows: { label: string; requests: number; non2xx: number }[];
  }[];
}

describe("bench harness", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-bench-smoke-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("measures the baseline and the calculator on SQLite, paced beside the baseline, and writes the JSON report", async () => {
    const out = join(dir, "report.json");
    const args = [RUN, "--quick", "--duration", "1", "--warmup", "0", "--no-pin"];
    args.push("--cases", "baseline,calculator-sqlite", "--out", out);
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => {
        stderr += d;
      });
      child.on("error", reject);
      child.on("close", (c) => (c === 0 ? resolve(c) : reject(new Error(`bench exited ${c}:\n${stderr}`))));
    });
    assert.equal(code, 0);
    const report = JSON.parse(readFileSync(out, "utf8")) as Report;
    assert.deepEqual(
      report.cases.map((c) => [c.name, c.status, c.reason]),
      [
        ["baseline", "ok", undefined],
        ["calculator-sqlite", "ok", undefined],
      ],
    );
    const rows = report.cases.flatMap((c) => c.rows);
    assert.deepEqual(
      rows.map((r) => r.label.replace(/\d+\/s/, "N/s")),
      [
        "baseline",
        "calculator-sqlite",
        "calculator-sqlite @ N/s paced",
        "calculator-sqlite @ N/s overallRate",
        "baseline @ N/s paced, same generator",
        "calculator-sqlite @ N/s paced, --initial-old-space-size=256",
      ],
    );
    for (const row of rows) {
      assert.ok(row.requests > 0, `${row.label} made no requests`);
      assert.equal(row.non2xx, 0, `${row.label} had non-2xx answers`);
    }
  });
});
