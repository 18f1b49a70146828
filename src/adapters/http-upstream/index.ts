/**
 * The Upstream port on Node's own fetch (undici): its connection pool keeps connections to an
 * upstream alive between calls, and a request waiting on a slow upstream costs no thread. Redirects
 * are returned, not followed; the body is read chunk by chunk and reading stops past the cap, so a
 * huge or endless answer costs at most the cap in memory; one deadline covers the whole exchange.
 */
import type { UnreachableReason, Upstream, UpstreamRequest, UpstreamResult } from "../../ports/upstream.ts";

export function createHttpUpstream(): Upstream {
  return { send };
}

async function send(request: UpstreamRequest): Promise<UpstreamResult> {
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline;
  const ended = (): UpstreamResult | undefined =>
    deadline.aborted ? { kind: "timeout" } : request.signal?.aborted ? { kind: "aborted" } : undefined;
  try {
    // The request's own headers replace these defaults, whatever their case.
    const headers = new Headers({ accept: "application/json", "user-agent": "toolrun" });
    if (request.body !== undefined) headers.set("content-type", "application/json");
    for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      body: request.body,
      redirect: "manual",
      signal,
    });
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > request.maxResponseBytes) {
      await response.body?.cancel();
      return { kind: "too_large", status: response.status };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        size += read.value.byteLength;
        if (size > request.maxResponseBytes) {
          await reader.cancel();
          return { kind: "too_large", status: response.status };
        }
        chunks.push(read.value);
      }
    }
    return { kind: "response", status: response.status, body: Buffer.concat(chunks, size) };
  } catch (error) {
    const early = ended();
    if (early) return early;
    const code = errorCode(error);
    return { kind: "unreachable", reason: reasonOf(code), code };
  }
}

/** The innermost error code fetch gives (it wraps the socket's error as `cause`). */
function errorCode(error: unknown): string {
  let code = "";
  for (let e: unknown = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    const own = (e as { code?: unknown }).code;
    if (typeof own === "string") code = own;
    if ((e as { cause?: unknown }).cause === e) break;
  }
  return code || (error instanceof Error ? error.name : "unknown");
}

function reasonOf(code: string): UnreachableReason {
  switch (code) {
    case "ECONNREFUSED":
      return "refused";
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return "reset";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "unknown_host";
    default:
      return "other";
  }
}
