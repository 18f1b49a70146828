/**
 * The bench's operator module (loaded through TOOLRUN_TOOLS): a tool that answers at once with the
 * calculator's outputs for the bench's input, computed when the module loads, so its envelope is
 * the calculator's size and only the compute differs. `{"promise": true}` answers with a resolved
 * promise instead (the asynchronous path: its timer and promise), anything else synchronously.
 */
import type { ToolDefinition } from "toolrun/tool";
import { retainingWallPressureCalculator } from "../../src/tools/retaining-wall-pressure-calculator/index.ts";
import type { RetainingWallInput } from "../../src/tools/retaining-wall-pressure-calculator/schema.ts";
import { calculatorBody } from "../lib/payloads.ts";

const outputs = retainingWallPressureCalculator.run(JSON.parse(calculatorBody) as RetainingWallInput);

export default {
  slug: "instant-answer",
  name: "Instant Answer",
  description: "Answers at once with a fixed result of the calculator's size. Made for the bench.",
  keywords: ["bench"],
  version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 16 * 1024 },
  inputSchema: { type: "object", properties: { promise: { type: "boolean" } } },
  outputSchema: { type: "object" },
  examples: [],
  effects: "none",
  run: (input: { promise?: boolean }) => (input.promise === true ? Promise.resolve(outputs) : outputs),
} satisfies ToolDefinition<{ promise?: boolean }, typeof outputs>;
