/**
 * Some of the SDK's error answers quote what the client sent: an `MCP-Protocol-Version` header
 * names a revision it does not know ("the MCP-Protocol-Version header names protocol revision X",
 * and the value again in `data`). Nothing a client sends is echoed into an error, so such a value
 * is replaced, wherever it stands in a JSON-RPC error, by words that do not repeat it. A revision
 * the SDK supports is the server's own vocabulary, and stays.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

const INSTEAD = "(the value sent)";

/** `value` with every echo replaced; the same value when it held none. */
function scrub(value: unknown, sent: readonly string[]): unknown {
  if (typeof value === "string") return sent.reduce((text, echo) => text.replaceAll(echo, INSTEAD), value);
  if (Array.isArray(value)) {
    const items = value.map((item) => scrub(item, sent));
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    const scrubbed = entries.map(([name, member]) => [name, scrub(member, sent)] as const);
    return scrubbed.every(([, member], i) => member === entries[i]?.[1])
      ? value
      : Object.fromEntries(scrubbed);
  }
  return value;
}

/** The JSON-RPC message whose error no longer holds the header values `sent`; any other message as it is. */
export function withoutEchoes(message: unknown, sent: readonly (string | undefined)[]): unknown {
  if (typeof message !== "object" || message === null || !("error" in message)) return message;
  const echoes = sent.filter(
    (value): value is string =>
      value !== undefined && value !== "" && !SUPPORTED_PROTOCOL_VERSIONS.includes(value),
  );
  const { error } = message as { error: unknown };
  const scrubbed = scrub(error, echoes);
  return scrubbed === error ? message : { ...message, error: scrubbed };
}
