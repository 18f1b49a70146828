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

const RUN = fileURLToPath(new URL("../../bench/run.ts", import.meta.url));

interface Report {
  cases: { name: string; status: string; reason?: string; rows: { requests: number; non2xx: number }[] }[];
}

describe("bench harness", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolrun-bench-smoke-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("measures the baseline and the calculator on SQLite and writes the JSON report", async () => {
    const out = join(dir, "report.json");
    const args = [RUN, "--quick", "--duration", "1", "--warmup", "0", "--no-pin"];
    args.push("--cases", "baseline,calculator-sqlite-warn", "--out", out);
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
        ["calculator-sqlite-warn", "ok", undefined],
      ],
    );
    for (const c of report.cases) {
      assert.ok((c.rows[0]?.requests ?? 0) > 0, `${c.name} made no requests`);
      assert.equal(c.rows[0]?.non2xx, 0, `${c.name} had non-2xx answers`);
    }
  });
});
