/**
 * Helpers shared by the inspector's tests: building raw requests, a pinned clock, reading overview
 * rows, and the output schema checked by the pipeline's own validator.
 */
import { compileOutputValidator } from "../../../src/core/kernel/validation.ts";
import { inspect } from "../../../src/tools/webhook-payload-inspector/index.ts";
import type {
  InspectorInput,
  InspectorOutput,
  OverviewProperty,
} from "../../../src/tools/webhook-payload-inspector/schema.ts";
import { outputSchema } from "../../../src/tools/webhook-payload-inspector/schema.ts";

/** 2023-11-14T22:13:20Z plus one minute: "now" for every test that checks a timestamp window. */
export const NOW = 1_700_000_060_000;

/** A raw request: head lines, an empty line, then the body, joined with `eol`. */
export function rawRequest(head: readonly string[], body: string, eol = "\r\n"): string {
  return [...head, "", body].join(eol);
}

export function run(payload: string, secret?: string, now = NOW): InspectorOutput {
  const input: InspectorInput = secret === undefined ? { payload } : { payload, secret };
  return inspect(input, now);
}

export function row(output: InspectorOutput, property: OverviewProperty): string {
  const found = output.overview.find((entry) => entry.property === property);
  if (found === undefined) throw new Error(`no overview row ${property}`);
  return found.value;
}

const checkOutput = compileOutputValidator(outputSchema);

/** The pipeline's Ajv errors of `outputs` against the published output schema, or null when it conforms. */
export function outputErrors(output: unknown): string | null {
  return checkOutput(output) || null;
}
