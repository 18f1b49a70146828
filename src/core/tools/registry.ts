/**
 * The tools the service offers, with the operator's settings applied: effective weight, body limit
 * and default switches, and a compiled validator per tool.
 */
import { type AnyTool, InvalidInputError, type ToolDefinition } from "../../tools/tool.ts";
import { compileInputValidator, type InputValidator } from "../call/validation.ts";
import { ApiError } from "../contract/errors.ts";
import type { ToolSettings } from "../settings.ts";

export interface RegisteredTool {
  readonly slug: string;
  readonly definition: ToolDefinition<Record<string, unknown>, Record<string, unknown>>;
  readonly weight: number;
  readonly maxBodyBytes: number;
  /** Switch defaults from the configuration; the operator's stored switches override them. */
  readonly enabledByDefault: boolean;
  readonly apiByDefault: boolean;
  /** Monthly call cap for keys on the free plan; null for none. */
  readonly freeTierMonthlyCalls: number | null;
  readonly validate: InputValidator;
}

export interface ToolRegistry {
  get(slug: string): RegisteredTool | undefined;
  /** The tool of `slug`; 404 `tool_not_found` when there is none. */
  resolve(slug: string): RegisteredTool;
  all(): readonly RegisteredTool[];
  /** The largest body any tool accepts: the HTTP layer reads no more than this. */
  readonly maxBodyBytes: number;
}

export function createToolRegistry(
  tools: readonly AnyTool[],
  settings: Readonly<Record<string, ToolSettings>>,
): ToolRegistry {
  const bySlug = new Map<string, RegisteredTool>();
  for (const tool of tools) {
    if (bySlug.has(tool.slug)) throw new Error(`Two tools share the slug ${tool.slug}`);
    const definition = tool as unknown as RegisteredTool["definition"];
    const own = settings[tool.slug] ?? {};
    bySlug.set(tool.slug, {
      slug: tool.slug,
      definition,
      weight: own.weight ?? tool.defaults.weight,
      maxBodyBytes: own.maxBodyBytes ?? tool.defaults.maxBodyBytes,
      enabledByDefault: own.enabled ?? true,
      apiByDefault: own.api ?? true,
      freeTierMonthlyCalls: own.freeTierMonthlyCalls ?? null,
      validate: inputValidator(definition),
    });
  }
  const all = [...bySlug.values()];
  return {
    get: (slug) => bySlug.get(slug),
    resolve(slug) {
      const tool = bySlug.get(slug);
      if (!tool)
        throw new ApiError("tool_not_found", "No tool has this slug. GET /v1/tools/list lists them.");
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
function inputValidator(definition: RegisteredTool["definition"]): InputValidator {
  const bySchema = compileInputValidator(definition.inputSchema);
  const { checkInput } = definition;
  if (checkInput === undefined) return bySchema;
  return (body) => {
    const result = bySchema(body);
    if (!result.ok) return result;
    try {
      checkInput.call(definition, result.value);
    } catch (error) {
      if (error instanceof InvalidInputError) return { ok: false, fields: { ...error.fields } };
      throw error;
    }
    return result;
  };
}
