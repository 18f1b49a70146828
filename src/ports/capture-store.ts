/**
 * The captures part of the storage port: addresses that catch real webhook deliveries for an
 * account, and the requests they caught, kept raw. Implemented by adapters/sqlite/captures.ts and
 * adapters/postgres/captures.ts; both pass one contract suite (test/contracts/capture-store.contract.ts).
 * The store never sees a capture's token: callers hand it the SHA-256 hash.
 */

export interface NewCapture {
  /** `cap_…` */
  readonly id: string;
  /** Who owns it (the account; for now the key's id). */
  readonly accountId: string;
  /** SHA-256 of the token in the capture's URL. */
  readonly tokenHash: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface CaptureRecord {
  readonly id: string;
  readonly accountId: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  /** How many requests it holds now. */
  readonly requestCount: number;
}

export interface NewCapturedRequest {
  /** `creq_…` */
  readonly id: string;
  readonly receivedAt: string;
  readonly method: string;
  /** The request line and the header lines as received, CRLF-separated, without the blank line. */
  readonly head: string;
  /** The body's bytes exactly as received. */
  readonly body: Uint8Array;
}

export interface CapturedRequestRecord {
  readonly id: string;
  /** Its place in the store's order of arrival (for cursors): larger is newer. */
  readonly sequence: number;
  readonly receivedAt: string;
  readonly method: string;
  readonly head: string;
  readonly body: Buffer;
}

export interface CaptureStore {
  /**
   * Creates the capture unless its account already has `maxLive` captures unexpired at `now`:
   * the count and the insert are one atomic step, so concurrent creations (on any instance)
   * never leave more than `maxLive`. False when it was refused.
   */
  createCapture(capture: NewCapture, maxLive: number, now: string): Promise<boolean>;
  /** The account's captures unexpired at `now`, newest first. */
  listCaptures(accountId: string, now: string): Promise<CaptureRecord[]>;
  /** The account's capture with this id while unexpired at `now`; null for another account's. */
  findCapture(accountId: string, id: string, now: string): Promise<CaptureRecord | null>;
  /** The unexpired capture whose token hashes to `tokenHash`. */
  findCaptureByToken(tokenHash: string, now: string): Promise<CaptureRecord | null>;
  /** Removes the account's capture and its requests. False when the account has no such capture. */
  deleteCapture(accountId: string, id: string): Promise<boolean>;
  /**
   * Keeps a request the capture caught and drops its oldest ones past `keep`, atomically (the
   * capture never holds more than `keep`, whatever arrives at once). False when the capture is
   * gone (deleted meanwhile): nothing was stored.
   */
  addCapturedRequest(captureId: string, request: NewCapturedRequest, keep: number): Promise<boolean>;
  /**
   * The capture's requests newest first, at most `limit`, older than `before` (a sequence) when
   * given.
   */
  listCapturedRequests(
    captureId: string,
    limit: number,
    before: number | null,
  ): Promise<CapturedRequestRecord[]>;
  /** Removes the captures expired at `now` with their requests; returns how many captures went. */
  purgeCaptures(now: string): Promise<number>;
}
