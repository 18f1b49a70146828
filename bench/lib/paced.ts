/**
 * An open-loop load generator at a fixed rate, for latency at a given rate. autocannon's
 * overallRate sends each connection's share of a second in one burst and then idles, so its
 * latencies are those of a burst; here requests leave evenly spaced (1 ms timer granularity) over
 * a pool of keep-alive connections that grows when all are busy, and each latency runs from the
 * moment the request was due, so a slow answer that delays later requests counts against them
 * too (no coordinated omission).
 *
 * One exception, measured apart: when the generator itself wakes up late (its own CPU taken away,
 * which the 1 ms ticks show), the requests that fell due while it slept are counted from its
 * wake-up, since no server could have seen them earlier. `latencyMs` is that figure; waiting for a
 * free connection (a busy server) still counts in it. `latencyFromDueMs` charges the generator's
 * hiccups to the server too, for comparison.
 */
import { performance } from "node:perf_hooks";
import { encodeRequest, RawConnection } from "./raw-client.ts";

export interface PacedOptions {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Requests per second. */
  readonly rate: number;
  readonly durationS: number;
  /** Most connections open at once; requests beyond them wait (and that wait counts). */
  readonly maxConnections?: number;
}

export interface PacedResult {
  readonly targetRate: number;
  readonly achievedRate: number;
  readonly requests: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Connections the pool needed to keep the schedule. */
  readonly connections: number;
  /** The generator's own hiccups: the longest gap between its 1 ms ticks, and gaps over 5 ms. */
  readonly generatorMaxGapMs: number;
  readonly generatorGapsOver5Ms: number;
  /** From when the request was due, or from the generator's late wake-up (see above). */
  readonly latencyMs: LatencySummary;
  /** From when the request was due, whatever delayed it. */
  readonly latencyFromDueMs: LatencySummary;
}

export interface LatencySummary {
  readonly mean: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** When a request was due, and the earliest moment the generator was awake to send it. */
interface Origin {
  readonly due: number;
  readonly sendable: number;
}

export async function runPaced(options: PacedOptions): Promise<PacedResult> {
  const target = new URL(options.url);
  const port = Number(target.port || 80);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const request = encodeRequest(target, options.method, options.headers, body);
  const maxConnections = options.maxConnections ?? 256;
  const total = Math.max(1, Math.round(options.rate * options.durationS));
  const intervalMs = 1000 / options.rate;
  const pool: RawConnection[] = [];
  const waiting: Origin[] = [];
  const latencies: number[] = [];
  const latenciesFromDue: number[] = [];
  const counts = { ok: 0, non2xx: 0, errors: 0, done: 0 };
  let sent = 0;
  let maxGap = 0;
  let gaps = 0;

  // Connections opened before the clock starts, so the first requests do not pay for them.
  for (let i = 0; i < Math.min(maxConnections, 8); i++) pool.push(new RawConnection(target.hostname, port));
  await Promise.all(pool.map((c) => c.ready));

  const idle = (): RawConnection | undefined => {
    const free = pool.find((c) => !c.busy && !c.dead);
    if (free) return free;
    if (pool.filter((c) => !c.dead).length >= maxConnections) return undefined;
    const fresh = new RawConnection(target.hostname, port);
    pool.push(fresh);
    return fresh;
  };

  return new Promise((resolve) => {
    const start = performance.now();
    let lastEnd = start;
    let lastTick = start;
    const finish = () => {
      clearInterval(ticker);
      clearTimeout(bound);
      for (const connection of pool) connection.close();
      resolve({
        ...summarise(options.rate, (lastEnd - start) / 1000, counts, pool.length),
        latencyMs: summariseLatencies(latencies),
        latencyFromDueMs: summariseLatencies(latenciesFromDue),
        generatorMaxGapMs: Math.round(maxGap * 10) / 10,
        generatorGapsOver5Ms: gaps,
      });
    };
    const fire = (connection: RawConnection, origin: Origin) => {
      connection.send(request, (status) => {
        const end = performance.now();
        lastEnd = end;
        if (status === null) counts.errors++;
        else if (status >= 200 && status < 300) {
          counts.ok++;
          latencies.push(end - origin.sendable);
          latenciesFromDue.push(end - origin.due);
        } else counts.non2xx++;
        if (++counts.done === total) return finish();
        const next = waiting.shift();
        if (next === undefined) return;
        const free = idle();
        if (free) fire(free, next);
        else waiting.unshift(next);
      });
    };
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - lastTick);
      if (now - lastTick > 5) gaps++;
      lastTick = now;
      const due = Math.min(total, Math.floor((now - start) / intervalMs) + 1);
      while (sent < due) {
        const at = start + sent++ * intervalMs;
        // Due before this tick only if the generator slept past its 1 ms tick.
        const origin = { due: at, sendable: Math.max(at, now - 1) };
        const connection = idle();
        if (connection) fire(connection, origin);
        else waiting.push(origin);
      }
    }, 1);
    // Bounded in time whatever the server does: answers still missing 10 s after the last send count as errors.
    const bound = setTimeout(
      () => {
        counts.errors += total - counts.done;
        finish();
      },
      options.durationS * 1000 + 10_000,
    );
  });
}

function summariseLatencies(latencies: number[]): LatencySummary {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const mean = latencies.length === 0 ? 0 : latencies.reduce((s, v) => s + v, 0) / latencies.length;
  const round = (v: number) => Math.round(v * 100) / 100;
  return { mean: round(mean), p50: round(at(0.5)), p99: round(at(0.99)), max: round(latencies.at(-1) ?? 0) };
}

function summarise(
  rate: number,
  elapsedS: number,
  counts: { ok: number; non2xx: number; errors: number; done: number },
  connections: number,
): Omit<PacedResult, "generatorMaxGapMs" | "generatorGapsOver5Ms" | "latencyMs" | "latencyFromDueMs"> {
  return {
    targetRate: rate,
    achievedRate: elapsedS > 0 ? Math.round(counts.done / elapsedS) : 0,
    requests: counts.done,
    ok: counts.ok,
    non2xx: counts.non2xx,
    errors: counts.errors,
    connections,
  };
}
