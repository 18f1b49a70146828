/**
 * The envelope a tool call answers with, as data, and its JSON, written on the thread that ran the
 * tool before the ledger charges the call (an answer that cannot be written is a failure, never a
 * charge): the outputs are written there as JSON, into a buffer with room left for the members the
 * main thread adds once the ledger has spoken, so that the main thread neither serializes a large
 * call's outputs nor copies megabytes (every large buffer on it makes work for its garbage
 * collector). That JSON travels beside the envelope (`ToolAnswer.json`): the HTTP sender, the MCP
 * text content and the idempotency store read it.
 */
import type { ApiError } from "../kernel/errors.ts";
import { ToolFailure } from "../tools/tool-failure.ts";

export interface Envelope {
  readonly tool: string;
  readonly tool_version: string;
  readonly outputs: Record<string, unknown>;
  readonly credits_used: number;
  readonly credits_remaining: number | null;
  readonly request_id: string;
}

/** What a call answers: the envelope, and whether it is the stored answer of an earlier request. */
export interface ToolAnswer {
  readonly envelope: Envelope;
  readonly replayed: boolean;
  /** The envelope's JSON, when its outputs were written as JSON where they were computed. */
  readonly json?: Buffer | string;
}

/** The answer's JSON as text, when it was written. */
export function jsonText(answer: ToolAnswer): string | undefined {
  const { json } = answer;
  return typeof json === "string" || json === undefined ? json : json.toString("utf8");
}

/** A call's answer as the core gives it: the envelope, or the error it ends with. */
export type CallAnswer = ToolAnswer | ApiError;

/** What a run gave: the outputs, and their JSON when the thread that computed them wrote it. */
export interface Computed {
  readonly outputs: Record<string, unknown>;
  readonly written?: Written;
}

/** Outputs written as JSON: parsed back only if read, and the envelope's JSON finished around them. */
export interface Written {
  outputs(): Record<string, unknown>;
  envelope(envelope: Envelope): Buffer | string;
}

const utf8 = new TextEncoder();

/** Room left after the outputs for the envelope's last members (credits, request id). */
const TAIL_ROOM = 512;

/** The envelope's JSON before its outputs, the same on every thread. */
function envelopeHead(tool: string, toolVersion: string): string {
  return `${JSON.stringify({ tool, tool_version: toolVersion }).slice(0, -1)},"outputs":`;
}

/** The envelope's JSON after its outputs. */
function envelopeTail({ credits_used, credits_remaining, request_id }: Envelope): string {
  return `,${JSON.stringify({ credits_used, credits_remaining, request_id }).slice(1)}`;
}

/**
 * On the thread that ran the tool and answers the call: the outputs' JSON as text, the envelope
 * joined around it (as cheap as writing the envelope whole, for the small answers computed here).
 */
export class WrittenText implements Written {
  readonly #head: string;
  readonly #text: string;
  #outputs: Record<string, unknown> | undefined;
  constructor(tool: string, toolVersion: string, text: string) {
    const id = `${tool}\n${toolVersion}`;
    let head = WrittenText.#heads.get(id);
    if (head === undefined) {
      head = envelopeHead(tool, toolVersion);
      WrittenText.#heads.set(id, head);
    }
    this.#head = head;
    this.#text = text;
  }

  /** Each tool's head, written once: the tools are few and fixed at start-up. */
  static readonly #heads = new Map<string, string>();

  outputs(): Record<string, unknown> {
    this.#outputs ??= JSON.parse(this.#text) as Record<string, unknown>;
    return this.#outputs;
  }

  envelope(envelope: Envelope): string {
    return `${this.#head}${this.#text}${envelopeTail(envelope)}`;
  }
}

/**
 * The outputs as JSON text, written before the call is charged: outputs that pass their schema
 * may still not be writable (a BigInt, a cycle, a `toJSON` or getter that throws, nesting deeper
 * than the serializer goes), and such a call ends as a failure of the tool (500, refunded) rather
 * than charged with no answer to give. What the serializer said goes to the logs only.
 */
export function outputsJson(outputs: Record<string, unknown>): string | ToolFailure {
  let text: string | undefined;
  try {
    text = JSON.stringify(outputs);
  } catch (error) {
    return unwritable(error);
  }
  // A `toJSON` may turn the whole answer into nothing, or into something other than an object.
  return text?.startsWith("{") ? text : unwritable("the outputs were not written as a JSON object");
}

function unwritable(cause: unknown): ToolFailure {
  return new ToolFailure("The tool's answer cannot be written as JSON.", { cause });
}

/** On the thread that ran the tool: the envelope's JSON up to and with `outputs`, with room after. */
export function writeOutputs(
  tool: string,
  toolVersion: string,
  outputs: string,
): { readonly bytes: Uint8Array; readonly end: number } {
  const head = envelopeHead(tool, toolVersion);
  const headBytes = Buffer.byteLength(head);
  const outputsBytes = Buffer.byteLength(outputs);
  const bytes = new Uint8Array(headBytes + outputsBytes + TAIL_ROOM);
  utf8.encodeInto(head, bytes);
  utf8.encodeInto(outputs, bytes.subarray(headBytes));
  return { bytes, end: headBytes + outputsBytes };
}

/** On the main thread: what writeOutputs wrote, finished in place. */
export class WrittenOutputs implements Written {
  readonly #bytes: Buffer;
  readonly #start: number;
  readonly #end: number;
  #outputs: Record<string, unknown> | undefined;
  constructor(
    tool: string,
    toolVersion: string,
    written: { readonly bytes: Uint8Array; readonly end: number },
  ) {
    const { bytes } = written;
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#start = Buffer.byteLength(envelopeHead(tool, toolVersion));
    this.#end = written.end;
  }

  /** The outputs as data (parsed again: a path the HTTP sender never takes). */
  outputs(): Record<string, unknown> {
    this.#outputs ??= JSON.parse(this.#bytes.toString("utf8", this.#start, this.#end));
    return this.#outputs as Record<string, unknown>;
  }

  /** The whole envelope: the outputs followed by the members after them. */
  envelope(envelope: Envelope): Buffer {
    const tail = envelopeTail(envelope);
    const room = this.#bytes.length - this.#end;
    if (Buffer.byteLength(tail) > room)
      return Buffer.concat([this.#bytes.subarray(0, this.#end), Buffer.from(tail)]);
    const written = this.#bytes.write(tail, this.#end, "utf8");
    return this.#bytes.subarray(0, this.#end + written);
  }
}

/**
 * What a run gave once written (outputsJson, then WrittenText or writeOutputs): the outputs are parsed
 * back from the JSON only if something reads them, so they are plain data whatever the tool gave.
 */
export function computedOf(written: Written): Computed {
  return {
    written,
    get outputs() {
      return written.outputs();
    },
  };
}

/** A charged call's answer. */
export function envelopeAnswer(head: Omit<Envelope, "outputs">, computed: Computed): ToolAnswer {
  const { tool, tool_version, credits_used, credits_remaining, request_id } = head;
  const { written } = computed;
  if (written === undefined) {
    const envelope = {
      tool,
      tool_version,
      outputs: computed.outputs,
      credits_used,
      credits_remaining,
      request_id,
    };
    return { envelope, replayed: false };
  }
  const envelope: Envelope = {
    tool,
    tool_version,
    // A getter: outputs a worker wrote as JSON are parsed only if something reads them.
    get outputs() {
      return written.outputs();
    },
    credits_used,
    credits_remaining,
    request_id,
  };
  return { envelope, replayed: false, json: written.envelope(envelope) };
}
