/**
 * Command-line options of `npm run bench`.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BenchOptions } from "./context.ts";

export const USAGE = `Usage: npm run bench -- [options]

  --duration S      seconds of each measured run (default 10)
  --warmup S        seconds of unreported load before each run (default 2)
  --quick           a smoke run: 3 s runs, 1 s warm-up, 300-request and 5,000-request soaks
  --connections N   concurrent connections of the load generator (default 10)
  --soak N          requests of the inspector's 1 MiB soak, one at a time (default 2000)
  --push-soak N     requests of the inspector's soak on the typical push, all connections
                    (default 100000)
  --cases A,B       only these cases (default: all), in the order listed
  --out FILE        where the JSON goes (default bench/results/latest.json)
  --postgres URL    server for the scale-out cases; a fresh database is made there and dropped
                    (default postgres://postgres@127.0.0.1:5432/postgres)
  --redis URL       Redis of the scale-out cases (default redis://127.0.0.1:6379)
  --cpu-prof DIR    write a V8 CPU profile of every toolrun server into DIR (node --cpu-prof)
  --node-flags F    Node flags for every toolrun server, space-separated
                    (--node-flags=--initial-old-space-size=256)
  --peak-only       calculator-sqlite without its half-rate runs (for short before/after runs)
  --keep            keep the temporary directory (server logs, SQLite files) and print its path
  --no-pin          do not pin servers and load generator to separate CPUs

Environment: BENCH_TOOLRUN_BIN=/other/checkout/bin/toolrun.js runs the toolrun cases on another
checkout (to compare before and after a change); the baseline stays this checkout's.
`;

export interface BenchArgs extends BenchOptions {
  readonly cases: readonly string[] | null;
  readonly out: string;
  readonly pin: boolean;
  readonly quick: boolean;
  readonly keep: boolean;
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      duration: { type: "string" },
      warmup: { type: "string" },
      quick: { type: "boolean" },
      connections: { type: "string" },
      soak: { type: "string" },
      "push-soak": { type: "string" },
      cases: { type: "string" },
      out: { type: "string" },
      postgres: { type: "string" },
      redis: { type: "string" },
      "no-pin": { type: "boolean" },
      "cpu-prof": { type: "string" },
      "node-flags": { type: "string" },
      keep: { type: "boolean" },
      "peak-only": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  const quick = values.quick === true;
  const number = (raw: string | undefined, fallback: number, name: string, min: number): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min)
      throw new Error(`--${name} must be a number of at least ${min}, got "${raw}"`);
    return n;
  };
  return {
    duration: number(values.duration, quick ? 3 : 10, "duration", 1),
    warmup: number(values.warmup, quick ? 1 : 2, "warmup", 0),
    connections: Math.round(number(values.connections, 10, "connections", 1)),
    soak: Math.round(number(values.soak, quick ? 300 : 2000, "soak", 1)),
    pushSoak: Math.round(number(values["push-soak"], quick ? 5000 : 100_000, "push-soak", 1)),
    cases:
      values.cases === undefined
        ? null
        : values.cases
            .split(",")
            .map((c) => c.trim())
            .filter(Boolean),
    out: values.out ?? "bench/results/latest.json",
    postgresAdminUrl: values.postgres ?? "postgres://postgres@127.0.0.1:5432/postgres",
    redisUrl: values.redis ?? "redis://127.0.0.1:6379",
    pin: values["no-pin"] !== true,
    cpuProfDir: values["cpu-prof"] === undefined ? null : resolve(values["cpu-prof"]),
    nodeFlags: (values["node-flags"] ?? "").split(/\s+/).filter(Boolean),
    quick,
    keep: values.keep === true,
    peakOnly: values["peak-only"] === true,
  };
}
