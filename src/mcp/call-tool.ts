/**
 * `tools/call`: a paid tool goes through invokeTool, the pipeline HTTP uses, so it is priced,
 * metered, refunded and recorded exactly like `POST /v1/tool/{slug}`; a free tool calls its core
 * read. Every failure of a known tool becomes an isError result carrying its problem document.
 */
import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { translateBackendError } from "../core/backend-errors.ts";
import type { CoreDeps } from "../core/deps.ts";
import { ApiError, problemDocument } from "../core/errors.ts";
import { invokeTool } from "../core/invoke.ts";
import { BackendUnavailableError } from "../ports/errors.ts";
import type { ApiKeyRecord } from "../ports/store.ts";
import type { CallNote } from "../request-log.ts";
import { freeTools } from "./free-tools.ts";
import { problemResult, successResult } from "./results.ts";

/** Who is calling, within which HTTP request. */
export interface McpCallContext {
  readonly key: ApiKeyRecord;
  /** The HTTP request's id (`x-request-id`): the envelope's and the usage ledger's `request_id`. */
  readonly requestId: string;
  /** Where internal failures are reported; they never reach the client. */
  readonly logError: (error: unknown, code: string) => void;
  /** What each call did, for the request's log line (tool, credits, problem code). */
  readonly noteCall?: (note: CallNote) => void;
}

export async function callTool(
  deps: CoreDeps,
  call: McpCallContext,
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const free = freeTools.get(name);
  if (free === undefined && deps.registry.get(name) === undefined) {
    // Not a tool that ran and failed: the request names nothing we have (a protocol error).
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. tools/list lists them.`);
  }
  const input = args ?? {};
  try {
    if (free !== undefined) return successResult(await free.run(deps, call.key, input));
    call.noteCall?.({ tool: name });
    const envelope = await invokeTool(deps, {
      key: call.key,
      slug: name,
      body: { parsed: input, bytes: Buffer.byteLength(JSON.stringify(input)) },
      requestId: call.requestId,
    });
    call.noteCall?.({ credits: envelope.credits_used });
    return successResult({ ...envelope });
  } catch (error) {
    if (error instanceof BackendUnavailableError) deps.observer?.backendError(error.backend);
    const apiError =
      translateBackendError(error) ??
      new ApiError("internal_error", "Something failed inside the service. Any credits held were refunded.", {
        cause: error,
      });
    // The same errors the HTTP error handler logs: every 5xx, with its cause.
    if (apiError.status >= 500) call.logError(apiError.cause ?? apiError, apiError.code);
    call.noteCall?.({ code: apiError.code });
    return problemResult(problemDocument(apiError, deps.settings.docsUrl, call.requestId));
  }
}
