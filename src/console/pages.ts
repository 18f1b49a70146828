/**
 * The console's pages, rendered on the server from the tool registry: browsing needs no key. The
 * script (assets/console.js) adds what needs the user's key: runs, results and the account.
 */

import type { Pack } from "../core/billing/packs.ts";
import type { Plan } from "../core/kernel/settings.ts";
import type { RegisteredTool } from "../core/tools/registry.ts";
import { catchDelivery } from "./captures.ts";
import { fieldsOf, renderFields } from "./form.ts";
import { html, type Markup, withCode } from "./html.ts";
import { outputTitles } from "./output-titles.ts";
import { rawRequestFieldOf, requestParts } from "./request-parts.ts";
import { titleBlockForm, titleBlockOf, titleBlockSheet } from "./title-block.ts";

export type PageName = "tools" | "tool" | "account" | "member" | "not-found" | "reference" | "errors";

export interface PageContext {
  /** Where the API reference lives (`/docs` of this service unless configured otherwise). */
  readonly docsUrl: string;
  /** The script modules under /console/, fetched at once instead of one import level at a time. */
  readonly modules: readonly string[];
  /** Members may sign in (TOOLRUN_SIGNIN_*): the navigation links their account page. */
  readonly members?: boolean;
  /** The packs of credits for sale (Stripe Checkout is set up); none: nothing is sold. */
  readonly packs?: readonly Pack[];
}

/** How a checkout came back to the account page (`?checkout=`), as the page words it. */
export function checkoutNotice(outcome: unknown): Markup | "" {
  if (outcome === "success")
    return html`<p class="notice" role="status" id="checkout-notice">Thank you: the payment went through. The credits are added as soon as Stripe confirms it to this service, usually within seconds; a payment by bank debit can take a few days.</p>`;
  if (outcome === "cancelled")
    return html`<p class="notice" role="status" id="checkout-notice">The checkout was cancelled: nothing was bought or charged.</p>`;
  return "";
}

/** One Buy button per pack; the page's script (or the member's form) starts its checkout. */
export function packList(packs: readonly Pack[], buy: (pack: Pack) => Markup): Markup {
  return html`<ul class="packs">${packs.map(
    (pack) =>
      html`<li class="pack"><span class="pack-name">${pack.name}</span> <span class="pack-credits">${pack.credits.toLocaleString("en")} credits</span> ${buy(pack)}</li>`,
  )}</ul>`;
}

/** Credits one run costs on each plan: max(weight, the plan's minimum), or nothing when unmetered. */
export type PlanCosts = readonly { readonly plan: string; readonly credits: number }[];

export interface PageOptions {
  readonly page: PageName;
  readonly title: string;
  readonly main: Markup;
  readonly docsUrl: string;
  /** Attributes of <body> (`data-*`) for the script. */
  readonly data?: Readonly<Record<string, string>>;
  /** The console's script and the key bar; pages without them (the reference) are read-only. */
  readonly modules?: readonly string[];
  /** Style sheets under this origin, in order (the site's own by default). */
  readonly styles?: readonly string[];
  /** Classic scripts under this origin, at the end of <body>. */
  readonly scripts?: readonly string[];
  readonly wide?: boolean;
  /** Link the signed-in member's account page (sign-in is on). */
  readonly members?: boolean;
}

/** The site's look (site.css) and the console's forms, tables and charts (console.css). */
export const SITE_STYLES = ["/console/site.css", "/console/console.css"];

/** Every page of the site, the console's and the reference's, in one frame: header, main, footer. */
export function sitePage(options: PageOptions): string {
  const { page, title, main, docsUrl, data = {}, modules, styles = SITE_STYLES, scripts = [] } = options;
  const attrs = Object.entries({ page, ...data }).map(([k, v]) => html` data-${k}="${v}"`);
  const link = (href: string, label: string, current: boolean) =>
    html`<li><a href="${href}"${current ? html` aria-current="page"` : ""}>${label}</a></li>`;
  const consoleScript = modules !== undefined;
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · toolrun</title>
<link rel="icon" href="/console/icon.svg" type="image/svg+xml">
${styles.map((href) => html`<link rel="stylesheet" href="${href}">\n`)}${
  consoleScript
    ? html`<script type="module" src="/console/console.js"></script>
${modules.map((name) => html`<link rel="modulepreload" href="/console/${name}">\n`)}`
    : ""
}</head>
<body${attrs}${options.wide ? html` class="wide"` : ""}>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<nav aria-label="Main">
<a class="brand" href="/">toolrun</a>
<ul>${link("/", "Tools", page === "tools" || page === "tool")}${link("/account", "Account", page === "account")}${options.members ? link("/member", "Your account", page === "member") : ""}${link(docsUrl, "API reference", page === "reference")}${link(`${docsUrl}/errors`, "Error codes", page === "errors")}</ul>
</nav>
${consoleScript ? keyBar() : ""}
</header>
<main id="main" tabindex="-1">
${main}
</main>
<footer class="site"><p>toolrun · <a href="${docsUrl}">API reference</a> · <a href="/openapi.json">OpenAPI document</a> · <a href="${docsUrl}/errors">Error codes</a></p></footer>
${scripts.map((src) => html`<script src="${src}"></script>\n`)}</body>
</html>`}\n`;
}

function keyBar(): Markup {
  return html`<section class="key-bar" aria-label="API key">
<form id="key-form" class="key-form">
<label for="api-key">API key</label>
<input id="api-key" name="key" type="password" autocomplete="off" spellcheck="false" aria-describedby="key-help">
<button type="submit">Use key</button>
<p id="key-help" class="help">Kept in this tab only (session storage) and sent as <code>Authorization: Bearer</code>.</p>
</form>
<p id="key-status" class="key-status" hidden>Using key <code id="key-prefix"></code> in this tab. <button type="button" id="key-forget">Forget key</button></p>
</section>`;
}

/** A console page: the site's frame with the key bar and the script. */
export function layout(
  ctx: PageContext,
  page: PageName,
  title: string,
  main: Markup,
  data: Readonly<Record<string, string>> = {},
): string {
  return sitePage({
    page,
    title,
    main,
    data,
    docsUrl: ctx.docsUrl,
    modules: ctx.modules,
    wide: page === "tool",
    ...(ctx.members && { members: true }),
  });
}

export function toolsPage(
  ctx: PageContext,
  tools: readonly RegisteredTool[],
  costs: (t: RegisteredTool) => PlanCosts,
): string {
  const main = html`<h1>Tools</h1>
<p>Each tool runs as a charged call with your API key, the same call a program makes to <code>POST /v1/tool/{slug}</code>.</p>
<p id="scope-note" class="meta" role="status" hidden></p>
<ul class="tool-list">${tools.map(
    (tool) => html`<li class="card" data-slug="${tool.slug}">
<h2><a href="/tools/${tool.slug}">${tool.definition.name}</a></h2>
<p>${withCode(tool.definition.description)}</p>
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
  const fields = fieldsOf(definition.inputSchema, tool.slug);
  // A form of short boxes sits beside its results on a wide screen; one with a large text box
  // (the inspector's raw request) needs the whole width, with the results below.
  const side = !fields.some((field) => field.kind === "multiline");
  const titleBlock = titleBlockOf(tool.slug);
  const rawRequestField = rawRequestFieldOf(tool.slug);
  const main = html`${titleBlock ? titleBlockSheet(titleBlock) : ""}<h1>${definition.name}</h1>
<p class="lead">${withCode(definition.description)}</p>
<p class="meta">Version ${definition.version} · ${costLine(costs)} · <a href="${ctx.docsUrl}">API reference</a></p>
<p id="scope-refusal" class="problem" role="alert" hidden>The API key in this tab may not use this tool: it is limited to other tools. <a href="/">See the tools it may use</a>.</p>
<div id="tool-layout" class="tool-layout ${side ? "side" : "stacked"}">
<div class="tool-inputs">
${rawRequestField ? catchDelivery() : ""}
${titleBlock ? titleBlockForm(titleBlock) : ""}
<form id="tool-form" class="tool-form" novalidate aria-label="${definition.name} input">
${
  examples.length > 0
    ? html`<div class="examples"><span id="examples-label">Fill with an example:</span> ${examples.map(
        (example) =>
          html`<button type="button" class="secondary example" aria-describedby="examples-label" data-example="${JSON.stringify(example.input)}">${example.title}</button> `,
      )}</div>`
    : ""
}
${rawRequestField ? requestParts(rawRequestField) : ""}
${renderFields(fields)}
${jobChoice(definition.jobs)}<div class="actions">
<button type="submit" id="run">Run</button>
<button type="button" id="copy-curl" class="secondary">Copy as curl</button>
</div>
</form>
</div>
<div class="tool-outputs">
<div id="run-status" class="run-status" role="status" aria-live="polite"></div>
<p id="results-placeholder" class="placeholder">The results appear here after <strong>Run</strong>.</p>
${definition.jobs === "no" ? "" : jobPanel()}<div id="problem" class="problem" tabindex="-1" hidden></div>
<section id="results" class="results" aria-labelledby="results-title" hidden>
<h2 id="results-title">Result</h2>
<p id="sheet-meta" class="sheet-meta print-only"></p>
<div id="results-body" class="results-body"${titlesAttribute(definition.outputSchema)}></div>
</section>
<section id="curl" class="curl" aria-labelledby="curl-title" hidden>
<h2 id="curl-title">The call as curl</h2>
<p id="curl-note" class="help" hidden></p>
<pre tabindex="0"><code id="curl-text"></code></pre>
</section>
</div>
</div>`;
  return layout(ctx, "tool", definition.name, main, {
    slug: tool.slug,
    version: definition.version,
    jobs: definition.jobs,
  });
}

/** How a run of a tool that may be a job is made: the box for `optional`, a note for `required`. */
function jobChoice(jobs: RegisteredTool["definition"]["jobs"]): Markup {
  if (jobs === "optional")
    return html`<div class="job-choice">
<input type="checkbox" id="run-as-job" aria-describedby="run-as-job-help">
<label for="run-as-job">Run as a job</label>
<p id="run-as-job-help" class="help">Answered at once; the page follows the job until it ends, and you may cancel it.</p>
</div>
`;
  if (jobs === "required")
    return html`<p id="job-note" class="help">This tool runs as a job: the page follows it until it ends, and you may cancel it.</p>
`;
  return html``;
}

/** The job a run started: its id, its status and its Cancel button (assets/jobs.js fills it). */
function jobPanel(): Markup {
  return html`<section id="job" class="job" aria-labelledby="job-title" hidden>
<h2 id="job-title">Job</h2>
<dl class="inline-figures">
<dt>Id</dt><dd><code id="job-id"></code></dd>
<dt>Status</dt><dd id="job-status"></dd>
</dl>
<button type="button" id="job-cancel" class="secondary" hidden>Cancel the job</button>
</section>
`;
}

/** The output schema's titles, for the script that labels the results. */
function titlesAttribute(schema: RegisteredTool["definition"]["outputSchema"]): Markup {
  const titles = outputTitles(schema);
  return titles === null ? html`` : html` data-output-titles="${JSON.stringify(titles)}"`;
}

export function accountPage(ctx: PageContext, checkout: unknown = null): string {
  const packs = ctx.packs ?? [];
  const main = html`<h1>Account</h1>
${checkoutNotice(checkout)}
<p id="account-needs-key">Paste your API key above to see its account, plan, credits and usage.</p>
<div id="problem" class="problem" tabindex="-1" hidden></div>
<div id="account" hidden>
<section aria-labelledby="account-title" class="card">
<h2 id="account-title">Account and key</h2>
<dl id="account-figures" class="figures"></dl>
<p class="meta">Every key of an account spends its one balance and shares its per-minute window.</p>
</section>
<section aria-labelledby="credits-title" class="card">
<h2 id="credits-title">Credits this period</h2>
<dl id="credits" class="figures"></dl>
<p id="period" class="meta"></p>
</section>
${
  packs.length > 0
    ? html`<section aria-labelledby="buy-title" class="card">
<h2 id="buy-title">Buy credits</h2>
${packList(packs, (pack) => html`<button type="button" data-pack="${pack.id}" aria-label="Buy ${pack.name}">Buy</button>`)}
<p class="meta">Paid through Stripe Checkout, for this key's account: every key of the account spends them.</p>
</section>`
    : ""
}
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

/**
 * Any address that leads nowhere, as a browser asked for it: a page, not a JSON problem. It names
 * no path: nothing the client sent comes back in an error.
 */
export function notFoundPage(ctx: PageContext): string {
  const main = html`<h1>Page not found</h1>
<p>There is no page at this address.</p>
<ul>
<li><a href="/">The tools</a>: what this service runs, each with its form</li>
<li><a href="${ctx.docsUrl}">The API reference</a></li>
</ul>`;
  return layout(ctx, "not-found", "Page not found", main);
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
