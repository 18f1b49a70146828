/**
 * What answers the compute offload's tasks, on the thread that runs them: the same reading,
 * validation and run as this thread's (compute.ts), then the outputs written as the envelope's JSON
 * (envelope.ts). The offload's adapter loads this module by its URL, once per thread, and builds
 * the runner with its default export.
 */
import type { ComputeRunnerModule, CreateComputeRunner } from "../../ports/compute-offload.ts";
import type { AnyTool } from "../../tools/tool.ts";
import { createToolRegistry } from "../tools/registry.ts";
import { INPUT_MISMATCH, runTool } from "./compute.ts";
import { writeOutputs } from "./envelope.ts";
import { readJsonBody } from "./json-body.ts";

/** Where the runner finds the tools it runs: a module's named export. */
export interface RunnerTools {
  /** The module's URL. */
  readonly module: string;
  readonly export: string;
}

/** The runner of the service's own tools (src/tools/index.ts), or of the tools `tools` names. */
export function computeRunner(tools?: RunnerTools): ComputeRunnerModule {
  const own: RunnerTools = { module: new URL("../../tools/index.ts", import.meta.url).href, export: "tools" };
  return { module: import.meta.url, options: tools ?? own };
}

const createRunner: CreateComputeRunner = async (options) => {
  const where = options as RunnerTools;
  const tools = (await import(where.module))[where.export] as readonly AnyTool[];
  // Operator settings change prices, limits and switches, all decided on the main thread; not validation.
  const registry = createToolRegistry(tools, {});
  return (task) => {
    const tool = registry.get(task.slug);
    if (!tool) throw new Error(`no tool ${task.slug} in ${where.module}`);
    const body = readJsonBody(task.raw);
    if (!body.ok) return { kind: "refused", detail: body.detail };
    const input = tool.validate(body.value);
    if (!input.ok) return { kind: "refused", detail: INPUT_MISMATCH, fields: input.fields };
    if (!task.run) return { kind: "valid" };
    const result = runTool(tool, input.value);
    if (result.ok)
      return {
        kind: "ran",
        ...writeOutputs(tool.slug, tool.definition.version, JSON.stringify(result.value)),
      };
    const { error } = result;
    return {
      kind: "failed",
      httpStatus: result.httpStatus,
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    };
  };
};

export default createRunner;
