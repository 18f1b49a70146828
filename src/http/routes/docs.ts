/**
 * The human side of the contract: `/docs` renders `/openapi.json` with Swagger UI, served from this
 * process (no CDN: the page works with no internet), and `/docs/errors/{code}` explains each code, so
 * every problem `type` resolves to a page. The pages wear the console's frame and look
 * (console/reference-pages.ts); the reference's own files are for browsers, not part of the API.
 * Swagger UI (swagger-ui-dist) was picked over Redoc, whose 3.x bundle pulls an OpenTelemetry
 * exporter, and Scalar, whose package brings some forty runtime dependencies: it is one
 * dependency-free folder of static files, released monthly by SmartBear.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyReply } from "fastify";
import { errorIndexPage, errorPage, referencePage } from "../../console/reference-pages.ts";
import { JSON_TYPE, NOT_FOUND_PAGE } from "../../core/kernel/endpoint.ts";
import { ApiError, isErrorCode } from "../../core/kernel/errors.ts";
import type { HttpRoute } from "../register.ts";

const HTML = "text/html; charset=utf-8";

/** Scripts, styles and the document's fetch from this origin only (the browser test finds no violation). */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const swaggerDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

// The validator badge would call validator.swagger.io: off, like every other outside request. Deep
// links are off: Swagger UI puts each as a link inside the operation's button, which screen readers
// cannot use (axe: nested-interactive). The code samples are light, like the console's.
const REFERENCE_SCRIPT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#reference",
    deepLinking: false,
    validatorUrl: null,
    syntaxHighlight: { activated: true, theme: "idea" },
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
  // Swagger UI titles its examples' choice with a span beside it, which screen readers do not
  // tie to the choice (axe: select-name): the span's words become the choice's name.
  new MutationObserver(function () {
    document.querySelectorAll("#reference select:not([aria-label])").forEach(function (select) {
      var title = select.previousElementSibling;
      if (select.labels.length === 0 && title && title.textContent.trim() !== "")
        select.setAttribute("aria-label", title.textContent.replace(/:\\s*$/, "").trim());
    });
  }).observe(document.getElementById("reference"), { childList: true, subtree: true });
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
};

export function docsRoutes(docsUrl: string, openApi: () => object): HttpRoute[] {
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
      handler: async (_request, reply) => page(reply, referencePage(docsUrl)),
    },
    {
      ...reference,
      method: "GET",
      path: "/docs/errors",
      operationId: "errorCodes",
      summary: "Every error code",
      answers: html("The list of error codes."),
      handler: async (_request, reply) => page(reply, errorIndexPage(docsUrl)),
    },
    {
      ...reference,
      method: "GET",
      path: "/docs/errors/{code}",
      operationId: "errorCode",
      summary: "What one error code means and what to do",
      parameters: { type: "object", properties: { code: { type: "string" } } },
      answers: [...html("The page of the code."), NOT_FOUND_PAGE],
      errors: ["not_found"],
      handler: async (request, reply) => {
        const { code } = request.params as { code: string };
        // Thrown, not sent: the error handler answers a browser with the 404 page.
        if (!isErrorCode(code))
          throw new ApiError("not_found", "No error code has this name. `GET /docs/errors` lists them.");
        return page(reply, errorPage(docsUrl, code));
      },
    },
  ];
}

/** The reference page's scripts and style sheet: files for browsers, left out of the reference. */
export function referenceAssetRoutes(): HttpRoute[] {
  const cache = new Map<string, Promise<Buffer | string>>();
  return [
    {
      tag: "Reference",
      keyed: false,
      method: "GET",
      path: "/docs/assets/{file}",
      operationId: "referenceAsset",
      summary: "A script or style sheet of the reference page",
      parameters: { type: "object", properties: { file: { type: "string", enum: Object.keys(ASSETS) } } },
      answers: [
        { status: 200, description: "A style sheet.", contentType: "text/css" },
        { status: 200, description: "A script.", contentType: "text/javascript" },
        NOT_FOUND_PAGE,
      ],
      errors: ["not_found"],
      handler: async (request, reply) => {
        const name = (request.params as { file: string }).file;
        const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
        if (asset === undefined) throw new ApiError("not_found", "No file of the reference has this name.");
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
  ];
}

function page(reply: FastifyReply, body: string): FastifyReply {
  return reply.type(HTML).header("content-security-policy", DOCS_CSP).send(body);
}
