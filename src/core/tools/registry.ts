/**
 * The tools the service offers, as the loader gave them (built-in, modules, HTTP tools), with the
 * operator's settings applied: effective weight, body limit and default switches, a compiled
 * validator per tool, and the one way each is run.
 */
import type { ToolEffects } from "../../tools/tool.ts";
import { ApiError } from "../kernel/errors.ts";
import type { ToolSettings } from "../kernel/settings.ts";
import { compileInputValidator, type InputValidator } from "../kernel/validation.ts";
import type { CheckedDefinition } from "./check-definition.ts";
import type { LoadedTool, ToolOrigin } from "./loader.ts";
import { type RunOptions, runToolCall, type ToolRunResult } from "./run.ts";

export interface RegisteredTool {
  readonly slug: string;
  readonly definition: CheckedDefinition;
  /** How its calls are charged: run then charge (`none`), or reserve, run, capture (`external`). */
  readonly effects: ToolEffects;
  /** Where it came from (`toolrun tools list`). */
  readonly origin: ToolOrigin;
  readonly weight: number;
  readonly maxBodyBytes: number;
  /** Switch defaults from the configuration; the operator's stored switches override them. */
  readonly enabledByDefault: boolean;
  readonly apiByDefault: boolean;
  /** Monthly call cap for keys on the free plan; null for none. */
  readonly freeTierMonthlyCalls: number | null;
  readonly validate: InputValidator;
  /**
   * Runs the tool once on validated input: its outputs checked against its output schema, or the
   * status the refunded call ends with. Synchronous for a tool that answers synchronously.
   */
  run(
    input: Record<string, unknown>,
    options: Omit<RunOptions, "secrets">,
  ): ToolRunResult | Promise<ToolRunResult>;
}

export interface ToolRegistry {
  get(slug: string): RegisteredTool | undefined;
  /** The tool of `slug`; 404 `tool_not_found` when there is none. */
  resolve(slug: string): RegisteredTool;
  all(): readonly RegisteredTool[];
  /** The largest body any tool accepts: the HTTP layer reads no more than this. */
  readonly maxBodyBytes: number;
}

/** 404 `tool_not_found`: the one answer for a slug no tool has (and, to a scoped key, one it may not use). */
export function toolNotFound(): ApiError {
  return new ApiError("tool_not_found", "No tool has this slug. GET /v1/tools/list lists them.");
}

export function createToolRegistry(
  tools: readonly LoadedTool[],
  settings: Readonly<Record<string, ToolSettings>>,
): ToolRegistry {
  const bySlug = new Map<string, RegisteredTool>();
  for (const tool of tools) {
    const { definition } = tool;
    if (bySlug.has(definition.slug)) throw new Error(`Two tools share the slug ${definition.slug}`);
    const own = settings[definition.slug] ?? {};
    const { secrets } = tool;
    bySlug.set(definition.slug, {
      slug: definition.slug,
      definition,
      effects: definition.effects,
      origin: tool.origin,
      weight: own.weight ?? definition.defaults.weight,
      maxBodyBytes: own.maxBodyBytes ?? definition.defaults.maxBodyBytes,
      enabledByDefault: own.enabled ?? true,
      apiByDefault: own.api ?? true,
      freeTierMonthlyCalls: own.freeTierMonthlyCalls ?? null,
      validate: inputValidator(definition),
      run: (input, options) => runToolCall(tool, input, { ...options, secrets }),
    });
  }
  const all = [...bySlug.values()];
  return {
    get: (slug) => bySlug.get(slug),
    resolve(slug) {
      const tool = bySlug.get(slug);
      if (!tool) throw toolNotFound();
      return tool;
    },
    all: () => all,
    maxBodyBytes: Math.max(1024, ...all.map((t) => t.maxBodyBytes)),
  };
}

/**
 * The tool's input checked against its schema, then against its rules between fields
 * (`checkInput`): either failure names the fields, so both answer the same 400 before anything is
 * charged, on this thread and on a worker alike.
 */
function inputValidator(definition: CheckedDefinition): InputValidator {
  const bySchema = compileInputValidator(definition.inputSchema);
  const { checkInput } = definition;
  if (checkInput === undefined) return bySchema;
  return (body) => {
    const result = bySchema(body);
    if (!result.ok) return result;
    const fields = checkInput(result.value as never);
    if (fields !== undefined && Object.keys(fields).length > 0) return { ok: false, fields: { ...fields } };
    return result;
  };
}
