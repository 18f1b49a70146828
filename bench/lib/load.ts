/**
 * A typed wrapper over the part of autocannon (CommonJS, ships no types) the bench uses: one
 * closed-loop run against one URL, summarised into the figures the report prints.
 */
import { createRequire } from "node:module";

export interface LoadOptions {
  /** Several URLs: autocannon spreads the connections over them (keep connections a multiple). */
  readonly url: string | readonly string[];
  readonly method?: "GET" | "POST";
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly connections: number;
  /** Seconds; ignored when `amount` is set. */
  readonly duration?: number;
  /** A fixed number of requests; the run ends when every response has arrived. */
  readonly amount?: number;
  /** autocannon's overallRate: requests per second over all connections (sent in bursts). */
  readonly overallRate?: number;
  readonly timeout?: number;
  /** Headers per connection, handed out in turn (one API key per connection, say). */
  readonly clientHeaders?: readonly Readonly<Record<string, string>>[];
}

interface Histogram {
  readonly average: number;
  readonly mean: number;
  readonly stddev: number;
  readonly min: number;
  readonly max: number;
  readonly total: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly p99_9: number;
}

interface RawResult {
  readonly duration: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly "2xx": number;
  readonly latency: Histogram;
  readonly requests: Histogram & { readonly sent: number };
  readonly throughput: Histogram;
  readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>;
}

interface Client {
  setHeaders(headers: Readonly<Record<string, string>>): void;
}

interface Instance {
  stop(): void;
}

type Autocannon = (
  options: Record<string, unknown>,
  callback: (error: Error | null, result: RawResult) => void,
) => Instance;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export interface LoadResult {
  /** Completed responses per second over the run (every status). */
  readonly rps: number;
  readonly requests: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly durationS: number;
  /** Latency of 2xx responses in ms (autocannon's histogram has 1 ms resolution). */
  readonly latencyMs: {
    readonly mean: number;
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly statusCodes: Readonly<Record<string, number>>;
}

/** Runs autocannon; `hardStopS` bounds the run in time even when `amount` is set. */
export function runLoad(options: LoadOptions, hardStopS?: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let clients = 0;
    const perClient = options.clientHeaders;
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        body: options.body,
        connections: options.connections,
        duration: options.duration ?? 10,
        amount: options.amount,
        overallRate: options.overallRate,
        // autocannon 9 corrects with an expected interval of ceil(1 / rate) ms = 1 ms, which is not
        // the real send interval; the paced generator (paced.ts) measures rate-limited latency instead.
        ignoreCoordinatedOmission: options.overallRate !== undefined,
        timeout: options.timeout ?? 10,
        setupClient:
          perClient === undefined || perClient.length === 0
            ? undefined
            : (client: Client) => client.setHeaders(perClient[clients++ % perClient.length] ?? {}),
      },
      (error, raw) => {
        if (timer) clearTimeout(timer);
        if (error) return reject(error);
        resolve(summarise(raw));
      },
    );
    if (hardStopS !== undefined) timer = setTimeout(() => instance.stop(), hardStopS * 1000);
  });
}

function summarise(raw: RawResult): LoadResult {
  const requests = raw.requests.total;
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(raw.statusCodeStats)) statusCodes[code] = stat.count;
  return {
    rps: raw.duration > 0 ? requests / raw.duration : 0,
    requests,
    ok: raw["2xx"],
    non2xx: raw.non2xx,
    errors: raw.errors,
    timeouts: raw.timeouts,
    durationS: raw.duration,
    latencyMs: {
      mean: raw.latency.mean,
      p50: raw.latency.p50,
      p99: raw.latency.p99,
      max: raw.latency.max,
    },
    statusCodes,
  };
}
