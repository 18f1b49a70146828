/**
 * Some of the SDK's error answers quote what the client sent: an `MCP-Protocol-Version` header
 * names a revision it does not know ("the MCP-Protocol-Version header names protocol revision X",
 * and the value again in `data`). Nothing a client sends is echoed into an error, so such a value
 * is replaced, wherever it stands in a JSON-RPC error, by words that do not repeat it. A revision
 * the SDK supports is the server's own vocabulary, and stays.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";

const INSTEAD = "(the value sent)";

function scrub(value: unknown, sent: readonly string[]): unknown {
  if (typeof value === "string") return sent.reduce((text, echo) => text.replaceAll(echo, INSTEAD), value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, sent));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, scrub(member, sent)]));
  return value;
}

function withoutEcho(message: unknown, sent: readonly string[]): unknown {
  if (typeof message !== "object" || message === null || !("error" in message)) return message;
  return { ...message, error: scrub((message as { error: unknown }).error, sent) };
}

/** The JSON-RPC answer (one message or a batch) whose errors no longer hold the header values `sent`. */
export function withoutEchoes(body: string, sent: readonly (string | undefined)[]): string {
  const echoes = sent.filter(
    (value): value is string =>
      value !== undefined && value !== "" && !SUPPORTED_PROTOCOL_VERSIONS.includes(value),
  );
  if (echoes.length === 0 || !echoes.some((echo) => body.includes(JSON.stringify(echo).slice(1, -1))))
    return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  return JSON.stringify(
    Array.isArray(parsed) ? parsed.map((m) => withoutEcho(m, echoes)) : withoutEcho(parsed, echoes),
  );
}
