/**
 * The bench's result shapes and the plain-text table: per measured row, requests per second,
 * latency percentiles, server memory and CPU, non-2xx count, and each figure's ratio to the
 * baseline row.
 */

export interface Row {
  readonly label: string;
  /** Completed requests per second (for paced rows: the rate achieved). */
  readonly rps: number;
  readonly requests: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly rssBeforeKiB: number | null;
  readonly rssAfterKiB: number | null;
  readonly rssPeakKiB: number | null;
  readonly serverCpuPercent: number | null;
  /** Server CPU time per completed request, in microseconds: the cost of one call, whatever else ran. */
  readonly serverCpuUsPerRequest: number | null;
  /**
   * CPU time per completed request of the servers and of every PostgreSQL and Redis process
   * together, in microseconds: what a call costs the machine, not only the Node process.
   */
  readonly allCpuUsPerRequest: number | null;
  readonly loadCpuPercent: number;
  /** Every other process on the machine (PostgreSQL and Redis included), as a share of one core. */
  readonly otherCpuPercent: number | null;
  /** How the load was made: closed loop (autocannon), autocannon overallRate, or paced open loop. */
  readonly load: string;
}

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface CaseResult {
  readonly name: string;
  readonly title: string;
  status: "ok" | "skipped" | "failed";
  reason?: string;
  readonly rows: Row[];
  readonly checks: Check[];
  readonly notes: string[];
  readonly details: Record<string, unknown>;
}

const mib = (kib: number | null) => (kib === null ? "?" : (kib / 1024).toFixed(0));
const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(v >= 10 ? 1 : 2));
const ratio = (value: number, base: number | undefined) =>
  base === undefined || base === 0 ? "-" : `${(value / base).toFixed(2)}`;

export function renderTable(cases: readonly CaseResult[]): string {
  const base = cases.find((c) => c.name === "baseline" && c.status === "ok")?.rows[0];
  const header = [
    "case",
    "req/s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "RSS MiB before>after",
    "non-2xx",
    "srv CPU%",
    "CPU us/req",
    "all CPU us/req",
    "gen CPU%",
    "other CPU%",
    "rps/base",
    "p50/base",
    "p99/base",
    "max/base",
    "RSS/base",
  ];
  const lines: string[][] = [header];
  for (const result of cases) {
    if (result.status !== "ok") {
      lines.push([result.name, `${result.status}: ${result.reason ?? ""}`]);
      continue;
    }
    for (const row of result.rows) {
      lines.push([
        row.label,
        row.rps.toFixed(0),
        ms(row.p50),
        ms(row.p99),
        ms(row.max),
        `${mib(row.rssBeforeKiB)}>${mib(row.rssAfterKiB)}`,
        String(row.non2xx + row.errors),
        row.serverCpuPercent === null ? "?" : String(row.serverCpuPercent),
        row.serverCpuUsPerRequest === null ? "?" : row.serverCpuUsPerRequest.toFixed(0),
        row.allCpuUsPerRequest === null ? "?" : row.allCpuUsPerRequest.toFixed(0),
        String(row.loadCpuPercent),
        row.otherCpuPercent === null ? "?" : String(row.otherCpuPercent),
        ratio(row.rps, base?.rps),
        ratio(row.p50, base?.p50),
        ratio(row.p99, base?.p99),
        ratio(row.max, base?.max),
        row.rssAfterKiB === null ? "-" : ratio(row.rssAfterKiB, base?.rssAfterKiB ?? undefined),
      ]);
    }
  }
  const widths = header.map((_, i) =>
    Math.max(...lines.filter((l) => l.length === header.length).map((l) => (l[i] ?? "").length)),
  );
  return lines
    .map((line) =>
      line.length === header.length
        ? line
            .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
            .join("  ")
        : line.join("  "),
    )
    .join("\n");
}

export function renderChecksAndNotes(cases: readonly CaseResult[]): string {
  const out: string[] = [];
  for (const result of cases) {
    for (const check of result.checks)
      out.push(`[${check.ok ? "ok" : "MISS"}] ${result.name}: ${check.name}: ${check.detail}`);
    for (const note of result.notes) out.push(`  note ${result.name}: ${note}`);
  }
  return out.join("\n");
}

export interface Comparison {
  readonly name: string;
  readonly row: string;
  readonly against: string;
  /** Requests per second of `row` over `against`'s. */
  readonly rps: number;
  /** CPU per call over every process (servers, PostgreSQL, Redis) of `row` over `against`'s. */
  readonly allCpu: number | null;
}

/** The ratios the targets are stated in, each between two rows of the same run. */
const COMPARED: readonly (readonly [name: string, row: string, against: string])[] = [
  ["toolrun/bare, SQLite, LOG_LEVEL=info", "calculator-sqlite", "baseline"],
  ["toolrun/bare, SQLite, LOG_LEVEL=warn", "calculator-sqlite-warn", "baseline"],
  ["toolrun/peer, SQLite, LOG_LEVEL=info", "calculator-sqlite", "peer-sqlite"],
  ["toolrun/peer, SQLite, LOG_LEVEL=warn", "calculator-sqlite-warn", "peer-sqlite-warn"],
  ["toolrun/peer, PostgreSQL + Redis", "calculator-pg-redis", "peer-pg-redis"],
  ["toolrun PostgreSQL + Redis / toolrun SQLite", "calculator-pg-redis", "calculator-sqlite"],
  ["module tool/bare, SQLite, LOG_LEVEL=info", "module-tool-sqlite", "baseline"],
  ["module tool/calculator, same server", "module-tool-sqlite", "calculator-sqlite, operator tools loaded"],
  [
    "calculator with operator tools loaded/without",
    "calculator-sqlite, operator tools loaded",
    "calculator-sqlite",
  ],
  ["HTTP tool through toolrun/upstream directly", "http-tool-sqlite", "upstream directly"],
];

export function compare(cases: readonly CaseResult[]): Comparison[] {
  const rows = new Map(
    cases.filter((c) => c.status === "ok").flatMap((c) => c.rows.map((r) => [r.label, r])),
  );
  const out: Comparison[] = [];
  for (const [name, label, againstLabel] of COMPARED) {
    const row = rows.get(label);
    const against = rows.get(againstLabel);
    if (row === undefined || against === undefined || against.rps === 0) continue;
    const allCpu =
      row.allCpuUsPerRequest === null ||
      against.allCpuUsPerRequest === null ||
      against.allCpuUsPerRequest === 0
        ? null
        : row.allCpuUsPerRequest / against.allCpuUsPerRequest;
    out.push({ name, row: label, against: againstLabel, rps: row.rps / against.rps, allCpu });
  }
  return out;
}

export function renderComparisons(comparisons: readonly Comparison[]): string {
  return comparisons
    .map(
      (c) =>
        `${c.name}: req/s x${c.rps.toFixed(2)}, CPU per call over every process x${c.allCpu === null ? "?" : c.allCpu.toFixed(2)} (${c.row} / ${c.against})`,
    )
    .join("\n");
}
