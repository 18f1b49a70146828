/**
 * The reference's pages in the console's frame and look: `/docs` (Swagger UI over /openapi.json),
 * the list of error codes and one page per code, each linked to the others.
 */
import { type ErrorCode, errorCatalog } from "../core/kernel/errors.ts";
import { html, withCode } from "./html.ts";
import { SITE_STYLES, sitePage } from "./pages.ts";

/** Swagger UI's own sheet, then the site's look over it (not the console's forms and tables). */
export function referencePage(docsUrl: string): string {
  const main = html`<h1>API reference</h1>
<p class="lead">Every endpoint of this service, rendered from <a href="/openapi.json">the OpenAPI document</a>. Every error is an RFC 9457 problem document whose <code>code</code> is explained under <a href="${docsUrl}/errors">Error codes</a>.</p>
<div id="reference" class="reference"></div>`;
  return sitePage({
    page: "reference",
    title: "API reference",
    main,
    docsUrl,
    styles: ["/docs/assets/swagger-ui.css", "/console/site.css", "/console/reference.css"],
    scripts: ["/docs/assets/swagger-ui-bundle.js", "/docs/assets/reference.js"],
    wide: true,
  });
}

const codes = Object.keys(errorCatalog) as ErrorCode[];

export function errorIndexPage(docsUrl: string): string {
  const main = html`<h1>Error codes</h1>
<p class="lead">Every error is an RFC 9457 problem document (<code>application/problem+json</code>) whose <code>type</code> is the page of its code. Branch on <code>code</code>, never on <code>title</code>.</p>
<div class="table-wrap" role="region" tabindex="0" aria-labelledby="codes-caption">
<table class="codes">
<caption id="codes-caption">Codes, in the order of their HTTP status</caption>
<thead><tr><th scope="col">HTTP</th><th scope="col">Code</th><th scope="col">Title</th></tr></thead>
<tbody>${[...codes]
    .sort((a, b) => errorCatalog[a].status - errorCatalog[b].status)
    .map(
      (code) =>
        html`<tr><td>${errorCatalog[code].status}</td><td><a href="${docsUrl}/errors/${code}"><code>${code}</code></a></td><td>${errorCatalog[code].title}</td></tr>`,
    )}</tbody>
</table>
</div>
<p><a href="${docsUrl}">API reference</a> · <a href="/openapi.json">OpenAPI document</a></p>`;
  return sitePage({ page: "errors", title: "Error codes", main, docsUrl, styles: SITE_STYLES });
}

export function errorPage(docsUrl: string, code: ErrorCode): string {
  const spec = errorCatalog[code];
  const sameStatus = codes.filter((other) => other !== code && errorCatalog[other].status === spec.status);
  const main = html`<p class="breadcrumb"><a href="${docsUrl}/errors">Error codes</a> › <code>${code}</code></p>
<h1><code>${code}</code></h1>
<p class="status-line"><strong>HTTP ${spec.status}</strong> · ${spec.title}</p>
<p>${withCode(spec.explanation)}</p>
${
  sameStatus.length > 0
    ? html`<h2>Other codes with HTTP ${spec.status}</h2>
<ul>${sameStatus.map((other) => html`<li><a href="${docsUrl}/errors/${other}"><code>${other}</code></a>: ${errorCatalog[other].title}</li>`)}</ul>`
    : ""
}
<nav aria-label="Error codes" class="code-nav">
<h2>All error codes</h2>
<ul>${codes.map(
    (other) =>
      html`<li><a href="${docsUrl}/errors/${other}"${other === code ? html` aria-current="page"` : ""}><code>${other}</code></a></li>`,
  )}</ul>
</nav>`;
  return sitePage({ page: "errors", title: code, main, docsUrl, styles: SITE_STYLES });
}
