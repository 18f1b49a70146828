/**
 * The console's pages, rendered on the server from the tool registry: browsing needs no key. The
 * script (assets/console.js) adds what needs the user's key: runs, results and the account.
 */

import type { Plan } from "../core/settings.ts";
import type { RegisteredTool } from "../core/tools/registry.ts";
import { fieldsOf, renderField } from "./form.ts";
import { html, type Markup } from "./html.ts";

export type PageName = "tools" | "tool" | "account";

export interface PageContext {
  /** Where the API reference lives (`/docs` of this service unless configured otherwise). */
  readonly docsUrl: string;
  /** The script modules under /console/, fetched at once instead of one import level at a time. */
  readonly modules: readonly string[];
}

/** Credits one run costs on each plan: max(weight, the plan's minimum), or nothing when unmetered. */
export type PlanCosts = readonly { readonly plan: string; readonly credits: number }[];

export function layout(ctx: PageContext, page: PageName, title: string, main: Markup, data = {}): string {
  const attrs = Object.entries({ page, ...data }).map(([k, v]) => html` data-${k}="${String(v)}"`);
  const link = (href: string, label: string, current: boolean) =>
    html`<li><a href="${href}"${current ? html` aria-current="page"` : ""}>${label}</a></li>`;
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · toolrun</title>
<link rel="icon" href="/console/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/console.css">
<script type="module" src="/console/console.js"></script>
${ctx.modules.map((name) => html`<link rel="modulepreload" href="/console/${name}">\n`)}</head>
<body${attrs}>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<nav aria-label="Main">
<a class="brand" href="/">toolrun</a>
<ul>${link("/", "Tools", page !== "account")}${link("/account", "Account", page === "account")}${link(ctx.docsUrl, "API reference", false)}</ul>
</nav>
<section class="key-bar" aria-label="API key">
<form id="key-form" class="key-form">
<label for="api-key">API key</label>
<input id="api-key" name="key" type="password" autocomplete="off" spellcheck="false" aria-describedby="key-help">
<button type="submit">Use key</button>
<p id="key-help" class="help">Kept in this tab only (session storage) and sent as <code>Authorization: Bearer</code>.</p>
</form>
<p id="key-status" class="key-status" hidden>Using key <code id="key-prefix"></code> in this tab. <button type="button" id="key-forget">Forget key</button></p>
</section>
</header>
<main id="main" tabindex="-1">
${main}
</main>
<footer class="site"><p>toolrun console · <a href="${ctx.docsUrl}/errors">Error codes</a></p></footer>
</body>
</html>`}\n`;
}

export function toolsPage(
  ctx: PageContext,
  tools: readonly RegisteredTool[],
  costs: (t: RegisteredTool) => PlanCosts,
): string {
  const main = html`<h1>Tools</h1>
<p>Each tool runs as a charged call with your API key, the same call a program makes to <code>POST /v1/tool/{slug}</code>.</p>
<ul class="tool-list">${tools.map(
    (tool) => html`<li class="card">
<h2><a href="/tools/${tool.slug}">${tool.definition.name}</a></h2>
<p>${tool.definition.description}</p>
<p class="meta">${costLine(costs(tool))}</p>
</li>`,
  )}</ul>
<section aria-labelledby="key-title" class="card">
<h2 id="key-title">Getting a key</h2>
<p>The operator creates keys with <code>npx toolrun keys create --plan free --name you</code>; the first one is printed when the service starts on an empty database. Paste it in the API key box above; it stays in this tab until you close it.</p>
</section>`;
  return layout(ctx, "tools", "Tools", main);
}

export function toolPage(ctx: PageContext, tool: RegisteredTool, costs: PlanCosts): string {
  const { definition } = tool;
  const examples = definition.examples;
  const main = html`<h1>${definition.name}</h1>
<p class="lead">${definition.description}</p>
<p class="meta">Version ${definition.version} · ${costLine(costs)} · <a href="${ctx.docsUrl}">API reference</a></p>
<form id="tool-form" class="tool-form" novalidate aria-label="${definition.name} input">
${
  examples.length > 0
    ? html`<div class="examples"><span id="examples-label">Fill with an example:</span> ${examples.map(
        (example) =>
          html`<button type="button" class="secondary example" aria-describedby="examples-label" data-example="${JSON.stringify(example.input)}">${example.title}</button> `,
      )}</div>`
    : ""
}
${fieldsOf(definition.inputSchema).map(renderField)}
<div class="actions">
<button type="submit" id="run">Run</button>
<button type="button" id="copy-curl" class="secondary">Copy as curl</button>
</div>
</form>
<div id="run-status" class="run-status" role="status" aria-live="polite"></div>
<div id="problem" class="problem" tabindex="-1" hidden></div>
<section id="curl" class="curl" aria-labelledby="curl-title" hidden>
<h2 id="curl-title">The call as curl</h2>
<pre tabindex="0"><code id="curl-text"></code></pre>
</section>
<section id="results" class="results" aria-labelledby="results-title" hidden>
<h2 id="results-title">Result</h2>
<div id="results-body"></div>
</section>`;
  return layout(ctx, "tool", definition.name, main, { slug: tool.slug });
}

export function accountPage(ctx: PageContext): string {
  const main = html`<h1>Account</h1>
<p id="account-needs-key">Paste your API key above to see your plan, credits and usage.</p>
<div id="problem" class="problem" tabindex="-1" hidden></div>
<div id="account" hidden>
<section aria-labelledby="credits-title" class="card">
<h2 id="credits-title">Credits this period</h2>
<dl id="credits" class="figures"></dl>
<p id="period" class="meta"></p>
</section>
<section aria-labelledby="by-tool-title" class="card">
<h2 id="by-tool-title">Usage by tool</h2>
<div id="by-tool-chart" class="chart"></div>
<div id="by-tool-table"></div>
</section>
<section aria-labelledby="recent-title" class="card">
<h2 id="recent-title" tabindex="-1">Recent calls</h2>
<div id="recent-table"></div>
<button type="button" id="recent-more" class="secondary" hidden>Show older calls</button>
</section>
</div>`;
  return layout(ctx, "account", "Account", main);
}

function costLine(costs: PlanCosts): Markup {
  if (costs.length === 0 || costs.every((c) => c.credits === 0)) return html`Not metered`;
  return html`Credits per run: ${costs.map((c, i) => html`${i > 0 ? ", " : ""}${c.plan} ${c.credits}`)}`;
}

export function planCosts(
  tool: RegisteredTool,
  plans: Readonly<Record<string, Plan>>,
  cost: (weight: number, plan: Plan) => number,
): PlanCosts {
  return Object.entries(plans).map(([plan, settings]) => ({ plan, credits: cost(tool.weight, settings) }));
}
