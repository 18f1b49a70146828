/**
 * The SDK validates a request's params with zod and, when they do not fit (an `initialize` whose
 * `capabilities` is a string), answers -32603 Internal error with the raw list of zod issues as
 * its message. That is the client's mistake, JSON-RPC's -32602 Invalid params; this turns such an
 * answer into one, naming each bad member by its path with zod's message (which never quotes the
 * value). Any other answer passes through unchanged.
 */

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

interface Issue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

function zodIssues(message: unknown): Issue[] | null {
  if (typeof message !== "string" || !message.trimStart().startsWith("[")) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  const issues: Issue[] = [];
  for (const item of parsed) {
    if (typeof item !== "object" || item === null) return null;
    const { path, message: text } = item as { path?: unknown; message?: unknown };
    if (!Array.isArray(path) || typeof text !== "string") return null;
    issues.push({ path: path.filter((p) => typeof p === "string" || typeof p === "number"), message: text });
  }
  return issues;
}

/** The JSON-RPC message with a params error as -32602; any other message as it is. */
export function invalidParamsAsSuch(message: unknown): unknown {
  if (typeof message !== "object" || message === null || !("error" in message)) return message;
  const { error } = message as { error: unknown };
  if (typeof error !== "object" || error === null) return message;
  const { code, message: text } = error as { code?: unknown; message?: unknown };
  if (code !== INTERNAL_ERROR) return message;
  const issues = zodIssues(text);
  if (issues === null) return message;
  const named = issues.map(
    (i) => `${i.path.filter((p) => p !== "params").join(".") || "params"}: ${i.message}`,
  );
  return { ...message, error: { code: INVALID_PARAMS, message: `Invalid params: ${named.join("; ")}` } };
}
