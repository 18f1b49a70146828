/**
 * Shared by the retaining-wall calculator's tests: the pipeline's own validators for the published
 * schemas, so the tests check exactly what a request meets.
 */
import { compileInputValidator, compileOutputValidator } from "../../../src/core/call/validation.ts";
import type { WallParameters } from "../../../src/tools/retaining-wall-pressure-calculator/compute.ts";
import { inputSchema, outputSchema } from "../../../src/tools/retaining-wall-pressure-calculator/schema.ts";

const validateRequest = compileInputValidator(inputSchema);

/** The `fields` of the 400 the pipeline would answer, or `{}` when the body is valid. */
export function inputErrors(body: Record<string, unknown>): Record<string, string> | string {
  const result = validateRequest(body);
  return result.ok ? {} : result.fields;
}

/** The body as `run` receives it (numeric strings turned into numbers); throws when invalid. */
export function convertNumericStrings(body: Record<string, unknown>): Record<string, unknown> {
  const result = validateRequest(body);
  if (!result.ok) throw new Error(`invalid request: ${JSON.stringify(result.fields)}`);
  return result.value;
}

/** Ajv's messages for an output that fails the output schema, or "" when it passes. */
export const outputSchemaErrors = compileOutputValidator(outputSchema);

/** A wall's parameters as the compute takes them, every input at its default unless overridden. */
export const wall = (overrides: Partial<WallParameters>): WallParameters => ({
  state: "active",
  method: "rankine",
  height: 5,
  unitWeight: 18,
  frictionAngle: 30,
  backfillSlope: 0,
  surcharge: 0,
  wallFriction: 0,
  wallInclination: 0,
  cohesion: 0,
  ...overrides,
});
