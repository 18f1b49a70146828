/**
 * Validates request bodies against a tool's published JSON Schema (2020-12) and names every bad
 * field. The only transformation is the one the API documents: a numeric string becomes a number
 * for a property marked `x-numeric-string`. No other coercion, no defaults, no stripping.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { DECIMAL_STRING_PATTERN, NUMERIC_STRING_KEYWORD, SCHEMA_KEYWORDS } from "../../tools/schema.ts";
import type { JsonSchema } from "../../tools/tool.ts";

export type ValidationResult =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly fields: Record<string, string> | string };

export type InputValidator = (body: unknown) => ValidationResult;

const ajv = new Ajv2020({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  verbose: true,
  coerceTypes: false,
  useDefaults: false,
});
for (const keyword of SCHEMA_KEYWORDS) ajv.addKeyword(keyword);
// The formats of JSON Schema 2020-12 (date, date-time, email, uri, uuid...) are checked, as an
// operator's schema (or an imported OpenAPI document) means them; an unknown one still stops start-up.
addFormats.default(ajv);
const DECIMAL_STRING = new RegExp(DECIMAL_STRING_PATTERN);

/** Checks a tool's output against its output schema: "" when it conforms, else Ajv's messages. */
export function compileOutputValidator(schema: JsonSchema): (output: unknown) => string {
  const validate = ajv.compile(schema);
  return (output) => (validate(output) ? "" : ajv.errorsText(validate.errors));
}

/**
 * A validator compiled on its first call, for the service's own fixed schemas (reads, admin): a
 * process that never meets one (a CLI command, most tests) does not pay for compiling it. A tool's
 * schema is compiled when the tool is registered, so that a bad one stops start-up.
 */
export function lazyInputValidator(schema: JsonSchema): InputValidator {
  let validate: InputValidator | undefined;
  return (body) => {
    validate ??= compileInputValidator(schema);
    return validate(body);
  };
}

export function compileInputValidator(schema: JsonSchema): InputValidator {
  const validate = ajv.compile(schema);
  const numericProperties = numericStringProperties(schema);
  return (body) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return { ok: false, fields: "the request body must be a JSON object" };
    }
    const input: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    const tooLarge: string[] = [];
    for (const name of numericProperties) {
      const raw = input[name];
      if (typeof raw === "string" && DECIMAL_STRING.test(raw)) {
        const number = Number(raw);
        if (Number.isFinite(number)) input[name] = number;
        else tooLarge.push(name); // "1e999": decimal in form, but no finite number
      }
    }
    const valid = validate(input);
    if (valid && tooLarge.length === 0) return { ok: true, value: input };
    const fields = valid ? {} : fieldMessages(validate);
    for (const name of tooLarge)
      if (!Object.hasOwn(fields, name)) setField(fields, name, "must be a finite number");
    return { ok: false, fields };
  };
}

function numericStringProperties(schema: JsonSchema): string[] {
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return [];
  return Object.entries(properties as Record<string, JsonSchema>)
    .filter(([, property]) => property[NUMERIC_STRING_KEYWORD] === true)
    .map(([name]) => name);
}

function fieldMessages(validate: ValidateFunction): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of validate.errors ?? []) {
    const field = fieldName(error);
    // The first message per field is the most specific one Ajv gives (type before bounds).
    if (!Object.hasOwn(fields, field)) setField(fields, field, message(error));
  }
  return fields;
}

/**
 * Field names come from the client, so they may be `constructor` or `__proto__`: only own
 * members count, and defining one (never assigning it) keeps `__proto__` a field like any other.
 */
function setField(fields: Record<string, string>, name: string, text: string): void {
  Object.defineProperty(fields, name, { value: text, enumerable: true, writable: true, configurable: true });
}

function fieldName(error: ErrorObject): string {
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (error.keyword === "required") path.push(String(error.params.missingProperty));
  if (error.keyword === "additionalProperties") path.push(String(error.params.additionalProperty));
  return path.length === 0 ? "body" : path.join(".");
}

function message(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return "is required";
    case "additionalProperties":
      return "is not a known field";
    case "minimum":
      return `must be at least ${params.limit}`;
    case "maximum":
      return `must be at most ${params.limit}`;
    case "exclusiveMinimum":
      return `must be greater than ${params.limit}`;
    case "exclusiveMaximum":
      return `must be less than ${params.limit}`;
    case "enum":
      return `must be one of: ${(params.allowedValues as unknown[]).join(", ")}`;
    case "type": {
      const types = String(params.type).split(",");
      if (types.includes("number") && types.includes("string")) return "must be a number or a numeric string";
      return `must be ${types.map(article).join(" or ")}`;
    }
    case "pattern":
      return error.parentSchema?.[NUMERIC_STRING_KEYWORD] === true
        ? "must be a number or a numeric string"
        : `must match the pattern ${params.pattern}`;
    case "minProperties":
      return `must have at least ${params.limit} member${params.limit === 1 ? "" : "s"}`;
    case "maxProperties":
      return `must have at most ${params.limit} members`;
    case "minLength":
      return `must be at least ${params.limit} characters long`;
    case "maxLength":
      return `must be at most ${params.limit} characters long`;
    default:
      return error.message ?? "is invalid";
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
