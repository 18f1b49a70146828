/**
 * Tool calls with large bodies leave the main thread: their parse, validation, run and the
 * serialization of their outputs run on a worker thread (src/compute/), so a 1 MiB call does not
 * stall the event loop that answers every other call. invoke.ts decides which calls go; this is
 * what it sends and what comes back, with the errors rebuilt as the main thread would have thrown
 * them (the same 400, 422 and 500 answers).
 */
import { UnprocessableInputError } from "../tools/tool.ts";
import { ApiError, type ErrorCode, type ProblemExtras } from "./errors.ts";
import type { Envelope } from "./invoke.ts";

export interface ComputeOffload {
  /** Raw bodies of at least this many bytes run off the main thread; smaller ones are not worth the trip. */
  readonly minBytes: number;
  /**
   * Parses, validates and runs the call of `slug` on `raw`; with `run: false`, stops after validating.
   * With `run`, `raw` may be moved to the worker (left empty here). A call still waiting for a
   * worker when `signal` aborts (its client has gone) never runs: it rejects with clientGone().
   */
  call(slug: string, raw: Uint8Array, run: boolean, signal?: AbortSignal): Promise<OffloadedCall>;
  /** Stops the workers; calls still queued fail. */
  close(): Promise<void>;
}

/** What a worker answers: a refusal of the body (400), the outputs' JSON, or the run's failure. */
export type OffloadedCall =
  | {
      readonly kind: "refused";
      readonly code: ErrorCode;
      readonly detail: string | undefined;
      readonly extras: ProblemExtras;
    }
  | { readonly kind: "valid" }
  | {
      readonly kind: "ran";
      /** The envelope's UTF-8 JSON up to its outputs (envelopeHead), then room for the rest. */
      readonly envelope: Uint8Array;
      /** Where the outputs end in `envelope`. */
      readonly outputsEnd: number;
    }
  | {
      readonly kind: "failed";
      readonly httpStatus: number;
      readonly message: string;
      readonly stack: string | undefined;
    };

/** What a call dropped before it ran, because its client had gone, ends with. */
export function clientGone(): ApiError {
  return new ApiError(
    "client_closed_request",
    "The client closed the connection while the call waited for a worker: it did not run and nothing was charged.",
  );
}

/** Room a worker leaves after the outputs for the envelope's last members (credits, request id). */
export const ENVELOPE_TAIL_ROOM = 512;

/** The envelope's JSON before its outputs, the same on every thread. */
export function envelopeHead(tool: string, toolVersion: string): string {
  return `${JSON.stringify({ tool, tool_version: toolVersion }).slice(0, -1)},"outputs":`;
}

/**
 * A tool's outputs serialized by a worker, inside the envelope's buffer (see OffloadedCall), so
 * that the main thread finishes the envelope in place rather than copying megabytes around it
 * (every large buffer on the main thread makes work for its garbage collector).
 */
export class SerializedOutputs {
  readonly envelope: Buffer;
  readonly start: number;
  readonly end: number;
  constructor(answer: Extract<OffloadedCall, { kind: "ran" }>, start: number) {
    const { envelope } = answer;
    this.envelope = Buffer.from(envelope.buffer, envelope.byteOffset, envelope.byteLength);
    this.start = start;
    this.end = answer.outputsEnd;
  }
  /** JSON.stringify still gives the outputs whole (a path that never meets them in practice). */
  toJSON(): unknown {
    return JSON.parse(this.envelope.toString("utf8", this.start, this.end));
  }
  /** The whole envelope: the outputs followed by `tail` (the JSON after them, closing brace included). */
  withTail(tail: string): Buffer {
    const room = this.envelope.length - this.end;
    if (Buffer.byteLength(tail) > room)
      return Buffer.concat([this.envelope.subarray(0, this.end), Buffer.from(tail)]);
    const written = this.envelope.write(tail, this.end, "utf8");
    return this.envelope.subarray(0, this.end + written);
  }
}

/**
 * The envelope's JSON when a worker serialized its outputs, spliced around them without parsing
 * them again; undefined when the envelope is a plain object to serialize as usual.
 */
export function serializedEnvelope(envelope: Envelope): Buffer | undefined {
  const { outputs } = envelope;
  if (!(outputs instanceof SerializedOutputs)) return undefined;
  const tail = JSON.stringify({
    credits_used: envelope.credits_used,
    credits_remaining: envelope.credits_remaining,
    request_id: envelope.request_id,
  });
  return outputs.withTail(`,${tail.slice(1)}`);
}

/** The error a worker's refusal stands for, as the main thread would have thrown it. */
export function refusalError(answer: Extract<OffloadedCall, { kind: "refused" }>): ApiError {
  return new ApiError(answer.code, answer.detail, { extras: answer.extras });
}

/** The error a worker's failed run stands for: its class decides 422 or 500 (invoke.ts). */
export function failureError(answer: Extract<OffloadedCall, { kind: "failed" }>): Error {
  const error =
    answer.httpStatus === 422 ? new UnprocessableInputError(answer.message) : new Error(answer.message);
  if (answer.stack !== undefined) error.stack = answer.stack;
  return error;
}
