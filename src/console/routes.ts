/**
 * The web console, served by the same process as the API: `/` (the tools), `/tools/{slug}` (one
 * tool's form and results), `/account`, and the local assets under `/console/`. Every page carries
 * a Content-Security-Policy that allows only this origin and no inline script. These are pages for
 * people, not API: the method checks know them, the API reference leaves them out.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Pack } from "../core/billing/packs.ts";
import type { CoreDeps } from "../core/call/deps.ts";
import { callCost } from "../core/kernel/credits.ts";
import { type EndpointSpec, NOT_FOUND_PAGE } from "../core/kernel/endpoint.ts";
import { ApiError } from "../core/kernel/errors.ts";
import type { RegisteredTool } from "../core/tools/registry.ts";
import { accountPage, notFoundPage, type PageContext, planCosts, toolPage, toolsPage } from "./pages.ts";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const ASSETS_DIR = new URL("./assets/", import.meta.url);
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

interface Asset {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

/** The assets are read once at start: a handful of small files, served from memory. */
function loadAssets(): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(ASSETS_DIR)) {
    const type = CONTENT_TYPES[extname(name)];
    if (!type) continue;
    const body = readFileSync(join(ASSETS_DIR.pathname, name));
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"`;
    assets.set(name, { body, type, etag });
  }
  return assets;
}

/** The script modules under /console/ that every page announces (console.js loads them). */
function scriptModules(): string[] {
  return readdirSync(ASSETS_DIR).filter((name) => name.endsWith(".js") && name !== "console.js");
}

const pathParameter = (name: string) => ({ type: "object", properties: { [name]: { type: "string" } } });

const page = (path: string, operationId: string, summary: string): EndpointSpec => ({
  method: "GET",
  path,
  ...(path.includes("{slug}") && { parameters: pathParameter("slug") }),
  operationId,
  summary,
  tag: "Console",
  keyed: false,
  answers: [
    { status: 200, description: "The page (running a tool needs the user's key).", contentType: "text/html" },
    ...(path.includes("{") ? [NOT_FOUND_PAGE] : []),
  ],
  errors: path.includes("{") ? ["not_found"] : [],
});

/** The console's routes as the 405 answers (and the tests of every answer) know them. */
export const consoleEndpoints: readonly EndpointSpec[] = [
  page("/", "consoleTools", "Console: the tools"),
  page("/tools/{slug}", "consoleTool", "Console: one tool's form and results"),
  page("/account", "consoleAccount", "Console: credits and usage of the key pasted in"),
  {
    method: "GET",
    path: "/console/{file}",
    operationId: "consoleAsset",
    parameters: pathParameter("file"),
    summary: "Console: a script, style sheet or icon",
    tag: "Console",
    keyed: false,
    answers: [
      ...Object.values(CONTENT_TYPES).map((type) => ({
        status: 200,
        description: "The file.",
        contentType: type.split(";")[0] ?? type,
      })),
      { status: 304, description: "Not modified (If-None-Match)." },
      NOT_FOUND_PAGE,
    ],
    errors: ["not_found"],
  },
];

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header("content-security-policy", CONTENT_SECURITY_POLICY)
    .header("x-content-type-options", "nosniff")
    .header("referrer-policy", "no-referrer")
    .header("cross-origin-opener-policy", "same-origin");
}

function sendPage(reply: FastifyReply, body: string): FastifyReply {
  return secure(reply).header("cache-control", "no-store").type("text/html; charset=utf-8").send(body);
}

/** Sends the 404 page (the same for every address, so rendered once) on a reply whose status is 404. */
export function notFoundPageSender(docsUrl: string): (reply: FastifyReply) => FastifyReply {
  const body = notFoundPage({ docsUrl, modules: scriptModules() });
  return (reply) => sendPage(reply, body);
}

/** What every console page is rendered with; `members` when members may sign in. */
export function consolePageContext(
  deps: CoreDeps,
  members: boolean,
  packs: readonly Pack[] = [],
): PageContext {
  return {
    docsUrl: deps.settings.docsUrl,
    modules: scriptModules(),
    ...(members && { members }),
    ...(packs.length > 0 && { packs }),
  };
}

/** Tools offered over the API; the operator's stored switches apply, the defaults if unreadable. */
export async function apiTools(deps: Pick<CoreDeps, "registry" | "switches">): Promise<RegisteredTool[]> {
  const tools = deps.registry.all();
  const shown = await Promise.all(
    tools.map((tool) =>
      deps.switches.of(tool).then(
        (s) => s.api,
        () => tool.apiByDefault,
      ),
    ),
  );
  return tools.filter((_, i) => shown[i]);
}

export function registerConsole(app: FastifyInstance, deps: CoreDeps, ctx: PageContext): void {
  const assets = loadAssets();
  const costs = (tool: RegisteredTool) =>
    planCosts(tool, deps.settings.plans, (weight, plan) => callCost(weight, plan, deps.settings));

  app.get("/", async (_request, reply) => sendPage(reply, toolsPage(ctx, await apiTools(deps), costs)));

  app.get<{ Params: { slug: string } }>("/tools/:slug", async (request, reply) => {
    const tools = await apiTools(deps);
    const tool = tools.find((t) => t.slug === request.params.slug);
    if (!tool) throw new ApiError("not_found", "No tool has this slug.");
    return sendPage(reply, toolPage(ctx, tool, costs(tool)));
  });

  app.get<{ Querystring: { checkout?: unknown } }>("/account", async (request, reply) =>
    sendPage(reply, accountPage(ctx, request.query.checkout)),
  );

  app.get<{ Params: { file: string } }>("/console/:file", async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) throw new ApiError("not_found", "No file of the console has this name.");
    secure(reply).header("etag", asset.etag).header("cache-control", "no-cache").type(asset.type);
    if (request.headers["if-none-match"] === asset.etag) return reply.code(304).send();
    return reply.send(asset.body);
  });
}
