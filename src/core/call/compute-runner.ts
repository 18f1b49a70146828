/**
 * What answers the compute offload's tasks, on the thread that runs them: the same reading,
 * validation and run as this thread's (compute.ts), then the outputs written as the envelope's JSON
 * (envelope.ts). The offload's adapter loads this module by its URL, once per thread, and builds
 * the runner with its default export.
 *
 * The thread has its own copy of every tool it runs: the built-in ones (a module's named export),
 * and the operator's computing tools, imported again from their files and checked as at start-up.
 */
import type { ComputeAnswer, ComputeRunnerModule, CreateComputeRunner } from "../../ports/compute-offload.ts";
import { checkedTools, type LoadedTool, loadModuleFile } from "../tools/loader.ts";
import { createToolRegistry, type RegisteredTool } from "../tools/registry.ts";
import { outputSizeFailure, type ToolRunResult } from "../tools/run.ts";
import { ToolFailure } from "../tools/tool-failure.ts";
import { INPUT_MISMATCH } from "./compute.ts";
import { outputsJson, writeOutputs } from "./envelope.ts";
import { readJsonBody } from "./json-body.ts";

/** Where the runner finds the tools it runs. */
export interface RunnerTools {
  /** The URL of a module whose named export `export` lists tool definitions (the built-in ones). */
  readonly module: string;
  readonly export: string;
  /** Operator module files whose tools only compute, with their secrets. */
  readonly modules?: readonly {
    readonly path: string;
    readonly secrets: Readonly<Record<string, string>>;
  }[];
}

/** The service's own tools (src/tools/index.ts). */
export const BUILT_IN_TOOLS: RunnerTools = {
  module: new URL("../../tools/index.ts", import.meta.url).href,
  export: "tools",
};

/** The runner of the service's own tools, or of the tools `tools` names. */
export function computeRunner(tools: RunnerTools = BUILT_IN_TOOLS): ComputeRunnerModule {
  return { module: import.meta.url, options: tools };
}

/** The runner options that make a thread run `loaded`'s computing tools: built-in, and from their files. */
export function runnerToolsOf(loaded: readonly LoadedTool[], builtIns = BUILT_IN_TOOLS): RunnerTools {
  const modules = loaded.flatMap((tool) =>
    tool.origin.kind === "module" && tool.definition.effects === "none"
      ? [{ path: tool.origin.path, secrets: tool.secrets }]
      : [],
  );
  return { ...builtIns, modules };
}

const createRunner: CreateComputeRunner = async (options) => {
  const where = options as RunnerTools;
  const tools = checkedTools((await import(where.module))[where.export] as readonly unknown[]);
  for (const { path, secrets } of where.modules ?? []) {
    const check = await loadModuleFile(path);
    if (!check.ok) throw new Error(`the compute thread cannot load ${path}: ${check.problems.join("; ")}`);
    tools.push({ ...check.tool, origin: { kind: "module", path }, secrets });
  }
  // Operator settings change prices, limits and switches, all decided on the main thread; not validation.
  const registry = createToolRegistry(tools, {});
  return (task) => {
    const tool = registry.get(task.slug);
    if (!tool) throw new Error(`no tool ${task.slug} on the compute thread`);
    const body = readJsonBody(task.raw);
    if (!body.ok) return { kind: "refused", detail: body.detail };
    const input = tool.validate(body.value);
    if (!input.ok) return { kind: "refused", detail: INPUT_MISMATCH, fields: input.fields };
    if (!task.run) return { kind: "valid" };
    const result = tool.run(input.value, { requestId: task.requestId ?? "", writesOutputs: true });
    return "then" in result ? result.then((ran) => answerOf(tool, ran)) : answerOf(tool, result);
  };
};

function answerOf(tool: RegisteredTool, result: ToolRunResult): ComputeAnswer {
  const { slug, definition } = tool;
  if (!result.ok) return failedAnswer(result.httpStatus, result.error);
  const text = outputsJson(result.value);
  if (text instanceof ToolFailure) return failedAnswer(500, text);
  const tooLarge = outputSizeFailure(definition, Buffer.byteLength(text));
  if (tooLarge) return failedAnswer(500, tooLarge);
  return { kind: "ran", ...writeOutputs(slug, definition.version, text) };
}

function failedAnswer(httpStatus: number, error: unknown): ComputeAnswer {
  return {
    kind: "failed",
    httpStatus,
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
    ...(error instanceof ToolFailure && { shown: true }),
  };
}

export default createRunner;
