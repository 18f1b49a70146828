/**
 * A compute worker (pool.ts): parses, validates and runs one tool call, and serializes its outputs
 * to UTF-8 JSON handed back without a copy. The same functions as on the main thread (invoke.ts),
 * so the same answers; a failure travels as its status and message, an ApiError as its fields.
 */
import { move, transferableSymbol, valueSymbol, workerData } from "piscina";
import { ApiError } from "../core/errors.ts";
import { parseBody, runTool, validInput } from "../core/invoke.ts";
import { ENVELOPE_TAIL_ROOM, envelopeHead, type OffloadedCall } from "../core/offload.ts";
import { createToolRegistry } from "../core/registry.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { ComputeTask, WorkerData } from "./pool.ts";

const { toolsModule, toolsExport } = workerData as WorkerData;
const tools = (await import(toolsModule))[toolsExport] as readonly AnyTool[];
// Operator settings change prices, limits and switches, all decided on the main thread; not validation.
const registry = createToolRegistry(tools, {});
const utf8 = new TextEncoder();

/** The envelope with the outputs in a moved buffer, or what else the call came to. */
export default function compute(task: ComputeTask): OffloadedCall | ReturnType<typeof moved> {
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
  return moved(envelopeOf(tool.slug, tool.definition.version, JSON.stringify(result.value)));
}

/** The envelope up to and with the outputs, in an array of its own with room for the rest. */
function envelopeOf(slug: string, version: string, outputs: string): Extract<OffloadedCall, { kind: "ran" }> {
  const head = envelopeHead(slug, version);
  const headBytes = Buffer.byteLength(head);
  const outputsBytes = Buffer.byteLength(outputs);
  const envelope = new Uint8Array(headBytes + outputsBytes + ENVELOPE_TAIL_ROOM);
  utf8.encodeInto(head, envelope);
  utf8.encodeInto(outputs, envelope.subarray(headBytes));
  return { kind: "ran", envelope, outputsEnd: headBytes + outputsBytes };
}

/** The answer handed over with its buffer moved, not copied (piscina's transferable protocol). */
function moved(answer: Extract<OffloadedCall, { kind: "ran" }>) {
  return move({
    get [transferableSymbol]() {
      return answer.envelope.buffer;
    },
    get [valueSymbol]() {
      return answer;
    },
  });
}
