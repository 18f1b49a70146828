/**
 * Reads a POST body as JSON-RPC just far enough to count its messages: each message takes one
 * rate-limit slot, so a batch array of N takes N. Everything else about the body is the SDK's job.
 */

export interface ReadBody {
  /** The parsed JSON, or undefined when the body is empty or not JSON (the SDK answers -32700). */
  readonly parsed: unknown;
  /** Messages in the body; a body that holds none still costs one slot, like any keyed request. */
  readonly messages: number;
}

export function readJsonRpcBody(raw: Buffer): ReadBody {
  if (raw.length === 0) return { parsed: undefined, messages: 1 };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    return { parsed: undefined, messages: 1 };
  }
  return { parsed, messages: Array.isArray(parsed) ? Math.max(1, parsed.length) : 1 };
}
