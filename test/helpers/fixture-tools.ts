/**
 * Small tools made for tests of the pipeline: their behaviour (ok, no answer, crash) is chosen by
 * the input, so every path through invokeTool can be driven over HTTP and MCP.
 */
import { numberOrNumericString } from "../../src/tools/schema.ts";
import {
  type AnyToolDefinition,
  type ToolDefinition,
  UnprocessableInputError,
} from "../../src/tools/tool.ts";

interface EchoInput {
  value: number;
  mode?: "ok" | "unprocessable" | "crash" | "slow";
  note?: string;
}

export const echoTool = {
  slug: "echo",
  name: "Echo",
  description: "Returns the number it is given, doubled. Made for tests.",
  keywords: ["test", "double"],
  version: "2.1.0",
  defaults: { weight: 3, maxBodyBytes: 256 },
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    additionalProperties: false,
    required: ["value"],
    properties: {
      value: numberOrNumericString({ title: "Value", minimum: 0, maximum: 100 }),
      mode: { type: "string", enum: ["ok", "unprocessable", "crash", "slow"] },
      note: { type: "string", maxLength: 200 },
    },
  },
  outputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["value", "doubled"],
    properties: { value: { type: "number" }, doubled: { type: "number" } },
  },
  examples: [{ title: "Double 21", input: { value: 21 } }],
  effects: "none",
  run(input) {
    if (input.mode === "unprocessable") throw new UnprocessableInputError("Echo has no answer in this mode.");
    if (input.mode === "crash") throw new Error("secret internal detail");
    // Keeps its thread busy for 10 × `value` milliseconds (a pure tool cannot sleep).
    if (input.mode === "slow") for (const until = Date.now() + 10 * input.value; Date.now() < until; );
    return { value: input.value, doubled: input.value * 2 };
  },
} satisfies ToolDefinition<EchoInput, { value: number; doubled: number }>;

export const heavyTool = {
  slug: "heavy-text",
  name: "Heavy Text Counter",
  description: "Counts characters of a long text. Made for tests.",
  keywords: ["length"],
  version: "1.0.0",
  defaults: { weight: 5, maxBodyBytes: 4096 },
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["text"],
    properties: { text: { type: "string" } },
  },
  outputSchema: { type: "object", properties: { length: { type: "integer" } } },
  examples: [],
  effects: "none",
  run: (input) => ({ length: [...input.text].length }),
} satisfies ToolDefinition<{ text: string }, { length: number }>;

export const fixtureTools: readonly AnyToolDefinition[] = [echoTool, heavyTool];
