/**
 * MCP test plumbing: the real app listening on a loopback port, the SDK's own client connected to
 * it over Streamable HTTP with a key, and a raw JSON-RPC poster for what the client cannot express.
 */
import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type TaskEnabledSession } from "@modelcontextprotocol/ext-tasks/client";
import { createTestApp, type TestApp, type TestAppOptions, type TestLifetime } from "../helpers/app.ts";

export interface ListeningApp extends TestApp {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  base: string;
  /** The MCP endpoint's URL. */
  mcp: string;
}

/** The app listening; closed when `lifetime` ends, like createTestApp's. */
export async function startMcpApp(options: TestAppOptions, lifetime: TestLifetime): Promise<ListeningApp> {
  const t = await createTestApp(options, lifetime);
  const base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  return { ...t, base, mcp: `${base}/mcp` };
}

export type Revision = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26";

/** Connects the SDK client: 2026-07-28 through `server/discover`, the others through `initialize`. */
export async function connect(url: string, key: string, revision: Revision): Promise<Client> {
  const client = new Client(
    { name: "toolrun-mcp-test", version: "1.0.0" },
    revision === "2026-07-28"
      ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
      : { supportedProtocolVersions: [revision] },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

/**
 * A session of the tasks extension's own client (@modelcontextprotocol/ext-tasks) over a 2026-07-28
 * `client`: the SDK client cannot read a task answer, so the extension's client sends its requests
 * itself, framed here as the Streamable HTTP transport frames them (id, key, standard headers).
 */
export function tasksSession(client: Client, url: string, key: string): TaskEnabledSession {
  let id = 1;
  return createTaskSessionFromClient(client, {
    endpointId: url,
    v2RequestFraming: {
      protocolVersion: "2026-07-28",
      clientInfo: { name: "toolrun-tasks-test", version: "1.0.0" },
      clientCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
    },
    rawDispatch: async (request) => {
      const { method, params } = request as { method: string; params?: { name?: unknown; taskId?: unknown } };
      const name = params?.name ?? params?.taskId;
      const answer = await postRpc(
        url,
        { jsonrpc: "2.0", id: id++, ...(request as object) },
        {
          authorization: `Bearer ${key}`,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(typeof name === "string" && { "mcp-name": name }),
        },
      );
      const body = answer.body as { result?: never; error?: never };
      return body.error === undefined
        ? { kind: "result", result: body.result ?? null }
        : { kind: "error", error: body.error };
    },
  });
}

export interface RpcResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Posts raw JSON-RPC the way a 2025-era client does (initialize needs no session in stateless mode). */
export async function postRpc(
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<RpcResponse> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    // Not JSON: left as text for the assertion to show.
  }
  return { status: res.status, headers: res.headers, body };
}

/** Like postRpc, but over node:http, so the `Host` header can be anything (fetch sets its own). */
export function postRpcWithHost(
  url: string,
  host: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<RpcResponse> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": String(Buffer.byteLength(body)),
          ...headers,
          host,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === "string") responseHeaders.set(name, value);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: responseHeaders,
            body: text === "" ? null : JSON.parse(text),
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** POSTs a JSON-RPC body (a message, or raw text) to the app's /mcp in-process, with `key`, as a 2025 client. */
export function injectRpc(t: TestApp, key: string, payload: unknown, version = "2025-06-18") {
  return t.app.inject({
    method: "POST",
    url: "/mcp",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
    },
    payload: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
}

export function initializeMessage(id: number | string = 1, protocolVersion = "2025-11-25"): unknown {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" } },
  };
}
