// @ts-check
/**
 * The account page: the key's account (its id, name and plan) beside the key in use, the account's
 * credits this period (`GET /v1/me/credits`), what they went on by tool and the recent calls with
 * the key that made each (`GET /v1/me/usage`), exactly as the API reports them; where credits are
 * sold, a Buy button per pack (`POST /v1/billing/checkout`, then on to the checkout's page).
 */
import { callApi, hideProblem, showProblem } from "./api.js";
import { barChart } from "./charts.js";
import { byId, h, table, tableRows } from "./dom.js";
import { currentKey } from "./key.js";

/** @param {unknown} value */
function amount(value) {
  return value === null ? "Unlimited" : String(value);
}

/** @param {unknown} iso */
function moment(iso) {
  return typeof iso === "string" ? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC") : "—";
}

/** @param {[string, string, string][]} figures */
function figureList(figures) {
  return figures.map(([name, label, value]) =>
    h("div", { class: "figure" }, h("dt", {}, label), h("dd", { "data-field": name }, value)),
  );
}

/**
 * The account and the key in use: the key shown by its non-secret beginning (as the admin lists
 * show it), never whole.
 * @param {Record<string, unknown>} credits
 * @param {string} key
 */
function accountFigures(credits, key) {
  return figureList([
    ["account_name", "Account", String(credits.account_name)],
    ["account_id", "Account id", String(credits.account_id)],
    ["plan", "Plan", String(credits.plan)],
    ["key", "Key in use", `${key.slice(0, key.lastIndexOf("_") + 5)}…`],
  ]);
}

/** @param {Record<string, unknown>} credits */
function creditFigures(credits) {
  /** @type {[string, string, string][]} */
  const figures = [
    ["credits_used", "Credits used", amount(credits.credits_used)],
    ["credits_remaining", "Credits remaining", amount(credits.credits_remaining)],
    ["monthly_allowance", "Monthly allowance", amount(credits.monthly_allowance)],
  ];
  return figureList(figures);
}

/** @typedef {{ tool: string, calls: number, credits: number }} ToolUsage */
/** @typedef {{ request_id: string, key_id: string, tool: string, status: string, credits: number, at: string }} Call */

const PAGE = 20;

/** @param {readonly Call[]} calls */
function callRows(calls) {
  return calls.map((c) => [
    moment(c.at),
    c.tool,
    c.status,
    c.credits,
    h("code", {}, c.request_id),
    h("code", {}, c.key_id),
  ]);
}

export function setupAccountPage() {
  const needsKey = byId("account-needs-key", HTMLElement);
  const account = byId("account", HTMLElement);
  const problemBox = byId("problem", HTMLElement);
  const more = byId("recent-more", HTMLButtonElement);
  /** @type {string | null} */
  let cursor = null;

  /** @param {unknown} next */
  function setCursor(next) {
    cursor = typeof next === "string" ? next : null;
    more.hidden = cursor === null;
  }

  more.addEventListener("click", async () => {
    const key = currentKey();
    if (key === null || cursor === null) return;
    const page = await callApi("GET", `/v1/me/usage?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`, key);
    if (!page.ok) return showProblem(problemBox, page.problem);
    const calls = /** @type {Call[]} */ (page.data.recent ?? []);
    document.querySelector('table[data-output="recent"] tbody')?.append(...tableRows(callRows(calls)));
    setCursor(page.data.next_cursor);
    if (more.hidden) byId("recent-title", HTMLElement).focus();
  });

  // Buy: the checkout is created for the key's account, then the browser goes on to Stripe's page.
  for (const button of document.querySelectorAll("button[data-pack]")) {
    if (!(button instanceof HTMLButtonElement)) continue;
    button.addEventListener("click", async () => {
      const key = currentKey();
      if (key === null) return;
      hideProblem(problemBox);
      button.disabled = true;
      const started = await callApi(
        "POST",
        "/v1/billing/checkout",
        key,
        JSON.stringify({ pack: button.dataset.pack }),
      );
      if (!started.ok) {
        button.disabled = false;
        return showProblem(problemBox, started.problem);
      }
      location.assign(String(started.data.url));
    });
  }

  async function load() {
    hideProblem(problemBox);
    const key = currentKey();
    needsKey.hidden = key !== null;
    account.hidden = true;
    if (key === null) return;
    const [credits, usage] = await Promise.all([
      callApi("GET", "/v1/me/credits", key),
      callApi("GET", `/v1/me/usage?limit=${PAGE}`, key),
    ]);
    if (!credits.ok) return showProblem(problemBox, credits.problem);
    if (!usage.ok) return showProblem(problemBox, usage.problem);

    byId("account-figures", HTMLElement).replaceChildren(...accountFigures(credits.data, key));
    byId("credits", HTMLElement).replaceChildren(...creditFigures(credits.data));
    byId("period", HTMLElement).textContent =
      `This period runs from ${moment(credits.data.period_start)} to ${moment(credits.data.period_end)}, when the allowance renews.` +
      (credits.data.metering ? "" : " Metering is off on this service: calls cost nothing.");
    const byTool = /** @type {ToolUsage[]} */ (usage.data.by_tool ?? []);
    byId("by-tool-chart", HTMLElement).replaceChildren(
      byTool.length > 0
        ? barChart(
            byTool.map((t) => ({ label: t.tool, value: t.credits })),
            "credits",
          )
        : h("p", { class: "empty" }, "No calls this period yet."),
    );
    byId("by-tool-table", HTMLElement).replaceChildren(
      byTool.length > 0
        ? table(
            "Usage by tool this period",
            ["Tool", "Calls", "Credits"],
            byTool.map((t) => [t.tool, t.calls, t.credits]),
            "by_tool",
          )
        : "",
    );
    const recent = /** @type {Call[]} */ (usage.data.recent ?? []);
    byId("recent-table", HTMLElement).replaceChildren(
      recent.length > 0
        ? table(
            "Recent calls, newest first",
            ["At", "Tool", "Status", "Credits", "Request id", "Key"],
            callRows(recent),
            "recent",
          )
        : h("p", { class: "empty" }, "No calls this period yet."),
    );
    setCursor(usage.data.next_cursor);
    account.hidden = false;
  }

  void load();
  return load;
}
