/**
 * Runs the app's test files in a few processes at once: `node --test` either starts one process per
 * file (each paying half a CPU-second to load Fastify, the MCP SDK and the OAuth server before its
 * first test) or, with `--test-isolation=none`, runs every file in one process one after another
 * (most of their time is spent waiting on timers, sockets and the databases). Shards of files, each
 * one process, give the overlap of the first and the start-up cost of the second. Each shard's
 * output is printed whole, in order, and the run fails when any shard fails. A hook at a file's top
 * level would belong to its whole shard, so test/unit/test-files.test.ts forbids them.
 *
 * Usage: node test/shards.ts SHARDS GLOB...
 */
import { spawn } from "node:child_process";

const [count, ...globs] = process.argv.slice(2);
const shards = Number(count);
if (!Number.isInteger(shards) || shards < 1 || globs.length === 0) {
  process.stderr.write("usage: node test/shards.ts SHARDS GLOB...\n");
  process.exit(2);
}

function runShard(index: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--test", "--test-isolation=none", `--test-shard=${index}/${shards}`, ...globs],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
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

const results = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i + 1)));
let failed = 0;
results.forEach(({ code, output }, i) => {
  process.stdout.write(`\n# shard ${i + 1} of ${shards}\n${output}`);
  if (code !== 0) failed++;
});
if (failed > 0) {
  process.stdout.write(`\n# ${failed} of ${shards} shards failed\n`);
  process.exitCode = 1;
}
