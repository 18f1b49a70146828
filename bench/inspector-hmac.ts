/**
 * `node bench/inspector-hmac.ts [batches]`: what keying HMACs with a `KeyObject` saves, in this
 * process. First node:crypto alone on an 8.8 KB body (a `Buffer` key, which `createHmac` imports
 * on every call, against one `KeyObject` reused); then the inspector's `run` on the bench's typical
 * GitHub push with its secret. Prints the median over batches, in microseconds per call. A quick
 * check while working on the tool; `npm run bench` remains the measure of record.
 */
import { Buffer } from "node:buffer";
import { createHmac, createSecretKey } from "node:crypto";
import { webhookPayloadInspector } from "../src/tools/webhook-payload-inspector/index.ts";
import { githubPushBody } from "./lib/payloads.ts";

const CALLS_PER_BATCH = 200;

function medianMicroseconds(batches: number, call: () => void): number {
  for (let i = 0; i < CALLS_PER_BATCH * 5; i++) call();
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = performance.now();
    for (let i = 0; i < CALLS_PER_BATCH; i++) call();
    perCall.push(((performance.now() - start) * 1000) / CALLS_PER_BATCH);
  }
  perCall.sort((x, y) => x - y);
  return perCall[Math.floor(perCall.length / 2)] ?? Number.NaN;
}

const batches = Number(process.argv[2] ?? 100);
const body = Buffer.alloc(8800, "a");
const secret = "bench-webhook-secret";
const bufferKey = Buffer.from(secret, "utf8");
const keyObject = createSecretKey(bufferKey);
const input = JSON.parse(githubPushBody()) as { payload: string; secret: string };
const results: ReadonlyArray<[string, () => void]> = [
  ["HMAC-SHA256, 8.8 KB, Buffer key", () => createHmac("sha256", bufferKey).update(body).digest()],
  ["HMAC-SHA256, 8.8 KB, KeyObject reused", () => createHmac("sha256", keyObject).update(body).digest()],
  [
    `inspector run, typical push (${Buffer.byteLength(input.payload)} B) with secret`,
    () => webhookPayloadInspector.run(input),
  ],
];
for (const [name, call] of results) {
  process.stdout.write(`${name}: median ${medianMicroseconds(batches, call).toFixed(2)} us per call\n`);
}
