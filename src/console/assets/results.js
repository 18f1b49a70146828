// @ts-check
/**
 * A tool's `outputs`, rendered by shape so a new tool needs no console code: a short string is the
 * summary, an object with `status` and `reason` is a verdict, every array of rows is a table with
 * its column names, rows of `depth` and `pressure` are also drawn as a pressure diagram, a long
 * string is preformatted text (highlighted when it is JSON), numbers and booleans make a table of
 * figures, and any other object is shown as JSON for programs. Text in backticks is shown as code.
 */
import { pressureDiagram } from "./charts.js";
import { h, humanize, prose, table } from "./dom.js";
import { jsonNodes } from "./json-text.js";

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

/** A cell; numbers keep to one line, text shows its code spans. @param {unknown} value */
function cell(value) {
  if (typeof value === "number") return h("span", { class: "num" }, cellText(value));
  return typeof value === "string" ? prose(value) : cellText(value);
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
    columns.map((key) => ({
      key,
      label: typeof units[key] === "string" ? `${humanize(key)} (${units[key]})` : humanize(key),
    })),
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
    h("p", { class: "verdict-reason" }, ...prose(String(verdict.reason))),
    details.length > 0
      ? h(
          "dl",
          { class: "inline-figures" },
          ...details.flatMap(([key, value]) => [h("dt", {}, humanize(key)), h("dd", {}, cellText(value))]),
        )
      : null,
  );
}

/**
 * @typedef {{ depth: number, pressure: number, waterPressure?: number }} DiagramPoint
 * @param {unknown} value @returns {value is DiagramPoint[]}
 */
function isPressureDiagram(value) {
  return (
    Array.isArray(value) &&
    value.length > 1 &&
    value.every(
      (p) =>
        isRecord(p) &&
        typeof p.depth === "number" &&
        typeof p.pressure === "number" &&
        (p.waterPressure === undefined || typeof p.waterPressure === "number"),
    )
  );
}

/** The thrust of `values`, where the outputs give one, to draw as an arrow. @param {Record<string, unknown>} values */
function resultantOf(values) {
  const units = isRecord(values.units) ? values.units : {};
  const { thrust, thrustHeight, horizontalThrust, verticalThrust } = values;
  if (typeof thrust !== "number" || typeof thrustHeight !== "number") return null;
  return {
    thrust,
    height: thrustHeight,
    // Pointing down on the wall when positive: the direction the components give, else horizontal.
    angle:
      typeof horizontalThrust === "number" && typeof verticalThrust === "number" && thrust > 0
        ? Math.atan2(verticalThrust, horizontalThrust)
        : 0,
    thrustUnit: String(units.thrust ?? ""),
    heightUnit: String(units.thrustHeight ?? units.depth ?? ""),
  };
}

/**
 * The figure of a pressure diagram, with a legend when it has a water part.
 * @param {string} name
 * @param {readonly DiagramPoint[]} points
 * @param {Record<string, unknown>} values
 */
function diagramFigure(name, points, values) {
  const units = isRecord(values.units) ? values.units : {};
  const withWater = points.some((p) => typeof p.waterPressure === "number");
  return h(
    "figure",
    { class: "chart", "data-output": `${name}-chart` },
    pressureDiagram(
      points,
      { depth: String(units.depth ?? ""), pressure: String(units.pressure ?? "") },
      resultantOf(values),
    ),
    h(
      "figcaption",
      {},
      withWater
        ? h(
            "ul",
            { class: "legend" },
            h(
              "li",
              {},
              h("span", { class: "swatch swatch-soil", "aria-hidden": "true" }),
              "Soil (effective)",
            ),
            h("li", {}, h("span", { class: "swatch swatch-water", "aria-hidden": "true" }), "Water"),
          )
        : null,
      "Pressure on the wall: depth down from its top, pressure across; the arrow is the resultant.",
    ),
  );
}

/**
 * @param {HTMLElement} container
 * @param {Record<string, unknown>} outputs
 * @param {Node[]} [lead] shown after the summary, before the tables (the inputs of the run)
 */
export function renderOutputs(container, outputs, lead = []) {
  /** @type {Node[]} */
  const summary = [];
  /** @type {Node[]} */
  const charts = [];
  /** @type {Node[]} */
  const tables = [];
  /** @type {Node[]} */
  const texts = [];
  /** @type {Node[]} */
  const rest = [];
  const values = isRecord(outputs.values) ? outputs.values : {};
  const units = isRecord(values.units) ? values.units : {};

  for (const [name, value] of Object.entries(outputs)) {
    if (typeof value === "string") {
      if (value.includes("\n") || value.length > 160) {
        texts.push(
          h(
            "section",
            { class: "text-output", "aria-label": humanize(name) },
            h("h3", {}, humanize(name)),
            h("pre", { tabindex: 0, "data-output": name }, ...jsonNodes(value)),
          ),
        );
      } else {
        summary.push(h("p", { class: "summary", "data-output": name }, ...prose(value)));
      }
    } else if (isRecord(value) && typeof value.status === "string" && typeof value.reason === "string") {
      summary.push(verdictBox(name, value));
    } else if (Array.isArray(value) && value.every(isRecord)) {
      if (value.length === 0) {
        tables.push(h("p", { class: "empty", "data-output": name }, `${humanize(name)}: none.`));
        continue;
      }
      const table = rowsTable(name, value, units);
      if (isPressureDiagram(value)) {
        charts.push(diagramFigure(name, value, values));
        // The calculation sheet prints the chart, not the numbers it draws.
        table.classList.add("charted");
      }
      tables.push(table);
    } else if (Array.isArray(value)) {
      rest.push(
        h("h3", {}, humanize(name)),
        value.length > 0
          ? h("ul", { "data-output": name }, ...value.map((item) => h("li", {}, ...prose(cellText(item)))))
          : h("p", { class: "empty" }, "None."),
      );
    } else if (isRecord(value)) {
      rest.push(
        h(
          "details",
          { class: "json-output" },
          h("summary", {}, `${humanize(name)} (JSON, for programs)`),
          h("pre", { tabindex: 0, "data-output": name }, ...jsonNodes(JSON.stringify(value, null, 2))),
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
        ["Name", "Value"],
        scalars.map(([name, value]) => [humanize(name), cell(value)]),
        "figures",
      ),
    );
  }
  // The charts first: the picture of the result, then its figures.
  container.replaceChildren(...summary, ...lead, ...charts, ...tables, ...texts, ...rest);
}
