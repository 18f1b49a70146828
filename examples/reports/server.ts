/**
 * A slow report service: the upstream that examples/tools/job-tools.json declares `build-report`
 * against, a tool that runs as a job (docs/jobs.md), so the jobs walk-through runs on one machine:
 *
 *   npm run example:reports     # listens on http://127.0.0.1:8788, each report takes 20 s
 *
 * `POST /reports` with a JSON `{period}` answers 200 and the report after `REPORT_DELAY_MS`
 * (20000 by default); a request whose client goes away meanwhile (a canceled job) is dropped and
 * counted. The tests serve the same handler with a short delay.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

export interface Report {
  readonly id: string;
  readonly period: string;
  readonly tickets: number;
  readonly summary: string;
}

export interface ReportService {
  readonly server: Server;
  /** Requests received, reports made, and requests dropped because their client went away first. */
  readonly counts: { received: number; made: number; dropped: number };
}

export function createReportService(delayMs: number): ReportService {
  const counts = { received: 0, made: 0, dropped: 0 };
  let next = 1;
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    counts.received++;
    if (request.url !== "/reports" || request.method !== "POST") {
      response.writeHead(404, { "content-type": "application/json" });
      response.end('{"error":"only POST /reports is here"}');
      return;
    }
    const period = periodOf(body);
    if (period === null) {
      response.writeHead(400, { "content-type": "application/json" });
      response.end('{"error":"period (YYYY-MM) is required"}');
      return;
    }
    const timer = setTimeout(() => {
      counts.made++;
      const tickets = 40 + ((next * 7) % 60);
      const report: Report = {
        id: `R-${next++}`,
        period,
        tickets,
        summary: `${tickets} tickets opened in ${period}`,
      };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(report));
    }, delayMs);
    response.once("close", () => {
      if (!response.writableFinished) {
        clearTimeout(timer);
        counts.dropped++;
      }
    });
  });
  return { server, counts };
}

function periodOf(text: string): string | null {
  try {
    const value = JSON.parse(text) as { period?: unknown };
    return typeof value.period === "string" && /^\d{4}-\d{2}$/.test(value.period) ? value.period : null;
  } catch {
    return null;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const delayMs = Number(process.env.REPORT_DELAY_MS ?? 20_000);
  const { server } = createReportService(delayMs);
  server.listen(Number(process.env.PORT ?? 8788), "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`Report service on http://127.0.0.1:${port}/reports (${delayMs} ms a report)\n`);
  });
}
