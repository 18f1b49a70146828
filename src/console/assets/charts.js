// @ts-check
/**
 * Two small SVG charts drawn by hand (no chart library: each is a few shapes, and a library would
 * outweigh the whole console): the calculator's pressure diagram and the account's usage by tool.
 */
import { s } from "./dom.js";

/** @param {number} value */
function short(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/**
 * The earth pressure on the wall: depth grows downward from the top of the wall, pressure grows
 * to the right of it.
 * @param {readonly { depth: number, pressure: number }[]} points
 * @param {string} depthUnit
 * @param {string} pressureUnit
 */
export function pressureDiagram(points, depthUnit, pressureUnit) {
  const width = 360;
  const height = 280;
  const left = 70;
  const right = 40;
  const top = 54;
  const bottom = 16;
  const maxDepth = Math.max(...points.map((p) => p.depth)) || 1;
  const maxPressure = Math.max(...points.map((p) => p.pressure)) || 1;
  const x = (/** @type {number} */ pressure) => left + (pressure / maxPressure) * (width - left - right);
  const y = (/** @type {number} */ depth) => top + (depth / maxDepth) * (height - top - bottom);
  const first = points[0];
  const last = points[points.length - 1];
  const description =
    first && last
      ? `Pressure ${short(first.pressure)} ${pressureUnit} at depth ${short(first.depth)} ${depthUnit}, rising to ${short(last.pressure)} ${pressureUnit} at depth ${short(last.depth)} ${depthUnit}.`
      : "";
  const outline = [
    `${left},${y(0)}`,
    ...points.map((p) => `${x(p.pressure)},${y(p.depth)}`),
    `${left},${y(maxDepth)}`,
  ].join(" ");
  const pressureTicks = [0, maxPressure / 2, maxPressure];

  return s(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": `Pressure diagram. ${description}`,
      class: "diagram",
    },
    s("title", {}, `Pressure diagram. ${description}`),
    s("text", { x: left, y: 14, class: "axis-title" }, `Pressure (${pressureUnit}) →`),
    ...pressureTicks.flatMap((p) => [
      s("line", { x1: x(p), x2: x(p), y1: top - 6, y2: height - bottom, class: "grid" }),
      s("text", { x: x(p), y: top - 12, "text-anchor": "middle", class: "tick" }, short(p)),
    ]),
    s("polygon", { points: outline, class: "pressure-area" }),
    ...points.flatMap((p) => [
      s("line", { x1: left - 5, x2: left, y1: y(p.depth), y2: y(p.depth), class: "axis" }),
      s("text", { x: left - 8, y: y(p.depth) + 4, "text-anchor": "end", class: "tick" }, short(p.depth)),
      s("circle", { cx: x(p.pressure), cy: y(p.depth), r: 3, class: "point" }),
    ]),
    s("line", { x1: left, x2: left, y1: top - 6, y2: height - bottom, class: "wall" }),
    s(
      "text",
      {
        x: 14,
        y: top + (height - top - bottom) / 2,
        transform: `rotate(-90 14 ${top + (height - top - bottom) / 2})`,
        "text-anchor": "middle",
        class: "axis-title",
      },
      `Depth (${depthUnit}) ↓`,
    ),
  );
}

/**
 * Horizontal bars, one per row, the label above its bar so long tool names fit a phone screen.
 * @param {readonly { label: string, value: number }[]} rows
 * @param {string} unit
 */
export function barChart(rows, unit) {
  const width = 360;
  const rowHeight = 44;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const barMax = width - 70;
  const summary = rows.map((r) => `${r.label}: ${r.value} ${unit}`).join("; ");
  return s(
    "svg",
    {
      viewBox: `0 0 ${width} ${Math.max(rowHeight, rows.length * rowHeight)}`,
      role: "img",
      "aria-label": summary,
      class: "bars",
    },
    s("title", {}, summary),
    ...rows.flatMap((row, i) => {
      const length = Math.max(2, (row.value / max) * barMax);
      return [
        s("text", { x: 0, y: i * rowHeight + 14, class: "tick" }, row.label),
        s("rect", { x: 0, y: i * rowHeight + 20, width: length, height: 16, rx: 2, class: "bar" }),
        s("text", { x: length + 6, y: i * rowHeight + 33, class: "tick" }, `${row.value} ${unit}`),
      ];
    }),
  );
}
