/**
 * Tool calls with large bodies leave the main thread: their parse, validation, run and the
 * serialization of their outputs run on a worker thread (src/compute/), so a 1 MiB call does not
 * stall the event loop that answers every other call. invoke.ts decides which calls go; this is
 * what it sends and what comes back, with the errors rebuilt as the main thread would have thrown
 * them (the same 400, 422 and 500 answers).
 */
import { UnprocessableInputError } from "../tools/tool.ts";
import { ApiError, type ErrorCode, type ProblemExtras } from "./errors.ts";

export interface ComputeOffload {
  /** Raw bodies of at least this many bytes run off the main thread; smaller ones are not worth the trip. */
  readonly minBytes: number;
  /** Parses, validates and runs the call of `slug` on `raw`; with `run: false`, stops after validating. */
  call(slug: string, raw: Uint8Array, run: boolean): Promise<OffloadedCall>;
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
  | { readonly kind: "ran"; readonly outputs: Uint8Array }
  | {
      readonly kind: "failed";
      readonly httpStatus: number;
      readonly message: string;
      readonly stack: string | undefined;
    };

/** A tool's outputs already serialized (UTF-8 JSON) by a worker; JSON.stringify still gives them whole. */
export class SerializedOutputs {
  readonly utf8: Uint8Array;
  constructor(utf8: Uint8Array) {
    this.utf8 = utf8;
  }
  toJSON(): unknown {
    return JSON.parse(Buffer.from(this.utf8.buffer, this.utf8.byteOffset, this.utf8.byteLength).toString());
  }
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
