/**
 * The Upstream port on undici's `request` (the HTTP client Node's own fetch is built on, without
 * fetch's WHATWG streams and objects: a quarter of fetch's CPU a call, as
 * bench/operator-tools-micro.ts measures it). Its agent keeps connections to an upstream alive
 * between calls, and a request waiting on a slow upstream costs no thread. Redirects are returned, not followed; the
 * body is read chunk by chunk and reading stops past the cap, so a huge or endless answer costs at
 * most the cap in memory; one deadline covers the whole exchange.
 */
import { Agent, errors, request } from "undici";
import type { UnreachableReason, Upstream, UpstreamRequest, UpstreamResult } from "../../ports/upstream.ts";

export function createHttpUpstream(): Upstream {
  const dispatcher = new Agent();
  return { send: (upstreamRequest) => send(dispatcher, upstreamRequest) };
}

async function send(dispatcher: Agent, upstreamRequest: UpstreamRequest): Promise<UpstreamResult> {
  const { signal: gone } = upstreamRequest;
  if (gone?.aborted) return { kind: "aborted" };
  // One controller for both endings, the deadline and the caller's signal: AbortSignal.timeout and
  // AbortSignal.any would cost a call twice as many objects and timers.
  const controller = new AbortController();
  let ending: "timeout" | "aborted" | undefined;
  const end = (why: "timeout" | "aborted") => {
    ending ??= why;
    controller.abort();
  };
  let done = false;
  // After the loop's poll: a deadline that fired late (the loop was held) first lets the answer
  // that came meanwhile be read.
  const timer = setTimeout(
    () =>
      setImmediate(() => {
        if (!done) end("timeout");
      }),
    upstreamRequest.timeoutMs,
  );
  const onGone = () => end("aborted");
  gone?.addEventListener("abort", onGone, { once: true });
  try {
    // The request's own headers replace these defaults, whatever their case.
    const headers: Record<string, string> = { accept: "application/json", "user-agent": "toolrun" };
    if (upstreamRequest.body !== undefined) headers["content-type"] = "application/json";
    for (const [name, value] of Object.entries(upstreamRequest.headers)) headers[name.toLowerCase()] = value;
    const response = await request(upstreamRequest.url, {
      dispatcher,
      method: upstreamRequest.method,
      headers,
      body: upstreamRequest.body,
      signal: controller.signal,
    });
    const status = response.statusCode;
    // Stops reading: the connection is closed, and the abort it reports is expected.
    const discard = () => response.body.on("error", () => {}).destroy();
    const declared = Number(response.headers["content-length"] ?? Number.NaN);
    if (declared > upstreamRequest.maxResponseBytes) {
      discard();
      return { kind: "too_large", status };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > upstreamRequest.maxResponseBytes) {
        discard();
        return { kind: "too_large", status };
      }
      chunks.push(chunk);
    }
    const retryAfter = response.headers["retry-after"];
    return {
      kind: "response",
      status,
      body: Buffer.concat(chunks, size),
      ...(typeof retryAfter === "string" ? { retryAfter } : {}),
    };
  } catch (error) {
    if (ending) return { kind: ending };
    const code = errorCode(error);
    return { kind: "unreachable", reason: reasonOf(code), code };
  } finally {
    done = true;
    clearTimeout(timer);
    gone?.removeEventListener("abort", onGone);
  }
}

/** The innermost error code the client gives (it may wrap the socket's error as `cause`). */
function errorCode(error: unknown): string {
  let code = "";
  for (let e: unknown = error; typeof e === "object" && e !== null; e = (e as { cause?: unknown }).cause) {
    const own = (e as { code?: unknown }).code;
    if (typeof own === "string") code = own;
    if ((e as { cause?: unknown }).cause === e) break;
  }
  if (code !== "") return code;
  return error instanceof errors.UndiciError ? error.name : error instanceof Error ? error.name : "unknown";
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
