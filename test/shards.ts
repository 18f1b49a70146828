/**
 * Runs the app's test files in a few processes at once: `node --test` either starts one process per
 * file (each paying half a CPU-second to load Fastify, the MCP SDK and the OAuth server before its
 * first test) or, with `--test-isolation=none`, runs every file in one process one after another
 * (most of their time is spent waiting on timers, sockets and the databases). Shards of files, each
 * one process, give the overlap of the first and the start-up cost of the second. Each shard's
 * output is printed whole, in order, and the run fails when any shard fails. A hook at a file's top
 * level would belong to its whole shard, so test/unit/test-files.test.ts forbids them.
 *
 * Files go to shards longest first, each to the shard with the least time so far, by the times in
 * test/shard-times.json (each file run alone; `--measure` writes them), so that no shard ends long
 * after the others; a file the table does not know counts as the median. node's own
 * `--test-shard` deals files out in turn, whatever they take.
 *
 * Usage: node test/shards.ts SHARDS GLOB...
 *        node test/shards.ts --measure GLOB...   (rewrites test/shard-times.json)
 */
import { spawn } from "node:child_process";
import { globSync, readFileSync, writeFileSync } from "node:fs";

const TIMES = new URL("./shard-times.json", import.meta.url);

const [first, ...globs] = process.argv.slice(2);
const measure = first === "--measure";
const shards = Number(first);
if ((!measure && (!Number.isInteger(shards) || shards < 1)) || globs.length === 0) {
  process.stderr.write("usage: node test/shards.ts SHARDS GLOB... | --measure GLOB...\n");
  process.exit(2);
}
const files = [...new Set(globs.flatMap((glob) => globSync(glob)))].sort();

function runFiles(list: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--test", "--test-isolation=none", ...list], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

if (measure) {
  const times: Record<string, number> = {};
  for (const file of files) {
    const started = performance.now();
    const { code } = await runFiles([file]);
    times[file] = Math.round((performance.now() - started) / 100) / 10;
    process.stdout.write(`${times[file]} s ${file}${code === 0 ? "" : " (failed)"}\n`);
  }
  writeFileSync(TIMES, `${JSON.stringify(times, null, 2)}\n`);
} else {
  const known = JSON.parse(readFileSync(TIMES, "utf8")) as Record<string, number>;
  const sorted = Object.values(known).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 1;
  const timeOf = (file: string) => known[file] ?? median;
  const plan = Array.from({ length: shards }, () => ({ files: [] as string[], seconds: 0 }));
  for (const file of [...files].sort((a, b) => timeOf(b) - timeOf(a))) {
    const lightest = plan.reduce((least, shard) => (shard.seconds < least.seconds ? shard : least));
    lightest.files.push(file);
    lightest.seconds += timeOf(file);
  }
  const results = await Promise.all(
    plan.filter((shard) => shard.files.length > 0).map((s) => runFiles(s.files)),
  );
  let failed = 0;
  results.forEach(({ code, output }, i) => {
    process.stdout.write(`\n# shard ${i + 1} of ${results.length}\n${output}`);
    if (code !== 0) failed++;
  });
  if (failed > 0) {
    process.stdout.write(`\n# ${failed} of ${results.length} shards failed\n`);
    process.exitCode = 1;
  }
}
