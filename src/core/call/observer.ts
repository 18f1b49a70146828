/**
 * What the core reports about the calls it makes, for whoever counts them (the Prometheus metrics,
 * tests). Kept as a plain interface so the core knows nothing of the metrics library.
 */

/**
 * How a metered call ended: charged, refunded after the tool failed, refused by the ledger (or its
 * idempotency key: in use, mismatch), or answered with the stored answer of an earlier request.
 */
export type ToolCallOutcome = "charged" | "refunded" | "refused" | "replayed";

export interface ToolCallEvent {
  readonly tool: string;
  readonly keyId: string;
  readonly requestId: string;
  readonly outcome: ToolCallOutcome;
  /** Credits this call charged: its cost when charged, else 0. */
  readonly credits: number;
  /** The status its upstream answered, when that answer failed the call (an HTTP tool's 401, 503, …). */
  readonly upstreamStatus?: number;
}

export interface Observer {
  toolCall(event: ToolCallEvent): void;
  /** A backend could not be reached while serving a request. */
  backendError(backend: "database" | "rate-limiter"): void;
}
