// @ts-check
/**
 * Building DOM nodes without innerHTML: every text goes in as a text node, so nothing a tool
 * returns (a webhook body, a header value) can become markup.
 */

export { humanize } from "./words.js";

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined>} Attrs */

/**
 * @param {Element} element
 * @param {Attrs} attrs
 * @param {Child[]} children
 */
function fill(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "number" ? String(child) : child);
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  fill(element, attrs, children);
  return element;
}

/**
 * An SVG element.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  fill(element, attrs, children);
  return element;
}

/**
 * The element with this id; the pages are rendered by the server, so a missing one is a bug.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`The page has no ${type.name} #${id}`);
  return element;
}

/**
 * Text that marks literal parts with backticks, as in Markdown (`sha256=`), as text and <code>
 * nodes: never parsed as HTML, so nothing in it can become markup.
 * @param {string} text
 * @returns {(string | HTMLElement)[]}
 */
export function prose(text) {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? h("code", {}, part) : part));
}

let idCounter = 0;
/** A fresh id for tying a caption or label to its element. @param {string} prefix */
export function freshId(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/** @typedef {string | { label: string, key: string }} Column a heading, or a heading and the name it is for */
/** @typedef {Child | readonly Child[]} Cell */

/**
 * A table with a caption and column headers, in a labelled region that scrolls sideways on its
 * own when it is wider than the screen (so the page itself never does). A table under a heading
 * that names it already is labelled by that heading instead of a caption repeating it.
 * @param {string | { labelledBy: string }} caption
 * @param {readonly Column[]} columns
 * @param {readonly (readonly Cell[])[]} rows
 * @param {string} [name] `data-output` name, for finding the table again
 */
export function table(caption, columns, rows, name) {
  const captionId = typeof caption === "string" ? freshId("caption") : caption.labelledBy;
  return h(
    "div",
    { class: "table-wrap", role: "region", tabindex: 0, "aria-labelledby": captionId },
    h(
      "table",
      { "data-output": name, "aria-labelledby": typeof caption === "string" ? null : captionId },
      typeof caption === "string" ? h("caption", { id: captionId }, caption) : null,
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...columns.map((column) =>
            typeof column === "string"
              ? h("th", { scope: "col" }, column)
              : h("th", { scope: "col", "data-column": column.key }, column.label),
          ),
        ),
      ),
      h("tbody", {}, ...tableRows(rows)),
    ),
  );
}

/** Table rows, one cell per value. @param {readonly (readonly Cell[])[]} rows */
export function tableRows(rows) {
  return rows.map((row) =>
    h(
      "tr",
      {},
      ...row.map((cell) =>
        Array.isArray(cell) ? h("td", {}, ...cell) : h("td", {}, /** @type {Child} */ (cell)),
      ),
    ),
  );
}
