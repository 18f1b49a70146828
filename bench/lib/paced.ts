/**
 * An open-loop load generator at a fixed rate, for latency at a given rate. autocannon's
 * overallRate sends each connection's share of a second in one burst and then idles, so its
 * latencies are those of a burst; here requests leave evenly spaced (1 ms timer granularity) over
 * a keep-alive pool, and each latency runs from the moment the request was due, so a slow answer
 * that delays later requests is counted against them too (no coordinated omission).
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";

export interface PacedOptions {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Requests per second. */
  readonly rate: number;
  readonly durationS: number;
  /** Sockets in the keep-alive pool; requests beyond it wait (and that wait counts). */
  readonly maxSockets?: number;
}

export interface PacedResult {
  readonly targetRate: number;
  readonly achievedRate: number;
  readonly requests: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly latencyMs: {
    readonly mean: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
  };
}

export function runPaced(options: PacedOptions): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 32 });
  const target = new URL(options.url);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (body !== undefined) headers["content-length"] = body.length;
  const total = Math.max(1, Math.round(options.rate * options.durationS));
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let done = 0;

  return new Promise((resolve) => {
    const start = performance.now();
    let lastEnd = start;
    const finish = () => {
      clearInterval(ticker);
      clearTimeout(bound);
      agent.destroy();
      resolve(summarise(options.rate, (lastEnd - start) / 1000, latencies, ok, non2xx, errors, done));
    };
    const settle = (due: number, status: number | null) => {
      const end = performance.now();
      lastEnd = end;
      if (status === null) errors++;
      else if (status >= 200 && status < 300) {
        ok++;
        latencies.push(end - due);
      } else non2xx++;
      if (++done === total) finish();
    };
    const fire = (due: number) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: options.method,
          headers,
          agent,
        },
        (res) => {
          res.on("data", () => {});
          res.on("end", () => settle(due, res.statusCode ?? 0));
          res.on("error", () => settle(due, null));
        },
      );
      req.on("error", () => settle(due, null));
      req.end(body);
    };
    const ticker = setInterval(() => {
      const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      while (sent < due) fire(start + sent++ * intervalMs);
    }, 1);
    // Bounded in time whatever the server does: answers still missing 10 s after the last send count as errors.
    const bound = setTimeout(
      () => {
        errors += total - done;
        finish();
      },
      options.durationS * 1000 + 10_000,
    );
  });
}

function summarise(
  rate: number,
  elapsedS: number,
  latencies: number[],
  ok: number,
  non2xx: number,
  errors: number,
  done: number,
): PacedResult {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const mean = latencies.length === 0 ? 0 : latencies.reduce((s, v) => s + v, 0) / latencies.length;
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    targetRate: rate,
    achievedRate: elapsedS > 0 ? Math.round(done / elapsedS) : 0,
    requests: done,
    ok,
    non2xx,
    errors,
    latencyMs: {
      mean: round(mean),
      p50: round(at(0.5)),
      p99: round(at(0.99)),
      max: round(latencies.at(-1) ?? 0),
    },
  };
}
