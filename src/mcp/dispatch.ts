/**
 * Hands one POST to the SDK, stateless and with JSON answers. 2026-07-28 traffic (the per-request
 * `_meta` envelope, `server/discover`) goes to the SDK's `createMcpHandler`; 2025-era traffic
 * (`initialize` and what follows it) to a fresh Streamable HTTP transport in JSON-response mode,
 * because the handler's own 2025 fallback would answer with SSE streams.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { CoreDeps } from "../core/deps.ts";
import type { McpCallContext } from "./call-tool.ts";
import { createToolServer } from "./server.ts";

export interface McpDispatcher {
  /** `parsed` is the body already read as JSON, or undefined when it is empty or not JSON. */
  handle(request: Request, parsed: unknown, call: McpCallContext): Promise<Response>;
  close(): Promise<void>;
}

export function createMcpDispatcher(
  deps: CoreDeps,
  options: { maxBodyBytes: number; onError: (error: Error) => void },
): McpDispatcher {
  // The modern handler builds its server through a factory; this is how the factory learns whose
  // request it serves. Entries go away with their Request objects.
  const calls = new WeakMap<Request, McpCallContext>();
  const modern = createMcpHandler(
    (context) => {
      const call = context.requestInfo === undefined ? undefined : calls.get(context.requestInfo);
      if (call === undefined) throw new Error("MCP request served without its call context");
      return createToolServer(deps, call);
    },
    { legacy: "reject", maxRequestBodySize: options.maxBodyBytes, onerror: options.onError },
  );

  return {
    async handle(request, parsed, call) {
      if (parsed === undefined || (await isLegacyRequest(request, parsed))) {
        return serveLegacy(createToolServer(deps, call), request, parsed);
      }
      calls.set(request, call);
      return modern.fetch(request, { parsedBody: parsed });
    },
    close: () => modern.close(),
  };
}

async function serveLegacy(
  server: ReturnType<typeof createToolServer>,
  request: Request,
  parsed: unknown,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    // In JSON mode the response is complete when this resolves, so the pair can close right after.
    return await transport.handleRequest(request, parsed === undefined ? {} : { parsedBody: parsed });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
