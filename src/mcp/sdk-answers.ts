/**
 * The SDK's JSON answers, corrected where the SDK errs: params errors as -32602
 * (invalid-params.ts) and header values kept out of errors (echoes.ts). Both concern JSON-RPC
 * errors only, so a success, one message whose `result` comes before any `error` could, goes out
 * as the SDK's own bytes, never parsed: a tool's answer may be a mebibyte. Anything else (an
 * error, a batch, a shape the SDK does not write today) is parsed once and written again only if
 * a shim changed a message.
 */
import { withoutEchoes } from "./echoes.ts";
import { invalidParamsAsSuch } from "./invalid-params.ts";

/** A single success as JSON.stringify writes the SDK's messages: `result` first, or after the id. */
const SUCCESS = /^\{"result":|^\{"jsonrpc":"2\.0","id":(?:-?\d+|"(?:[^"\\]|\\.)*"),"result":/;

/** How far into the answer the success check reads: past any id a client sensibly sends. */
const HEAD_BYTES = 256;

function corrected(message: unknown, sent: readonly (string | undefined)[]): unknown {
  return withoutEchoes(invalidParamsAsSuch(message), sent);
}

/**
 * The JSON-RPC answer (one message or a batch) with its errors corrected; `sent` are the header
 * values no error may quote back. The same Buffer when nothing changed.
 */
export function correctedAnswer(body: Buffer, sent: readonly (string | undefined)[]): Buffer {
  if (SUCCESS.test(body.subarray(0, HEAD_BYTES).toString("latin1"))) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return body;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const fixed = messages.map((message) => corrected(message, sent));
  if (fixed.every((message, i) => message === messages[i])) return body;
  return Buffer.from(JSON.stringify(Array.isArray(parsed) ? fixed : fixed[0]));
}
