/**
 * Shared by this tool's tests only (not a test file itself): Ajv 2020 validators for the published
 * schemas, compiled with the same strictness the pipeline uses, and the numeric-string conversion
 * the pipeline performs before validation (re-implemented here so the tests import nothing of ours
 * outside src/tools/).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { DECIMAL_STRING_PATTERN, NUMERIC_STRING_KEYWORD } from "../schema.ts";
import type { JsonSchema } from "../tool.ts";
import { inputSchema, outputSchema } from "./schema.ts";

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, useDefaults: false });
ajv.addKeyword({ keyword: NUMERIC_STRING_KEYWORD, schemaType: "boolean" });

export const validateInput: ValidateFunction = ajv.compile(inputSchema);
export const validateOutput: ValidateFunction = ajv.compile(outputSchema);

const decimal = new RegExp(DECIMAL_STRING_PATTERN);

/** Numeric strings in properties marked `x-numeric-string` become numbers; nothing else changes. */
export function convertNumericStrings(body: Record<string, unknown>): Record<string, unknown> {
  const properties = inputSchema.properties as Record<string, JsonSchema>;
  const converted: Record<string, unknown> = { ...body };
  for (const [name, value] of Object.entries(body)) {
    if (
      properties[name]?.[NUMERIC_STRING_KEYWORD] === true &&
      typeof value === "string" &&
      decimal.test(value)
    ) {
      converted[name] = Number(value);
    }
  }
  return converted;
}

/** Validates a request body the way the pipeline does; returns Ajv's errors (empty when valid). */
export function inputErrors(
  body: Record<string, unknown>,
): readonly { instancePath: string; keyword: string }[] {
  return validateInput(convertNumericStrings(body)) ? [] : (validateInput.errors ?? []);
}

/** Ajv's messages for an output that fails the output schema, or "" when it passes. */
export function outputSchemaErrors(output: unknown): string {
  return validateOutput(output) ? "" : ajv.errorsText(validateOutput.errors);
}
