/**
 * One tool call as a transport hands it to the core (`invokeTool`), from HTTP and MCP alike: the
 * one type every step of the call path reads. What a tool's run is told of it is `RunOptions`
 * (core/tools/run.ts), a floor below, derived from this once the call is admitted.
 */
import type { CallOrigin } from "../../ports/call-log.ts";
import type { ApiKeyRecord } from "../../ports/store.ts";
import type { Observer } from "./observer.ts";

/**
 * The request body, raw from HTTP or already parsed (MCP arguments) with its JSON as serialized
 * once: its size, and what an idempotency key's claim fingerprints.
 */
export type CallBody = { readonly raw: Buffer } | { readonly parsed: unknown; readonly json: string };

export interface ToolCall {
  /** Whose call it is: its plan and balance, and the offload's turns. */
  readonly key: ApiKeyRecord;
  readonly slug: string;
  readonly body: CallBody;
  readonly requestId: string;
  /** Who called and how, recorded on the call's row (core/call/origin.ts). */
  readonly origin: CallOrigin;
  /** The client's idempotency key, already checked by readIdempotencyKey. */
  readonly idempotencyKey?: string | undefined;
  /**
   * A signal that aborts if the client goes before its answer: a call waiting for the offload is
   * dropped, and a tool that waits is stopped (its signal fires), unless the call has an
   * idempotency key: it then runs to its end, and its answer waits for the client's retry. A tool
   * with effects outside is only kept from starting: once started it runs to its end, charged.
   */
  readonly clientGone?: () => AbortSignal;
  /** Hears how this call ended, besides `deps.observer` (the transport's request log). */
  readonly observer?: Pick<Observer, "toolCall">;
}
