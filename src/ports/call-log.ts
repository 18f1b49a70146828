/**
 * Who called, and the usage export: the calls as the operator lists them (newest first) and the
 * settled calls in the order a billing system reads them (settlement order, stable across pages and
 * re-reads). Read-only; the ledger writes the rows (Reservation.origin).
 */

/** How a call reached the service, recorded on its row; no request body is ever stored. */
export interface CallOrigin {
  /** `key` for an API key used directly, or the `authz_…` id of the OAuth authorization used. */
  readonly credential: string;
  /** The OAuth client of that authorization; null for a key. */
  readonly oauthClientId: string | null;
  readonly transport: CallTransport;
  /** MCP's clientInfo, when the client sent one; null over HTTP. */
  readonly clientName: string | null;
  readonly clientVersion: string | null;
}

export type CallTransport = "http" | "mcp";
export const CALL_TRANSPORTS: readonly CallTransport[] = ["http", "mcp"];

export type CallOutcomeName = "pending" | "charged" | "refunded";
export const CALL_OUTCOMES: readonly CallOutcomeName[] = ["pending", "charged", "refunded"];

/** One recorded call with who made it. Rows recorded before origins were kept have it null. */
export interface CallRecord {
  readonly callId: string;
  readonly requestId: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly tool: string;
  readonly outcome: CallOutcomeName;
  readonly httpStatus: number | null;
  /** Credits charged: 0 while refunded. */
  readonly credits: number;
  readonly at: string;
  /** When it was charged or refunded; null while pending. */
  readonly settledAt: string | null;
  readonly origin: CallOrigin | null;
}

export interface CallsQuery {
  readonly limit: number;
  /** `nextCursor` of a previous page; anything else rejects with InvalidCursorError. */
  readonly cursor: string | null;
  readonly accountId?: string;
  readonly keyId?: string;
  readonly tool?: string;
  readonly outcome?: CallOutcomeName;
  /** The call's `at` in [since, until). */
  readonly since?: string;
  readonly until?: string;
}

export interface CallsPage {
  /** Newest first. */
  readonly calls: readonly CallRecord[];
  readonly nextCursor: string | null;
}

export interface UsageEventsQuery {
  readonly limit: number;
  /** `nextCursor` of a previous page; anything else rejects with InvalidCursorError. */
  readonly cursor: string | null;
  readonly accountId?: string;
  /** The settlement time in [since, until). */
  readonly since?: string;
  readonly until?: string;
}

export interface UsageEventsPage {
  /** Settled calls in settlement order: a call settling later never comes before one already read. */
  readonly calls: readonly CallRecord[];
  /**
   * Where the next read starts: after the last call given, or where this read started when it gave
   * none (null only then, with no cursor given). A poller keeps it and asks again later.
   */
  readonly nextCursor: string | null;
  /** Whether more settled calls were ready after this page when it was read. */
  readonly more: boolean;
}

export interface CallLog {
  listCalls(query: CallsQuery): Promise<CallsPage>;
  /**
   * The settled calls after `cursor`, in settlement order. Only calls whose settlement no
   * transaction still in progress could precede are given, so the order of what was read never
   * changes: a later read only adds after it.
   */
  usageEvents(query: UsageEventsQuery): Promise<UsageEventsPage>;
}
