/**
 * `node bench/hot-path-micro.ts [rounds]`: in this process, what the embedded hot path's small
 * pieces cost a request, each against the way it was done before, in microseconds of CPU:
 * - the key cache's freshness check: a `PRAGMA data_version` read per lookup, against one read per
 *   event-loop turn shared by 10 lookups (as under 10 connections);
 * - the request log line at `info`: a pino child logger per request then its line, against the
 *   line through the root logger with the request id as a field (both to /dev/null, asynchronous);
 * - the calculator's envelope: JSON.stringify against a serializer compiled by
 *   fast-json-stringify from the envelope's shape and the tool's output schema;
 * - the key's SHA-256: a Hash object per request (createHash) against the one-shot crypto.hash.
 * - the same envelope written as Fastify writes an object (JSON.stringify, then its byte length),
 *   against the way a call computed on the main thread is written now, before the ledger charges
 *   it: the outputs as JSON (outputsJson), then the envelope joined around them (WrittenText).
 * Medians of `rounds` rounds (default 7). A quick check; `npm run bench` is the measure of record.
 */

import { createHash, hash } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import pino from "pino";
import { outputsJson, WrittenText } from "../src/core/call/envelope.ts";
import { retainingWallPressureCalculator as calculator } from "../src/tools/retaining-wall-pressure-calculator/index.ts";
import type { RetainingWallInput } from "../src/tools/retaining-wall-pressure-calculator/schema.ts";
import { calculatorBody } from "./lib/payloads.ts";

const rounds = Number(process.argv[2] ?? 7);
const N = 200_000;

/** CPU microseconds per iteration of `work` over N iterations, median of the rounds. */
function perCall(work: (i: number) => void): number {
  const samples: number[] = [];
  for (let r = 0; r < rounds + 1; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) work(i);
    const used = process.cpuUsage(start);
    if (r > 0) samples.push((used.user + used.system) / N);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? Number.NaN;
}

const dir = mkdtempSync(join(tmpdir(), "toolrun-micro-"));
try {
  const db = new DatabaseSync(join(dir, "micro.db"));
  db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  const dataVersion = db.prepare("PRAGMA data_version");
  dataVersion.setReturnArrays(true);
  const cache = new Map([["h", { id: "key" }]]);
  const perLookup = perCall(() => {
    dataVersion.get();
    cache.get("h");
  });
  const perTurnOf10 = perCall((i) => {
    if (i % 10 === 0) dataVersion.get();
    cache.get("h");
  });
  db.close();

  const destination = pino.destination({ dest: "/dev/null", sync: false, minLength: 8192 });
  await once(destination, "ready");
  const root = pino({ level: "info" }, destination);
  const req = { method: "POST", url: "/v1/tool/x", host: "127.0.0.1:3000", remoteAddress: "127.0.0.1" };
  const res = { statusCode: 200 };
  const child = perCall((i) => {
    root.child({ reqId: `req_${i}` }).info({ req, res, responseTime: 0.5 }, "request completed");
  });
  const rootLine = perCall((i) => {
    root.info({ reqId: `req_${i}`, req, res, responseTime: 0.5 }, "request completed");
  });
  destination.end();

  const envelope = {
    tool: calculator.slug,
    tool_version: calculator.version,
    outputs: calculator.run(JSON.parse(calculatorBody) as RetainingWallInput),
    credits_used: 1,
    credits_remaining: 999_999_999,
    request_id: "req_0123456789abcdefghij",
  };
  const stringify = perCall(() => JSON.stringify(envelope));
  // The serializer Fastify compiles from a route's response schema, taken from Fastify's own
  // dependencies (what a response schema on the tool route would use).
  const fastJsonStringify = createRequire(createRequire(import.meta.url).resolve("fastify"))(
    "fast-json-stringify",
  ) as (schema: object) => (value: unknown) => string;
  const { $schema: _dialect, title: _title, ...outputs } = calculator.outputSchema as Record<string, unknown>;
  const compiled = fastJsonStringify({
    type: "object",
    properties: {
      tool: { type: "string" },
      tool_version: { type: "string" },
      outputs,
      credits_used: { type: "integer" },
      credits_remaining: { type: ["integer", "null"] },
      request_id: { type: "string" },
    },
  });
  if (compiled(envelope) !== JSON.stringify(envelope))
    throw new Error("the compiled serializer writes another text");
  const compiledCost = perCall(() => compiled(envelope));

  const key = "tr_live_0123456789abcdefghijABCDEFGHIJKL";
  const hashObject = perCall(() => createHash("sha256").update(key).digest("hex"));
  const oneShot = perCall(() => hash("sha256", key, "hex"));
  const { tool, tool_version: version } = envelope;
  const asObject = perCall(() => Buffer.byteLength(JSON.stringify(envelope)));
  const writtenFirst = perCall(() => {
    const text = outputsJson(envelope.outputs) as string;
    Buffer.byteLength(new WrittenText(tool, version, text).envelope(envelope));
  });

  const line = (name: string, before: number, after: number) =>
    `${name.padEnd(44)} ${before.toFixed(2).padStart(6)} -> ${after.toFixed(2).padStart(6)} us`;
  process.stdout.write(
    [
      `median of ${rounds} rounds of ${N} calls, CPU per call`,
      line("key freshness: per lookup -> per turn of 10", perLookup, perTurnOf10),
      line("request line: child logger -> root + reqId", child, rootLine),
      line("envelope: JSON.stringify -> fast-json-stringify", stringify, compiledCost),
      line("key hash: createHash -> crypto.hash", hashObject, oneShot),
      line("envelope: as an object -> written before charge", asObject, writtenFirst),
      "",
    ].join("\n"),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
