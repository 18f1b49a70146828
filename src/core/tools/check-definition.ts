/**
 * Checks a tool definition against the public contract (src/tools/tool.ts) when it is loaded,
 * so a bad one stops start-up naming the problem instead of failing a call later. The schemas are
 * compiled by the same validator the calls use, and every example must be a valid input.
 */
import type { JsonSchema, ToolDefinition, ToolEffects, ToolJobs } from "../../tools/tool.ts";
import { compileInputValidator, compileOutputValidator } from "../kernel/validation.ts";

/** A definition that passed the checks, with its defaults filled in. */
export interface CheckedDefinition extends ToolDefinition {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly jobs: ToolJobs;
}

export interface CheckedTool {
  readonly definition: CheckedDefinition;
  /** "" when `output` matches the output schema, else the validator's messages (for logs only). */
  readonly checkOutput: (output: unknown) => string;
  /** What the client is told when the tool runs past its timeout, where the tool can say more than "it". */
  readonly timeoutDetail?: string;
}

export type DefinitionCheck =
  | { readonly ok: true; readonly tool: CheckedTool }
  | { readonly ok: false; readonly problems: readonly string[] };

export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_TIMEOUT_MS = 300_000;
/** The longest a job's run may be: an hour. */
export const MAX_JOB_TIMEOUT_MS = 3_600_000;
/** How large a tool's `outputs` may be as JSON, unless its definition says otherwise: 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** The most a definition (or an HTTP tool's `maxResponseBytes`) may set: 100 MiB. */
export const MAX_OUTPUT_BYTES = 100 * 1024 * 1024;
/** The largest count the stores' 32-bit columns hold, as the configuration file's numbers. */
export const MAX_COUNT = 2_147_483_647;

export const SLUG = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
export const MAX_SLUG_LENGTH = 64;
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;
/** What a tool says of itself in the catalog, the same in a definition and an HTTP tool's declaration. */
export const CATALOG_MEMBERS = ["slug", "name", "description", "keywords", "version"];
const MEMBERS = [
  ...CATALOG_MEMBERS,
  "defaults",
  "inputSchema",
  "outputSchema",
  "examples",
  "effects",
  "timeoutMs",
  "jobs",
  "maxOutputBytes",
  "annotations",
  "checkInput",
  "run",
];
const EFFECTS: readonly ToolEffects[] = ["none", "external"];
export const JOBS: readonly ToolJobs[] = ["no", "optional", "required"];

/** A tool's `jobs`, or its default: a tool with effects outside may run as a job when asked. */
export function jobsOf(jobs: ToolJobs | undefined, effects: ToolEffects): ToolJobs {
  return jobs ?? (effects === "external" ? "optional" : "no");
}

/** The longest `timeoutMs` a tool may set: an hour when it may run as a job. */
export function maxTimeoutOf(jobs: unknown, effects: unknown): number {
  const runsAsJob =
    jobs === "optional" || jobs === "required" || (jobs === undefined && effects === "external");
  return runsAsJob ? MAX_JOB_TIMEOUT_MS : MAX_TIMEOUT_MS;
}

/** Checks `value`, a module's default export or a built-in tool; each problem is one phrase. */
export function checkDefinition(value: unknown): DefinitionCheck {
  if (!isObject(value))
    return { ok: false, problems: ["the default export is not a tool definition (an object)"] };
  const problems: string[] = [];
  for (const key of Object.keys(value))
    if (!MEMBERS.includes(key)) problems.push(`unknown member "${key}" (expected ${MEMBERS.join(", ")})`);

  const slugProblem = checkSlug(value.slug);
  if (slugProblem) problems.push(slugProblem);
  for (const member of ["name", "description"] as const) {
    if (typeof value[member] !== "string" || value[member].trim() === "")
      problems.push(`${member} must be a non-empty string`);
  }
  if (!isStringList(value.keywords)) problems.push("keywords must be an array of non-empty strings");
  if (typeof value.version !== "string" || !VERSION.test(value.version))
    problems.push("version must be three dotted numbers, like 1.0.0");
  problems.push(...checkDefaults(value.defaults));
  if (typeof value.effects !== "string" || !(EFFECTS as readonly string[]).includes(value.effects))
    problems.push(`effects must be "none" or "external"`);
  if (value.jobs !== undefined && !(JOBS as readonly unknown[]).includes(value.jobs))
    problems.push(`jobs must be "no", "optional" or "required"`);
  const timeoutProblem = checkInteger(
    value.timeoutMs,
    "timeoutMs",
    1,
    maxTimeoutOf(value.jobs, value.effects),
  );
  if (value.timeoutMs !== undefined && timeoutProblem) problems.push(timeoutProblem);
  const outputProblem = checkInteger(value.maxOutputBytes, "maxOutputBytes", 2, MAX_OUTPUT_BYTES);
  if (value.maxOutputBytes !== undefined && outputProblem) problems.push(outputProblem);
  problems.push(...checkAnnotations(value.annotations, value.effects));
  if (typeof value.run !== "function") problems.push("run must be a function");
  if (value.checkInput !== undefined && typeof value.checkInput !== "function")
    problems.push("checkInput must be a function when given");

  const validateInput = compileSchema(value.inputSchema, "inputSchema", problems, compileInputValidator);
  const checkOutput = compileSchema(value.outputSchema, "outputSchema", problems, compileOutputValidator);
  problems.push(...checkExamples(value.examples, validateInput));
  if (problems.length > 0 || checkOutput === undefined) return { ok: false, problems };

  const definition = value as unknown as ToolDefinition;
  return {
    ok: true,
    tool: {
      definition: Object.freeze({
        slug: definition.slug,
        name: definition.name,
        description: definition.description,
        keywords: definition.keywords,
        version: definition.version,
        defaults: definition.defaults,
        inputSchema: definition.inputSchema,
        outputSchema: definition.outputSchema,
        examples: definition.examples,
        effects: definition.effects,
        timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        jobs: jobsOf(definition.jobs, definition.effects),
        maxOutputBytes: definition.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
        ...(definition.annotations && { annotations: Object.freeze({ ...definition.annotations }) }),
        ...(definition.checkInput && { checkInput: definition.checkInput.bind(definition) }),
        // Bound, so a `run` that reads `this` sees the definition it was written in.
        run: definition.run.bind(definition),
      }),
      checkOutput,
    },
  };
}

/** The problem with `slug`, or undefined when it is a valid slug. */
export function checkSlug(slug: unknown): string | undefined {
  if (typeof slug === "string" && SLUG.test(slug) && slug.length <= MAX_SLUG_LENGTH) return undefined;
  return `slug must be lowercase letters, digits and single hyphens, starting with a letter, at most ${MAX_SLUG_LENGTH} characters`;
}

/** The problem with an integer member, or undefined when it is one from `min` to `max`. */
export function checkInteger(value: unknown, name: string, min: number, max: number): string | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max)
    return undefined;
  return `${name} must be an integer from ${min} to ${max}`;
}

/**
 * Compiles a tool's schema with the calls' own validator: undefined, and a problem, when it is not
 * a JSON Schema 2020-12 object schema the validator accepts.
 */
export function compileSchema<T>(
  schema: unknown,
  name: string,
  problems: string[],
  compile: (schema: JsonSchema) => T,
): T | undefined {
  if (!isObject(schema)) {
    problems.push(`${name} must be a JSON Schema (an object)`);
    return undefined;
  }
  if (schema.type !== "object") {
    problems.push(`${name} must describe an object ("type": "object")`);
    return undefined;
  }
  try {
    return compile(schema);
  } catch (error) {
    problems.push(`${name} is not a valid JSON Schema 2020-12: ${firstLine(error)}`);
    return undefined;
  }
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

function checkAnnotations(annotations: unknown, effects: unknown): string[] {
  if (annotations === undefined) return [];
  if (!isObject(annotations)) return [`annotations must be an object of ${HINTS.join(", ")}`];
  const problems: string[] = [];
  for (const [name, hint] of Object.entries(annotations)) {
    if (!HINTS.includes(name))
      problems.push(`annotations has an unknown member "${name}" (expected ${HINTS.join(", ")})`);
    else if (typeof hint !== "boolean") problems.push(`annotations.${name} must be true or false`);
  }
  if (annotations.readOnlyHint === true && effects === "external")
    problems.push(`annotations.readOnlyHint cannot be true for a tool whose effects are "external"`);
  return problems;
}

function checkDefaults(defaults: unknown): string[] {
  if (!isObject(defaults)) return ["defaults must be an object {weight, maxBodyBytes}"];
  const problems: string[] = [];
  for (const key of Object.keys(defaults))
    if (key !== "weight" && key !== "maxBodyBytes") problems.push(`defaults has an unknown member "${key}"`);
  for (const problem of [
    checkInteger(defaults.weight, "defaults.weight", 0, MAX_COUNT),
    checkInteger(defaults.maxBodyBytes, "defaults.maxBodyBytes", 2, MAX_COUNT),
  ])
    if (problem) problems.push(problem);
  return problems;
}

function checkExamples(
  examples: unknown,
  validate: ReturnType<typeof compileInputValidator> | undefined,
): string[] {
  if (!Array.isArray(examples)) return ["examples must be an array of {title, input}"];
  const problems: string[] = [];
  examples.forEach((example: unknown, index) => {
    const where = `examples[${index}]`;
    if (!isObject(example) || typeof example.title !== "string" || example.title.trim() === "") {
      problems.push(`${where} must be an object with a non-empty title and an input`);
      return;
    }
    if (!isObject(example.input)) {
      problems.push(`${where} ("${example.title}") must have an input object`);
      return;
    }
    const result = validate?.(example.input);
    if (result && !result.ok) {
      const fields =
        typeof result.fields === "string"
          ? result.fields
          : Object.entries(result.fields)
              .map(([field, message]) => `${field} ${message}`)
              .join("; ");
      problems.push(`${where} ("${example.title}") does not match inputSchema: ${fields}`);
    }
  });
  return problems;
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string" && item.trim() !== "");
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An error's message on one line, for a start-up problem. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0]?.trim() ?? "";
}
