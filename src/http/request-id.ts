/**
 * Correlation ids: the client's own `x-request-id` when it is sane, otherwise a fresh `req_` id.
 * A value shaped like a key (holding a key prefix and its `_`) is never taken: a client that put
 * a key there by mistake would find it answered back, logged and kept in the usage ledger.
 */
import { randomBase62 } from "../core/kernel/key-format.ts";

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** `keyPrefixes`: the prefixes of the keys this service issues (customer and admin). */
export function requestIdFrom(
  header: string | string[] | undefined,
  keyPrefixes: readonly string[] = [],
): string {
  const value = Array.isArray(header) ? header[0] : header;
  const sane =
    value !== undefined &&
    SANE_REQUEST_ID.test(value) &&
    !keyPrefixes.some((prefix) => value.includes(`${prefix}_`));
  return sane ? value : `req_${randomBase62(20)}`;
}
