/**
 * Correlation ids: the client's own `x-request-id` when it is sane, otherwise a fresh `req_` id.
 */
import { randomBase62 } from "../core/call/keys.ts";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : `req_${randomBase62(20)}`;
}
