/**
 * `node bench/pg-ledger-floor.ts [calls]` with `TOOLRUN_BENCH_DATABASE_URL` (default
 * postgres://postgres@127.0.0.1:5432/postgres): what the PostgreSQL ledger alone costs a tool
 * call, in microseconds of PostgreSQL's CPU (its backends', from /proc, Linux only) and of this
 * process's, for calls without an idempotency key whose tool already ran, queued B to an
 * event-loop turn so that they go as one statement (B = 1, 5, 10), each on its own key (as
 * `calculator-pg-redis` sends them) or all on one. In a throwaway schema, dropped after. Medians
 * of 5 rounds; the ticks are 10 ms, so a round of 5,000 calls reads to about 2 µs a call.
 * `BATCHES=5,10` picks the batch sizes; `VARIANT_SQL=file.sql` runs that SQL after the migrations
 * (to price another version of a ledger function side by side). A quick check; `npm run bench`
 * remains the measure of record.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createPostgresStore } from "../src/adapters/postgres/store.ts";
import { DONE, floorCall, floorKey } from "./lib/ledger-calls.ts";

const CALLS = Number(process.argv[2] ?? 5_000);
const ROUNDS = 5;
const URL = process.env.TOOLRUN_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SCHEMA = `floor_${randomUUID().slice(0, 8)}`;
const APP = `toolrun-floor-${process.pid}`;

const store = await createPostgresStore({ url: URL, schema: SCHEMA, applicationName: APP, keyCache: false });
/** CPU time (user + system) of the given PostgreSQL backends, in µs: /proc counts it in 10 ms ticks (USER_HZ 100). */
function backendsCpuUs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / 100) * 1e6;
}
try {
  await store.pool.query(`CREATE SCHEMA ${SCHEMA}`);
  await store.migrate();
  if (process.env.VARIANT_SQL) await store.pool.query(readFileSync(process.env.VARIANT_SQL, "utf8"));
  const keys = Array.from({ length: 10 }, (_, i) => `key_floor_${i}`);
  for (const id of keys) await store.createKey(floorKey(id));

  // Warm every pooled connection (and its prepared statements) before counting.
  await Promise.all(Array.from({ length: 10 }, () => store.runCall(floorCall(keys[0] ?? ""), () => DONE)));
  for (const spread of ["a key each", "one key"] as const) {
    for (const batch of (process.env.BATCHES ?? "1,5,10").split(",").map(Number)) {
      const pg: number[] = [];
      const node: number[] = [];
      for (let round = 0; round <= ROUNDS; round++) {
        const { rows } = await store.pool.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = $1",
          [APP],
        );
        const pids = rows.map((r) => r.pid);
        const pgBefore = backendsCpuUs(pids);
        const nodeBefore = process.cpuUsage();
        for (let i = 0; i < CALLS; i += batch) {
          await Promise.all(
            Array.from({ length: batch }, (_, j) =>
              store.runCall(floorCall(keys[spread === "one key" ? 0 : j] ?? ""), () => DONE),
            ),
          );
        }
        const used = process.cpuUsage(nodeBefore);
        if (round === 0) continue;
        pg.push((backendsCpuUs(pids) - pgBefore) / CALLS);
        node.push((used.user + used.system) / CALLS);
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
      console.log(
        `${spread.padEnd(10)} ${String(batch).padStart(2)} calls a statement: PostgreSQL ${median(pg).toFixed(1)} us, this process ${median(node).toFixed(1)} us of CPU a call`,
      );
    }
  }
} finally {
  await store.pool.query(`DROP SCHEMA ${SCHEMA} CASCADE`).catch(() => {});
  await store.close();
}
