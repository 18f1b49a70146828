/**
 * The human side of the contract: `/docs` renders `/openapi.json` with Swagger UI, served from this
 * process (no CDN: the page works with no internet), and `/docs/errors/{code}` explains each code, so
 * every problem `type` resolves to a page. Swagger UI (swagger-ui-dist) was picked over Redoc, whose
 * 3.x bundle pulls an OpenTelemetry exporter, and Scalar, whose package brings some forty runtime
 * dependencies: it is one dependency-free folder of static files, released monthly by SmartBear.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyReply } from "fastify";
import { JSON_TYPE } from "../../core/contract/endpoint.ts";
import { ApiError, errorCatalog, isErrorCode } from "../../core/contract/errors.ts";
import { sendProblem } from "../problem.ts";
import type { HttpRoute } from "../register.ts";

const HTML = "text/html; charset=utf-8";

/** Scripts, styles and the document's fetch from this origin only (the browser test finds no violation). */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const swaggerDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

// The validator badge would call validator.swagger.io: off, like every other outside request.
const REFERENCE_SCRIPT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#reference",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
`;

/** The files the reference page loads, by the name it asks for. */
const ASSETS: Record<string, { type: string; load: () => Promise<Buffer | string> }> = {
  "swagger-ui.css": {
    type: "text/css; charset=utf-8",
    load: () => readFile(join(swaggerDir, "swagger-ui.css")),
  },
  "swagger-ui-bundle.js": {
    type: "text/javascript; charset=utf-8",
    load: () => readFile(join(swaggerDir, "swagger-ui-bundle.js")),
  },
  "reference.js": { type: "text/javascript; charset=utf-8", load: async () => REFERENCE_SCRIPT },
  // Without an icon the browser asks for /favicon.ico, a 404 in its console.
  "favicon-32x32.png": { type: "image/png", load: () => readFile(join(swaggerDir, "favicon-32x32.png")) },
};

export function docsRoutes(docsUrl: string, openApi: () => object): HttpRoute[] {
  const cache = new Map<string, Promise<Buffer | string>>();
  const reference = { tag: "Reference", keyed: false, errors: [] } as const;
  const html = (description: string) => [{ status: 200, description, contentType: "text/html" }];
  return [
    {
      ...reference,
      method: "GET",
      path: "/openapi.json",
      operationId: "openapi",
      summary: "This OpenAPI 3.1 document",
      description: "Generated from the declarations that serve the API. Keyless, takes no slot.",
      answers: [
        { status: 200, description: "The document.", contentType: JSON_TYPE, schema: { type: "object" } },
      ],
      handler: async () => openApi(),
    },
    {
      ...reference,
      method: "GET",
      path: "/docs",
      operationId: "reference",
      summary: "The API reference, rendered from /openapi.json",
      answers: html("The reference page."),
      handler: async (_request, reply) =>
        page(
          reply,
          "toolrun API reference",
          `<p><a href="/openapi.json">OpenAPI document</a> · <a href="${docsUrl}/errors">Error codes</a></p>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/reference.js"></script>`,
          '<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">',
        ),
    },
    {
      ...reference,
      method: "GET",
      path: "/docs/assets/{file}",
      operationId: "referenceAsset",
      summary: "A script or style sheet of the reference page",
      parameters: { type: "object", properties: { file: { type: "string", enum: Object.keys(ASSETS) } } },
      answers: [
        { status: 200, description: "A style sheet.", contentType: "text/css" },
        { status: 200, description: "A script.", contentType: "text/javascript" },
        { status: 200, description: "The icon.", contentType: "image/png" },
      ],
      errors: ["not_found"],
      handler: async (request, reply) => {
        const name = (request.params as { file: string }).file;
        const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
        if (asset === undefined) {
          return sendProblem(
            reply,
            request,
            docsUrl,
            new ApiError("not_found", `No asset is named "${name}".`),
          );
        }
        let body = cache.get(name);
        if (body === undefined) {
          body = asset.load();
          cache.set(name, body);
        }
        return reply
          .type(asset.type)
          .header("cache-control", "public, max-age=3600")
          .send(await body);
      },
    },
    {
      ...reference,
      method: "GET",
      path: "/docs/errors",
      operationId: "errorCodes",
      summary: "Every error code",
      answers: html("The list of error codes."),
      handler: async (_request, reply) => {
        const rows = Object.entries(errorCatalog)
          .map(
            ([code, spec]) =>
              `<tr><td>${spec.status}</td><td><a href="${docsUrl}/errors/${code}"><code>${code}</code></a></td><td>${escapeHtml(spec.title)}</td></tr>`,
          )
          .join("\n");
        return page(
          reply,
          "Error codes",
          `<p>Every error is an RFC 9457 problem document (<code>application/problem+json</code>). Branch on <code>code</code>, never on <code>title</code>.</p><table><tr><th>HTTP</th><th>code</th><th>title</th></tr>${rows}</table>`,
        );
      },
    },
    {
      ...reference,
      method: "GET",
      path: "/docs/errors/{code}",
      operationId: "errorCode",
      summary: "What one error code means and what to do",
      parameters: { type: "object", properties: { code: { type: "string" } } },
      answers: html("The page of the code."),
      errors: ["not_found"],
      handler: async (request, reply) => {
        const { code } = request.params as { code: string };
        if (!isErrorCode(code)) {
          return sendProblem(
            reply,
            request,
            docsUrl,
            new ApiError("not_found", `No error code is named "${code}".`),
          );
        }
        const spec = errorCatalog[code];
        return page(
          reply,
          code,
          `<p><strong>HTTP ${spec.status}</strong>: ${escapeHtml(spec.title)}</p><p>${escapeHtml(spec.explanation).replace(/`([^`]+)`/g, "<code>$1</code>")}</p><p><a href="${docsUrl}/errors">All error codes</a></p>`,
        );
      },
    },
  ];
}

function page(reply: FastifyReply, title: string, body: string, head = ""): FastifyReply {
  return reply
    .type(HTML)
    .header("content-security-policy", DOCS_CSP)
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · toolrun</title>${head}</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
