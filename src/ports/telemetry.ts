/**
 * Traces, as the rest of toolrun sees them: spans started, annotated and ended, a context carried
 * in and out in W3C Trace Context headers. The OpenTelemetry SDK behind it is an adapter, loaded
 * only when tracing is on; when it is off there is no Telemetry at all and nothing is called.
 */

export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** Header-shaped text carrying a trace context: `traceparent`, `tracestate`. */
export type TraceCarrier = Readonly<Record<string, unknown>>;

export interface TraceSpan {
  /** The trace this span belongs to (32 hex digits), for the request's log line. */
  readonly traceId: string;
  set(attributes: SpanAttributes): void;
  rename(name: string): void;
  /** Marks the span failed: `error.type` and an error status. */
  fail(errorType: string, message?: string): void;
  end(): void;
}

export interface SpanOptions {
  readonly kind: "server" | "client" | "internal";
  readonly attributes?: SpanAttributes;
  /**
   * Where the parent comes from instead of the current span: headers (or an MCP message's
   * `_meta`) holding `traceparent`. With none there, the current span is the parent.
   */
  readonly parent?: TraceCarrier | undefined;
  /**
   * With a `parent` carrier that holds a context: link the current span (the transport's), as MCP
   * asks of a message whose trace comes from its `_meta`.
   */
  readonly linkCurrent?: boolean;
}

export interface Telemetry {
  start(name: string, options: SpanOptions): TraceSpan;
  /** Runs `work` with `span` current: what it starts, directly or later, is the span's child. */
  within<T>(span: TraceSpan, work: () => T): T;
  /** The span current where this is called, if any: the one a call's outcome is written on. */
  current(): TraceSpan | undefined;
  /** The current context as headers for an outward request (`traceparent`, `tracestate`). */
  headers(): Record<string, string>;
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}
