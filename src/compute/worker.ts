/**
 * A compute worker (pool.ts): parses, validates and runs one tool call, and serializes its outputs
 * to UTF-8 JSON handed back without a copy. The same functions as on the main thread (invoke.ts),
 * so the same answers; a failure travels as its status and message, an ApiError as its fields.
 */
import { move, workerData } from "piscina";
import { ApiError } from "../core/errors.ts";
import { parseBody, runTool, validInput } from "../core/invoke.ts";
import type { OffloadedCall } from "../core/offload.ts";
import { createToolRegistry } from "../core/registry.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { ComputeTask, WorkerData } from "./pool.ts";

const { toolsModule, toolsExport } = workerData as WorkerData;
const tools = (await import(toolsModule))[toolsExport] as readonly AnyTool[];
// Operator settings change prices, limits and switches, all decided on the main thread; not validation.
const registry = createToolRegistry(tools, {});
const utf8 = new TextEncoder();

/** The outputs' JSON as a moved buffer, or what else the call came to. */
export default function compute(task: ComputeTask): OffloadedCall | ReturnType<typeof move> {
  const tool = registry.get(task.slug);
  if (!tool) throw new Error(`no tool ${task.slug} in ${toolsModule}`);
  let input: Record<string, unknown>;
  try {
    const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
    input = validInput(tool, parseBody({ raw }));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { kind: "refused", code: error.code, detail: error.detail, extras: error.extras };
  }
  if (!task.run) return { kind: "valid" };
  const result = runTool(tool, input);
  if (!result.ok) {
    const { error } = result;
    return {
      kind: "failed",
      httpStatus: result.httpStatus,
      message: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    };
  }
  // An array of its own (not a slice of Buffer's shared pool), so it can be moved.
  return move(utf8.encode(JSON.stringify(result.value)));
}
