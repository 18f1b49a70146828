/**
 * Human pages behind every problem `type`: `/docs/errors/{code}` explains the code, so each
 * problem document links to something a person can read.
 */
import type { FastifyInstance } from "fastify";
import { ApiError, errorCatalog, isErrorCode } from "../../core/errors.ts";
import { sendProblem } from "../problem.ts";

export function registerDocsRoutes(app: FastifyInstance, docsUrl: string): void {
  app.get("/docs", async (_request, reply) =>
    reply.type("text/html; charset=utf-8").send(
      page(
        "toolrun API",
        `<p>Run a tool with <code>POST /v1/tool/{slug}</code> and <code>Authorization: Bearer &lt;API_KEY&gt;</code>.</p>
         <p>Catalog: <code>GET /v1/tools/list</code>. Credits: <code>GET /v1/me/credits</code>. Usage: <code>GET /v1/me/usage</code>. MCP: <code>POST /mcp</code>.</p>
         <p><a href="${docsUrl}/errors">Error codes</a></p>`,
      ),
    ),
  );

  app.get("/docs/errors", async (_request, reply) => {
    const rows = Object.entries(errorCatalog)
      .map(
        ([code, spec]) =>
          `<tr><td>${spec.status}</td><td><a href="${docsUrl}/errors/${code}"><code>${code}</code></a></td><td>${escapeHtml(spec.title)}</td></tr>`,
      )
      .join("\n");
    return reply
      .type("text/html; charset=utf-8")
      .send(
        page(
          "Error codes",
          `<p>Every error is an RFC 9457 problem document (<code>application/problem+json</code>). Branch on <code>code</code>, never on <code>title</code>.</p><table><tr><th>HTTP</th><th>code</th><th>title</th></tr>${rows}</table>`,
        ),
      );
  });

  app.get<{ Params: { code: string } }>("/docs/errors/:code", async (request, reply) => {
    const { code } = request.params;
    if (!isErrorCode(code)) {
      return sendProblem(
        reply,
        request,
        docsUrl,
        new ApiError("not_found", `No error code is named "${code}".`),
      );
    }
    const spec = errorCatalog[code];
    return reply
      .type("text/html; charset=utf-8")
      .send(
        page(
          code,
          `<p><strong>HTTP ${spec.status}</strong>: ${escapeHtml(spec.title)}</p><p>${escapeHtml(spec.explanation).replace(/`([^`]+)`/g, "<code>$1</code>")}</p><p><a href="${docsUrl}/errors">All error codes</a></p>`,
        ),
      );
  });
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · toolrun</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
