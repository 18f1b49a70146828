/**
 * A call's tool failed in a way toolrun can describe without leaking anything: it timed out, its
 * answer was not an object or broke its schema, its upstream failed. The message says what
 * happened in words fit for the client (the 500 `processing_error`'s detail); `cause` holds what
 * only the logs may see. Anything else a tool throws is described to the client by no more than
 * "it failed".
 */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure";
}
