/**
 * The bench's baseline: a bare Fastify route (no logger, no auth, no store) that parses the JSON
 * body and answers the calculator's envelope, computed once at start from the same input, so its
 * response has the calculator's size. What the service does on top of HTTP + JSON is the gap.
 * Usage: node bench/baseline-server.ts [port]; prints "baseline listening on URL".
 */
import Fastify from "fastify";
import { retainingWallPressureCalculator } from "../src/tools/retaining-wall-pressure-calculator/index.ts";
import type { RetainingWallInput } from "../src/tools/retaining-wall-pressure-calculator/schema.ts";
import { CALCULATOR_SLUG, calculatorBody } from "./lib/payloads.ts";

const envelope = {
  tool: CALCULATOR_SLUG,
  tool_version: retainingWallPressureCalculator.version,
  outputs: retainingWallPressureCalculator.run(JSON.parse(calculatorBody) as RetainingWallInput),
  credits_used: 1,
  credits_remaining: 999_999_999,
  request_id: "req_0123456789abcdefghij",
};

const app = Fastify({ logger: false });
app.post("/v1/tool/:slug", async () => envelope);

const address = await app.listen({ host: "127.0.0.1", port: Number(process.argv[2] ?? 0) });
process.stdout.write(`baseline listening on ${address}\n`);

const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
