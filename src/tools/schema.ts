/**
 * Helpers for writing tool input schemas (JSON Schema 2020-12). Kept inside `src/tools/` so tools
 * stay free of any other part of the project.
 */
import type { JsonSchema } from "./tool.ts";

/** A finite decimal number written as a string: "3", "-0.5", "1e3" are accepted; "", "0x1", "NaN" are not. */
export const DECIMAL_STRING_PATTERN = "^\\s*[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?\\s*$";

/** Marks a property the pipeline converts from a numeric string to a number before validation. */
export const NUMERIC_STRING_KEYWORD = "x-numeric-string";

/**
 * Annotation naming the group a form shows a property in (its value is the group's title, e.g.
 * "Soil"). It has no effect on validation; properties without it stand ungrouped.
 */
export const GROUP_KEYWORD = "x-group";

/**
 * Annotation giving the unit a form shows beside a property's box: a string (`"degrees"`), or for a
 * unit that follows a choice field, the unit for each choice (`{ "units": { "metric": "m",
 * "imperial": "ft" } }`). It has no effect on validation.
 */
export const UNIT_KEYWORD = "x-unit";

/**
 * Annotation giving the words a form shows for each value of an `enum` (`{ "atrest": "At rest" }`);
 * the value sent stays the enum's. It has no effect on validation.
 */
export const CHOICES_KEYWORD = "x-choices";

/** The keywords of ours a schema may carry, for a validator to register (Ajv's `addKeyword`). */
export const SCHEMA_KEYWORDS: readonly {
  keyword: string;
  schemaType: ("boolean" | "string" | "object")[];
}[] = [
  { keyword: NUMERIC_STRING_KEYWORD, schemaType: ["boolean"] },
  { keyword: GROUP_KEYWORD, schemaType: ["string"] },
  { keyword: UNIT_KEYWORD, schemaType: ["string", "object"] },
  { keyword: CHOICES_KEYWORD, schemaType: ["object"] },
];

/**
 * A number that clients may also send as a numeric string. Bounds apply to the number; the pattern
 * to the string form. The pipeline converts a matching string to a number before validating, so the
 * bounds hold for both forms.
 */
export function numberOrNumericString(options: {
  title: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  default?: number;
  /** The form group's title (GROUP_KEYWORD). */
  group?: string;
  /** The unit a form shows beside the box (UNIT_KEYWORD). */
  unit?: string | { readonly units: Readonly<Record<string, string>> };
}): JsonSchema {
  const { group, unit, ...keywords } = options;
  return {
    type: ["number", "string"],
    pattern: DECIMAL_STRING_PATTERN,
    [NUMERIC_STRING_KEYWORD]: true,
    ...keywords,
    ...(group !== undefined && { [GROUP_KEYWORD]: group }),
    ...(unit !== undefined && { [UNIT_KEYWORD]: unit }),
  };
}
