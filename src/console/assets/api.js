// @ts-check
/**
 * Calls to the service's own API with the user's key, and how a problem document is shown.
 */
import { h } from "./dom.js";

/**
 * An RFC 9457 problem document as the service sends it.
 * @typedef {{ type?: string, title?: string, status?: number, detail?: string, code?: string,
 *   fields?: Record<string, string> | string, retry_after?: number, request_id?: string }} Problem
 */

/**
 * An answer: a success with its HTTP status and `Retry-After` in seconds (null without one), or a
 * problem.
 * @typedef {{ ok: true, status: number, data: Record<string, unknown>, retryAfter: number | null }
 *   | { ok: false, problem: Problem }} Outcome
 */

/**
 * @param {string} method
 * @param {string} path
 * @param {string | null} key
 * @param {string} [body] JSON text, sent as is
 * @param {Record<string, string>} [more] more request headers (`Prefer`)
 * @returns {Promise<Outcome>}
 */
export async function callApi(method, path, key, body, more = {}) {
  /** @type {Record<string, string>} */
  const headers = { ...more, accept: "application/json" };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body, cache: "no-store" });
  } catch (error) {
    return {
      ok: false,
      problem: { code: "network_error", title: "The service could not be reached", detail: String(error) },
    };
  }
  /** @type {unknown} */
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (data === null || typeof data !== "object") {
    return {
      ok: false,
      problem: {
        status: response.status,
        title: `Unexpected answer (HTTP ${response.status})`,
        code: "unexpected_response",
      },
    };
  }
  const record = /** @type {Record<string, unknown>} */ (data);
  if (!response.ok) return { ok: false, problem: /** @type {Problem} */ (record) };
  const retryAfter = Number.parseInt(response.headers.get("retry-after") ?? "", 10);
  return {
    ok: true,
    status: response.status,
    data: record,
    retryAfter: Number.isNaN(retryAfter) ? null : retryAfter,
  };
}

/** "14:03:27" in the user's time zone. @param {Date} at */
function clock(at) {
  return at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/**
 * Shows a problem in its summary box: the code (linked to its explanation), the detail, when to
 * retry a 429, and any field message that has no field on this page. Focus moves to it.
 * @param {HTMLElement} box
 * @param {Problem} problem
 * @param {Record<string, string>} [unplaced] field messages not shown beside a field
 * @param {readonly { name: string, label: string, message: string }[]} [placed] shown beside their field
 */
export function showProblem(box, problem, unplaced = {}, placed = []) {
  const code = problem.code ?? "error";
  const codeText = h("code", { class: "code" }, code);
  const headingId = "problem-title";
  const parts = [
    h(
      "h2",
      { id: headingId },
      "Error ",
      problem.type ? h("a", { href: problem.type }, codeText) : codeText,
      problem.status ? ` (HTTP ${problem.status})` : "",
    ),
    problem.title ? h("p", { class: "problem-title" }, problem.title) : null,
    problem.detail && problem.detail !== problem.title ? h("p", {}, problem.detail) : null,
    typeof problem.retry_after === "number"
      ? h(
          "p",
          { class: "retry", "data-retry-after": problem.retry_after },
          `Try again in ${problem.retry_after} s (at ${clock(new Date(Date.now() + problem.retry_after * 1000))}).`,
        )
      : null,
    placed.length > 0
      ? h(
          "ul",
          { class: "problem-fields" },
          ...placed.map((f) => h("li", {}, h("a", { href: `#field-${f.name}` }, f.label), `: ${f.message}`)),
        )
      : null,
    Object.keys(unplaced).length > 0
      ? h(
          "ul",
          { class: "problem-fields" },
          ...Object.entries(unplaced).map(([name, message]) =>
            h("li", {}, h("code", {}, name), `: ${message}`),
          ),
        )
      : null,
    typeof problem.fields === "string" ? h("p", {}, problem.fields) : null,
    problem.request_id ? h("p", { class: "meta" }, "Request id ", h("code", {}, problem.request_id)) : null,
  ];
  box.replaceChildren(...parts.filter((part) => part !== null));
  box.setAttribute("aria-labelledby", headingId);
  box.hidden = false;
  box.focus();
}

/** @param {HTMLElement} box */
export function hideProblem(box) {
  box.hidden = true;
  box.replaceChildren();
}
