/**
 * `node bench/ledger-floor.ts [calls]`: in this process, what the SQLite ledger alone costs a tool
 * call, in microseconds of CPU: the real store on a file (WAL, synchronous NORMAL, as `toolrun
 * serve` opens it), calls without an idempotency key queued B to an event-loop turn so that B
 * share one commit (B = 1, 2, 5, 10: under the bench's 10 connections a turn holds a few), with
 * the tool's work already done. Medians of 5 rounds. The floor under the embedded path: whatever
 * HTTP, authentication and the answer cost comes on top. A quick check; `npm run bench` remains
 * the measure of record.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "../src/adapters/sqlite/store.ts";
import { DONE, floorCall, floorKey } from "./lib/ledger-calls.ts";

const CALLS = Number(process.argv[2] ?? 20_000);
const ROUNDS = 5;

const dir = mkdtempSync(join(tmpdir(), "toolrun-ledger-floor-"));
const store = createSqliteStore(join(dir, "ledger.db"), { busyTimeoutMs: 0, lockWaitMs: 1000 });
try {
  await store.migrate();
  const keyId = "key_floor";
  await store.createKey(floorKey(keyId));
  for (const batch of [1, 2, 5, 10]) {
    const samples: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const start = process.cpuUsage();
      for (let i = 0; i < CALLS; i += batch) {
        await Promise.all(Array.from({ length: batch }, () => store.runCall(floorCall(keyId), () => DONE)));
      }
      const used = process.cpuUsage(start);
      if (round > 0) samples.push((used.user + used.system) / CALLS);
    }
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)] ?? Number.NaN;
    console.log(`${String(batch).padStart(2)} calls a commit: ${median.toFixed(1)} us of CPU a call`);
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
