// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is the configuration's own syntax for environment variables
/**
 * An operator's tools as the tests load them, through the loader the service uses: the modules of
 * test/fixtures/operator-tools and examples/tools (through TOOLRUN_TOOLS), the example's
 * create-ticket, and an HTTP tool per behaviour of the loopback upstream (test/helpers/upstream.ts),
 * each named for it.
 */
import { readFileSync } from "node:fs";
import { delimiter } from "node:path";
import { fileURLToPath } from "node:url";
import { createHttpUpstream } from "../../src/adapters/http-upstream/index.ts";
import { type LoadedTool, loadTools } from "../../src/core/tools/loader.ts";
import { TICKETS_TOKEN } from "./upstream.ts";

export const OPERATOR_TOOLS_FOLDER = fileURLToPath(new URL("../fixtures/operator-tools/", import.meta.url));
export const EXAMPLE_TOOLS_FOLDER = fileURLToPath(new URL("../../examples/tools/", import.meta.url));
export const EXAMPLE_HTTP_TOOLS = fileURLToPath(
  new URL("../../examples/tools/http-tools.json", import.meta.url),
);

/** What every test HTTP tool costs (before the plan's minimum). */
export const HTTP_TOOL_WEIGHT = 4;

function httpTool(slug: string, url: string, change: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    slug,
    name: slug,
    description: `Calls the test upstream at ${new URL(url).pathname}.`,
    version: "1.0.0",
    weight: HTTP_TOOL_WEIGHT,
    inputSchema: { type: "object" },
    url,
    method: "GET",
    timeoutMs: 2000,
    ...change,
  };
}

/**
 * The example's create-ticket (its URL on `origin`), and one tool per upstream behaviour:
 * `upstream-echo` (POST, answers the request it got), `upstream-status` (`{code}`),
 * `upstream-slow` (`{ms}`, 300 ms timeout), `upstream-text`, `upstream-array`, `upstream-deep`, `upstream-reset`,
 * `upstream-huge`, `upstream-strict` (an answer failing its output schema), `upstream-lookup`
 * (`{id}` in the path and `{q}` in the query, echoed), `upstream-down` (on `downOrigin`).
 */
export function upstreamDeclarations(origin: string, downOrigin: string): Record<string, unknown>[] {
  const example = JSON.parse(readFileSync(EXAMPLE_HTTP_TOOLS, "utf8")) as {
    httpTools: Record<string, unknown>[];
  };
  const tickets = example.httpTools.map((tool) => ({
    ...tool,
    url: String(tool.url).replace("http://127.0.0.1:8787", origin),
  }));
  const numberIn = (name: string) => ({
    type: "object",
    required: [name],
    properties: { [name]: { type: "integer", minimum: 0 } },
  });
  return [
    ...tickets,
    httpTool("upstream-echo", `${origin}/echo`, {
      method: "POST",
      inputSchema: { type: "object", properties: { note: { type: "string" } } },
    }),
    httpTool("upstream-status", `${origin}/status/{code}`, { inputSchema: numberIn("code") }),
    httpTool("upstream-slow", `${origin}/slow/{ms}`, { inputSchema: numberIn("ms"), timeoutMs: 300 }),
    httpTool("upstream-text", `${origin}/text`),
    httpTool("upstream-array", `${origin}/array`),
    httpTool("upstream-deep", `${origin}/deep`),
    httpTool("upstream-reset", `${origin}/reset`),
    httpTool("upstream-huge", `${origin}/huge`, { maxResponseBytes: 4096 }),
    httpTool("upstream-strict", `${origin}/echo`, {
      outputSchema: { type: "object", required: ["ticket"], properties: { ticket: { type: "string" } } },
    }),
    httpTool("upstream-lookup", `${origin}/echo/items/{id}?q={q}`, {
      inputSchema: {
        type: "object",
        required: ["id", "q"],
        properties: { id: { type: "string" }, q: { type: "string" } },
      },
      annotations: { idempotentHint: true },
      examples: [{ title: "Item 7", input: { id: "7", q: "blue" } }],
    }),
    httpTool("upstream-down", `${downOrigin}/anything`),
  ];
}

/**
 * The operator's tools (the test modules and the example's unit converter, then HTTP tools),
 * loaded as `toolrun serve` loads them.
 */
export async function loadOperatorTools(origin: string, downOrigin: string): Promise<LoadedTool[]> {
  return loadTools({
    builtIns: [],
    modules: [OPERATOR_TOOLS_FOLDER, EXAMPLE_TOOLS_FOLDER].join(delimiter),
    httpTools: { declarations: upstreamDeclarations(origin, downOrigin), configPath: "test.json" },
    secrets: { "remember-note": { origin: "${NOTES_ORIGIN}" } },
    env: { TICKETS_TOKEN, NOTES_ORIGIN: origin },
    cwd: process.cwd(),
    upstream: createHttpUpstream(),
    abandonAfterMs: 120_000,
  });
}
