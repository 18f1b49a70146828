// @ts-check
/**
 * A tool's `outputs`, rendered by shape so a new tool needs no console code: a short string is the
 * summary, an object with `status` and `reason` is a verdict, every array of rows is a table with
 * its column names, rows of `depth` and `pressure` are also drawn as a pressure diagram, a long
 * string is preformatted text, numbers and booleans make a table of figures, and any other object
 * is shown as JSON for programs.
 */
import { pressureDiagram } from "./charts.js";
import { h, humanize, table } from "./dom.js";

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** @param {unknown} value @returns {string} */
function cellText(value) {
  if (value === null || value === undefined) return "—";
  // Unrounded figures are for programs (they stay in the JSON); a person reads two decimals.
  if (typeof value === "number" && !Number.isInteger(value)) return String(Math.round(value * 100) / 100);
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** A cell; numbers keep to one line. @param {unknown} value */
function cell(value) {
  return typeof value === "number" ? h("span", { class: "num" }, cellText(value)) : cellText(value);
}

/** @param {readonly Record<string, unknown>[]} rows */
function columnsOf(rows) {
  /** @type {string[]} */
  const columns = [];
  for (const row of rows)
    for (const name of Object.keys(row)) if (!columns.includes(name)) columns.push(name);
  return columns;
}

/**
 * @param {string} name
 * @param {readonly Record<string, unknown>[]} rows
 * @param {Record<string, unknown>} units the unit of a column, where the outputs name one
 */
function rowsTable(name, rows, units) {
  const columns = columnsOf(rows);
  return table(
    humanize(name),
    columns.map((column) => (typeof units[column] === "string" ? `${column} (${units[column]})` : column)),
    rows.map((row) => columns.map((column) => cell(row[column]))),
    name,
  );
}

/** @param {string} name @param {Record<string, unknown>} verdict */
function verdictBox(name, verdict) {
  const status = String(verdict.status);
  const details = Object.entries(verdict).filter(([key]) => key !== "status" && key !== "reason");
  return h(
    "section",
    { class: `verdict verdict-${status}`, "data-output": name, "aria-label": humanize(name) },
    h("h3", {}, `${humanize(name)}: `, h("span", { class: "verdict-status" }, status.replaceAll("_", " "))),
    h("p", { class: "verdict-reason" }, String(verdict.reason)),
    details.length > 0
      ? h(
          "dl",
          { class: "inline-figures" },
          ...details.flatMap(([key, value]) => [h("dt", {}, humanize(key)), h("dd", {}, cellText(value))]),
        )
      : null,
  );
}

/** @param {unknown} value @returns {value is { depth: number, pressure: number }[]} */
function isPressureDiagram(value) {
  return (
    Array.isArray(value) &&
    value.length > 1 &&
    value.every((p) => isRecord(p) && typeof p.depth === "number" && typeof p.pressure === "number")
  );
}

/**
 * @param {HTMLElement} container
 * @param {Record<string, unknown>} outputs
 */
export function renderOutputs(container, outputs) {
  /** @type {Node[]} */
  const summary = [];
  /** @type {Node[]} */
  const tables = [];
  /** @type {Node[]} */
  const texts = [];
  /** @type {Node[]} */
  const rest = [];
  const units = isRecord(outputs.values) && isRecord(outputs.values.units) ? outputs.values.units : {};

  for (const [name, value] of Object.entries(outputs)) {
    if (typeof value === "string") {
      if (value.includes("\n") || value.length > 160) {
        texts.push(
          h(
            "section",
            { class: "text-output", "aria-label": humanize(name) },
            h("h3", {}, humanize(name)),
            h("pre", { tabindex: 0, "data-output": name }, value),
          ),
        );
      } else {
        summary.push(h("p", { class: "summary", "data-output": name }, value));
      }
    } else if (isRecord(value) && typeof value.status === "string" && typeof value.reason === "string") {
      summary.push(verdictBox(name, value));
    } else if (Array.isArray(value) && value.every(isRecord)) {
      if (isPressureDiagram(value)) {
        tables.push(
          h(
            "figure",
            { class: "chart", "data-output": `${name}-chart` },
            pressureDiagram(value, String(units.depth ?? ""), String(units.pressure ?? "")),
            h("figcaption", {}, "Earth pressure on the wall: depth down, pressure across."),
          ),
        );
      }
      tables.push(
        value.length > 0
          ? rowsTable(name, value, units)
          : h("p", { class: "empty", "data-output": name }, `${humanize(name)}: none.`),
      );
    } else if (Array.isArray(value)) {
      rest.push(
        h("h3", {}, humanize(name)),
        value.length > 0
          ? h("ul", { "data-output": name }, ...value.map((item) => h("li", {}, cellText(item))))
          : h("p", { class: "empty" }, "None."),
      );
    } else if (isRecord(value)) {
      rest.push(
        h(
          "details",
          { class: "json-output" },
          h("summary", {}, `${humanize(name)} (JSON, for programs)`),
          h("pre", { tabindex: 0, "data-output": name }, JSON.stringify(value, null, 2)),
        ),
      );
    }
  }
  const scalars = Object.entries(outputs).filter(
    ([, value]) => typeof value === "number" || typeof value === "boolean",
  );
  if (scalars.length > 0) {
    summary.push(
      table(
        "Figures",
        ["name", "value"],
        scalars.map(([name, value]) => [name, cell(value)]),
        "figures",
      ),
    );
  }
  container.replaceChildren(...summary, ...tables, ...texts, ...rest);
}
