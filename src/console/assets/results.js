// @ts-check
/**
 * A tool's `outputs`, rendered by shape so a new tool needs no console code: a sentence that is the
 * only scalar is the summary; every other string, number, boolean and null is a row of a labelled
 * property/value table; a nested object is a section under its label (a `units` member puts each
 * figure's unit beside its label instead); an object with `status` and `reason` is a verdict; every
 * array of rows is a table with its column names, rows of `depth` and `pressure` are also drawn as a
 * pressure diagram; a long string is preformatted text (highlighted when it is JSON). Labels are the
 * output schema's titles, else the names for people. Text in backticks is shown as code.
 */
import { pressureDiagram } from "./charts.js";
import { freshId, h, humanize, prose, table } from "./dom.js";
import { jsonNodes } from "./json-text.js";

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The output schema's titles, as the page carries them: a title, and the same for each property
 * and for the items of an array.
 * @typedef {{ title?: string, properties?: Record<string, Titles>, items?: Titles }} Titles
 */

/** @param {Titles | undefined} titles @param {string} name @returns {Titles | undefined} */
function titlesOf(titles, name) {
  return titles?.properties?.[name];
}

/** A name's label: its title in the output schema, else the name for people. @param {Titles | undefined} titles @param {string} name */
function labelOf(titles, name) {
  return titlesOf(titles, name)?.title ?? humanize(name);
}

/** Long or multi-line strings are text to read, not a value in a table. @param {string} value */
function isLongText(value) {
  return value.includes("\n") || value.length > 160;
}

/** @param {unknown} value @returns {value is string | number | boolean | null} */
function isScalar(value) {
  return (
    value === null ||
    typeof value === "number" ||
    typeof value === "boolean" ||
    (typeof value === "string" && !isLongText(value))
  );
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

/** A label with its unit, where there is one ("1" is a ratio's: none to show). @param {string} label @param {unknown} unit */
function withUnit(label, unit) {
  return typeof unit === "string" && unit !== "" && unit !== "1" ? `${label} (${unit})` : label;
}

/**
 * @param {string} name
 * @param {readonly Record<string, unknown>[]} rows
 * @param {Record<string, unknown>} units the unit of a column, where the outputs name one
 * @param {Titles | undefined} titles the array's titles in the output schema
 */
function rowsTable(name, rows, units, titles) {
  const columns = columnsOf(rows);
  return table(
    titles?.title ?? humanize(name),
    columns.map((key) => ({ key, label: withUnit(labelOf(titles?.items, key), units[key]) })),
    rows.map((row) => columns.map((column) => cell(row[column]))),
    name,
  );
}

/**
 * The scalars of an object as a property/value table, each label with its unit where the object's
 * `units` names one.
 * @param {string | { labelledBy: string }} caption
 * @param {readonly [string, unknown][]} entries
 * @param {Titles | undefined} titles
 * @param {Record<string, unknown>} units
 * @param {string} name
 */
function propertiesTable(caption, entries, titles, units, name) {
  return table(
    caption,
    ["Property", "Value"],
    entries.map(([key, value]) => [withUnit(labelOf(titles, key), units[key]), cell(value)]),
    name,
  );
}

/** An array of anything but rows: a list under its label. @param {string} name @param {string} label @param {readonly unknown[]} items */
function listOf(name, label, items) {
  return [
    h("h3", {}, label),
    items.length > 0
      ? h("ul", { "data-output": name }, ...items.map((item) => h("li", {}, ...prose(cellText(item)))))
      : h("p", { class: "empty" }, "None."),
  ];
}

/** A long string as preformatted text under its label, highlighted when it is JSON. @param {string} name @param {string} label @param {string} text */
function textSection(name, label, text) {
  return h(
    "section",
    { class: "text-output", "aria-label": label },
    h("h3", {}, label),
    h("pre", { tabindex: 0, "data-output": name }, ...jsonNodes(text)),
  );
}

/**
 * A nested object as a section under its label: its scalars in a table the label names, then its
 * own nested objects, rows and texts in the same way, one heading level down.
 * @param {string} name
 * @param {Record<string, unknown>} object
 * @param {Titles | undefined} titles the object's titles
 * @param {string} label
 * @param {number} level the heading level, 3 under the results' heading
 */
function objectSection(name, object, titles, label, level) {
  const headingId = freshId("section");
  const units = isRecord(object.units) ? object.units : {};
  // The units are read beside their figures, not as a section of their own.
  const entries = Object.entries(object).filter(
    ([key, value]) =>
      !(key === "units" && isRecord(value) && Object.values(value).every((u) => typeof u === "string")),
  );
  const scalars = entries.filter(([, value]) => isScalar(value));
  /** @type {Node[]} */
  const parts = [];
  if (scalars.length > 0)
    parts.push(propertiesTable({ labelledBy: headingId }, scalars, titles, units, name));
  for (const [key, value] of entries) {
    if (isScalar(value)) continue;
    const childLabel = labelOf(titles, key);
    if (typeof value === "string") parts.push(textSection(key, childLabel, value));
    else if (Array.isArray(value) && value.length > 0 && value.every(isRecord))
      parts.push(rowsTable(key, value, units, titlesOf(titles, key)));
    else if (Array.isArray(value)) parts.push(...listOf(key, childLabel, value));
    else if (isRecord(value))
      parts.push(objectSection(key, value, titlesOf(titles, key), childLabel, Math.min(level + 1, 6)));
  }
  return h(
    "section",
    { class: "object-output", "aria-labelledby": headingId, "data-output": `${name}-section` },
    h(level <= 3 ? "h3" : level === 4 ? "h4" : level === 5 ? "h5" : "h6", { id: headingId }, label),
    ...parts,
  );
}

/** @param {string} name @param {string} label @param {Record<string, unknown>} verdict */
function verdictBox(name, label, verdict) {
  const status = String(verdict.status);
  const details = Object.entries(verdict).filter(([key]) => key !== "status" && key !== "reason");
  return h(
    "section",
    { class: `verdict verdict-${status}`, "data-output": name, "aria-label": label },
    h("h3", {}, `${label}: `, h("span", { class: "verdict-status" }, status.replaceAll("_", " "))),
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
 * A sentence that is the only scalar of the outputs (the calculator's `status`) is their summary
 * line. Where there are more, or it is a value rather than a sentence (an id, an email), it is a
 * labelled row like the rest: a record never reads as a row of unlabelled banners.
 * @param {readonly [string, unknown][]} scalars
 */
function summaryOf(scalars) {
  const [only] = scalars;
  return scalars.length === 1 && only !== undefined && typeof only[1] === "string" && /\S\s+\S/.test(only[1])
    ? only
    : null;
}

/**
 * @param {HTMLElement} container its `data-output-titles` holds the output schema's titles (JSON)
 * @param {Record<string, unknown>} outputs
 * @param {Node[]} [lead] shown after the summary, before the tables (the inputs of the run)
 */
export function renderOutputs(container, outputs, lead = []) {
  /** @type {Titles | undefined} */
  const titles = container.dataset.outputTitles ? JSON.parse(container.dataset.outputTitles) : undefined;
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
  const scalars = Object.entries(outputs).filter(([, value]) => isScalar(value));
  const summaryLine = summaryOf(scalars);

  for (const [name, value] of Object.entries(outputs)) {
    const label = labelOf(titles, name);
    if (summaryLine !== null && name === summaryLine[0]) {
      summary.push(h("p", { class: "summary", "data-output": name }, ...prose(String(value))));
    } else if (isScalar(value)) {
      // In the properties table, below.
    } else if (typeof value === "string") {
      texts.push(textSection(name, label, value));
    } else if (isRecord(value) && typeof value.status === "string" && typeof value.reason === "string") {
      summary.push(verdictBox(name, label, value));
    } else if (Array.isArray(value) && value.every(isRecord)) {
      if (value.length === 0) {
        tables.push(h("p", { class: "empty", "data-output": name }, `${label}: none.`));
        continue;
      }
      const table = rowsTable(name, value, units, titlesOf(titles, name));
      if (isPressureDiagram(value)) {
        charts.push(diagramFigure(name, value, values));
        // The calculation sheet prints the chart, not the numbers it draws.
        table.classList.add("charted");
      }
      tables.push(table);
    } else if (Array.isArray(value)) {
      rest.push(...listOf(name, label, value));
    } else if (isRecord(value)) {
      rest.push(objectSection(name, value, titlesOf(titles, name), label, 3));
    }
  }
  const properties = scalars.filter(([name]) => name !== summaryLine?.[0]);
  if (properties.length > 0) {
    summary.push(propertiesTable("Properties", properties, titles, {}, "properties"));
  }
  // The charts first: the picture of the result, then its figures.
  container.replaceChildren(...summary, ...lead, ...charts, ...tables, ...texts, ...rest);
}
