/**
 * A call's tool failed in a way toolrun can describe without leaking anything: it timed out, its
 * answer was not an object or broke its schema, its upstream failed. The message says what
 * happened in words fit for the client (the 500 `processing_error`'s detail); the details hold
 * what only the logs may see. Anything else a tool throws is described to the client by no more
 * than "it failed".
 */
export interface ToolFailureDetails extends ErrorOptions {
  /** Why, in words for the operator: the validator's messages, a socket's error code. */
  readonly reason?: string;
  /** The tool that failed, when the failure is the operator's to fix. */
  readonly tool?: string;
  /** The status the tool's upstream answered, when its answer is the failure. */
  readonly upstreamStatus?: number;
}

export class ToolFailure extends Error {
  override readonly name = "ToolFailure";
  // Own enumerable members, because the log's error serializer writes those and drops a `cause`
  // that is not an Error.
  readonly reason?: string;
  readonly tool?: string;
  readonly upstreamStatus?: number;

  constructor(message: string, details: ToolFailureDetails = {}) {
    const { reason, tool, upstreamStatus, ...options } = details;
    super(message, options);
    if (reason !== undefined) this.reason = reason;
    if (tool !== undefined) this.tool = tool;
    if (upstreamStatus !== undefined) this.upstreamStatus = upstreamStatus;
  }
}
