/**
 * Helpers shared by the inspector's tests: building raw requests, a pinned clock, reading overview
 * rows, and the output schema compiled with Ajv 2020 in strict mode. Test-only; the tool never
 * imports this file.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { inspect } from "./index.ts";
import type { InspectorInput, InspectorOutput, OverviewProperty } from "./schema.ts";
import { outputSchema } from "./schema.ts";

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

const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
const validateOutput = ajv.compile(outputSchema);

/** The Ajv errors of `outputs` against the published output schema, or null when it conforms. */
export function outputErrors(output: unknown): string | null {
  return validateOutput(output) ? null : ajv.errorsText(validateOutput.errors);
}
