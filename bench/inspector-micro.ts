/**
 * `node bench/inspector-micro.ts [rounds]`: the webhook inspector's `run` in this process, without
 * the HTTP service, on the bench's GitHub push deliveries (the ~1 MiB one and a typical one). Prints
 * the median and p90 of one call and of JSON.stringify of the response envelope, in milliseconds.
 * A quick check while working on the tool; `npm run bench` remains the measure of record.
 */
import { webhookPayloadInspector } from "../src/tools/webhook-payload-inspector/index.ts";
import { githubPushBody, githubPushNear } from "./lib/payloads.ts";

const WARM_UP_CALLS = 30;

interface Timings {
  readonly run: number[];
  readonly stringify: number[];
}

function measureInput(body: string, rounds: number): Timings {
  const input = JSON.parse(body) as { payload: string; secret?: string };
  for (let i = 0; i < WARM_UP_CALLS; i++) webhookPayloadInspector.run(input);
  const timings: Timings = { run: [], stringify: [] };
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    const outputs = webhookPayloadInspector.run(input);
    const ran = performance.now();
    // The shape the HTTP layer serialises; flattening the output's strings is part of this cost.
    JSON.stringify({ tool: webhookPayloadInspector.slug, outputs, credits_used: 5 });
    timings.run.push(ran - start);
    timings.stringify.push(performance.now() - ran);
  }
  return timings;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
}

function summary(name: string, values: readonly number[]): string {
  return `${name} median ${quantile(values, 0.5).toFixed(2)} ms, p90 ${quantile(values, 0.9).toFixed(2)} ms`;
}

const rounds = Number(process.argv[2] ?? 200);
const cases: ReadonlyArray<[string, string, number]> = [
  ["push near 1 MiB", githubPushNear(), rounds],
  ["typical push", githubPushBody(), rounds * 10],
];
for (const [name, body, count] of cases) {
  const timings = measureInput(body, count);
  process.stdout.write(
    `${name} (${count} calls): ${summary("run", timings.run)}; ${summary("stringify", timings.stringify)}\n`,
  );
}
