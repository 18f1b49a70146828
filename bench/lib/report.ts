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
