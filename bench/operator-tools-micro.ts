/**
 * `npx node bench/operator-tools-micro.ts`: two costs of the operator tools' path, in process,
 * each beside its alternative, three rounds alternating:
 * - the calculator's `run` called alone against one run through `runToolCall` (the context, the
 *   output check): what the one way of running every tool costs a built-in one;
 * - one POST to a local upstream (bench/upstream-server.ts, a child process) through Node's `fetch`
 *   against undici's `request` (the HTTP tools' client), CPU of this process a call.
 * `npm run bench` is the measure of record; this isolates the two.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { checkedTools } from "../src/core/tools/loader.ts";
import { runToolCall } from "../src/core/tools/run.ts";
import { tools } from "../src/tools/index.ts";
import { calculatorBody } from "./lib/payloads.ts";

const ROUNDS = 3;

async function cpuNsPerCall(calls: number, concurrency: number, call: () => unknown): Promise<number> {
  let left = calls;
  const started = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await call();
    }),
  );
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / calls;
}

const [calculator] = checkedTools(tools);
if (!calculator) throw new Error("no calculator");
const input = JSON.parse(calculatorBody) as Record<string, unknown>;
const alone = () => (calculator.definition.run as (input: unknown) => unknown)(input);
const through = () => runToolCall(calculator, input, { requestId: "req_micro" });

const upstream = spawn(process.execPath, [fileURLToPath(new URL("./upstream-server.ts", import.meta.url))], {
  stdio: ["ignore", "pipe", "inherit"],
});
const origin = await new Promise<string>((resolve) =>
  upstream.stdout.on("data", (chunk: Buffer) => {
    const match = /(http:\/\/\S+)/.exec(String(chunk));
    if (match?.[1]) resolve(match[1]);
  }),
);
const post = {
  method: "POST" as const,
  headers: { "content-type": "application/json" },
  body: calculatorBody,
};
const viaFetch = async () => (await fetch(`${origin}/echo`, post)).arrayBuffer();
const viaUndici = async () => (await request(`${origin}/echo`, post)).body.arrayBuffer();

try {
  for (let round = 1; round <= ROUNDS; round++) {
    const figures: string[] = [];
    for (const [name, call, calls, concurrency] of [
      ["calculator run alone", alone, 200_000, 1],
      ["calculator through runToolCall", through, 200_000, 1],
      ["POST through fetch", viaFetch, 4_000, 10],
      ["POST through undici request", viaUndici, 4_000, 10],
    ] as const) {
      await cpuNsPerCall(calls / 10, concurrency, call);
      figures.push(`${name} ${((await cpuNsPerCall(calls, concurrency, call)) / 1000).toFixed(1)} us`);
    }
    process.stdout.write(`round ${round}: ${figures.join("; ")}\n`);
  }
} finally {
  upstream.kill();
}
