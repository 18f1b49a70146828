// @ts-check
/**
 * Two small SVG charts drawn by hand (no chart library: each is a few shapes, and a library would
 * outweigh the whole console): the calculator's pressure diagram and the account's usage by tool.
 * Inline SVG ids are the page's, so each chart names its own (freshId).
 */
import { freshId, s } from "./dom.js";

/** @param {number} value */
function short(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/**
 * @typedef {{ depth: number, pressure: number, waterPressure?: number }} DiagramPoint
 * @typedef {{ thrust: number, height: number, angle: number, thrustUnit: string, heightUnit: string }} Resultant
 *   `height` above the base; `angle` below the horizontal, in radians
 */

/**
 * The pressure on the wall: the wall drawn at the left with its footing, depth growing downward from
 * its top, pressure growing to the right into the backfill; where points carry a water part, the
 * soil part and the water part stacked; the resultant as an arrow at its height, with its value.
 * @param {readonly DiagramPoint[]} points
 * @param {{ depth: string, pressure: string }} units
 * @param {Resultant | null} resultant
 */
export function pressureDiagram(points, units, resultant) {
  const width = 600;
  const height = 440;
  const wallWidth = 26;
  const left = 112;
  const right = 40;
  const top = 58;
  const bottom = 34;
  const maxDepth = Math.max(...points.map((p) => p.depth)) || 1;
  // Pressures below zero (an earthquake's increment near the top can be) lie on the wall's side.
  const low = Math.min(0, ...points.map((p) => p.pressure));
  const high = Math.max(0, ...points.map((p) => p.pressure));
  const span = high - low || 1;
  const x = (/** @type {number} */ pressure) => left + ((pressure - low) / span) * (width - left - right);
  const back = x(0);
  const y = (/** @type {number} */ depth) => top + (depth / maxDepth) * (height - top - bottom);
  const water = points.some((p) => typeof p.waterPressure === "number");
  const soil = (/** @type {DiagramPoint} */ p) => p.pressure - (p.waterPressure ?? 0);
  const area = (/** @type {string[]} */ edge, /** @type {string[]} */ back) => [...edge, ...back].join(" ");
  const at = (/** @type {number} */ pressure, /** @type {number} */ depth) => `${x(pressure)},${y(depth)}`;
  const edgeOf = (/** @type {(p: DiagramPoint) => number} */ f, from = points) =>
    from.map((p) => at(f(p), p.depth));
  // The water part, from the water table (its last point without water) down.
  const wet = points.slice(Math.max(0, points.findIndex((p) => (p.waterPressure ?? 0) > 0) - 1));
  const onWall = [at(0, maxDepth), at(0, 0)];

  const first = points[0];
  const last = points[points.length - 1];
  const crack = crackDepth(points, soil);
  const ordinates = keyOrdinates(points, crack, wet[0] && water ? wet[0].depth : null);
  const sentences = [
    first && last
      ? `Pressure ${short(first.pressure)} ${units.pressure} at depth ${short(first.depth)} ${units.depth}, to ${short(last.pressure)} ${units.pressure} at depth ${short(last.depth)} ${units.depth}.`
      : "",
    water && last ? `Of that, water ${short(last.waterPressure ?? 0)} ${units.pressure} at the base.` : "",
    resultant
      ? `Resultant ${short(resultant.thrust)} ${resultant.thrustUnit} at ${short(resultant.height)} ${resultant.heightUnit} above the base.`
      : "",
    `Ordinates: ${ordinates.map((o) => `${ordinateText(o.point)} ${units.pressure} ${o.where} (${short(o.point.depth)} ${units.depth})`).join(", ")}.`,
  ];
  const description = `Pressure diagram. ${sentences.filter(Boolean).join(" ")}`;
  const hatchId = freshId("water-hatch");
  const arrowId = freshId("arrow-head");
  const pressureTicks = low < 0 ? [low, 0, high] : [0, high / 2, high];
  const depthTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * maxDepth);

  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": description, class: "diagram" },
    s("title", {}, description),
    s(
      "defs",
      {},
      s(
        "pattern",
        { id: hatchId, patternUnits: "userSpaceOnUse", width: 8, height: 8 },
        s("path", { d: "M0,8 L8,0 M-2,2 L2,-2 M6,10 L10,6", class: "hatch" }),
      ),
      s(
        "marker",
        {
          id: arrowId,
          viewBox: "0 0 10 10",
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: "auto",
        },
        s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }),
      ),
    ),
    s("text", { x: left, y: 16, class: "axis-title" }, `Pressure (${units.pressure}) →`),
    ...pressureTicks.flatMap((p) => [
      s("line", { x1: x(p), x2: x(p), y1: top - 8, y2: y(maxDepth), class: "grid" }),
      s("text", { x: x(p), y: top - 14, "text-anchor": "middle", class: "tick" }, short(p)),
    ]),
    // The backfill's surface at the top of the wall, and the wall with its footing.
    s("line", { x1: back, x2: width - right, y1: y(0), y2: y(0), class: "ground" }),
    s("rect", { x: back - wallWidth, y: y(0), width: wallWidth, height: y(maxDepth) - y(0), class: "wall" }),
    s("rect", { x: back - wallWidth - 8, y: y(maxDepth), width: wallWidth + 48, height: 12, class: "wall" }),
    s("polygon", { points: area(edgeOf(water ? soil : (p) => p.pressure), onWall), class: "pressure-area" }),
    ...(water
      ? [
          s("polygon", {
            points: area(
              edgeOf((p) => p.pressure, wet),
              edgeOf(soil, wet).reverse(),
            ),
            class: "water-area",
          }),
          s("polygon", {
            points: area(
              edgeOf((p) => p.pressure, wet),
              edgeOf(soil, wet).reverse(),
            ),
            fill: `url(#${hatchId})`,
            class: "water-hatch",
          }),
        ]
      : []),
    ...(water && wet[0]
      ? [
          s("line", {
            x1: back,
            x2: width - right,
            y1: y(wet[0].depth),
            y2: y(wet[0].depth),
            class: "water-table",
          }),
          s(
            "text",
            { x: back + 6, y: y(wet[0].depth) - 5, class: "tick haloed" },
            `▽ water table, ${short(wet[0].depth)} ${units.depth}`,
          ),
        ]
      : []),
    ...(crack === null
      ? []
      : [
          s("line", { x1: back, x2: width - right, y1: y(crack), y2: y(crack), class: "crack-line" }),
          s(
            "text",
            { x: width - right, y: y(crack) - 5, "text-anchor": "end", class: "tick haloed" },
            `tension crack, ${short(crack)} ${units.depth}`,
          ),
        ]),
    s("polyline", { points: edgeOf((p) => p.pressure).join(" "), class: "pressure-edge" }),
    ...points.map((p) => s("circle", { cx: x(p.pressure), cy: y(p.depth), r: 3, class: "point" })),
    ...ordinates.map((o) => {
      // Beside its point, inside the frame: to the left of a point near the right edge.
      const px = x(o.point.pressure);
      const leftward = px > width - right - 90;
      return s(
        "text",
        {
          x: leftward ? px - 6 : px + 6,
          y: y(o.point.depth) + (o.point.depth === maxDepth ? -6 : 12),
          "text-anchor": leftward ? "end" : "start",
          class: "ordinate haloed",
          "data-ordinate": o.key,
        },
        ordinateText(o.point),
      );
    }),
    ...depthTicks.flatMap((d) => [
      s("line", { x1: left - wallWidth - 16, x2: left - wallWidth - 10, y1: y(d), y2: y(d), class: "axis" }),
      s("text", { x: left - wallWidth - 19, y: y(d) + 4, "text-anchor": "end", class: "tick" }, short(d)),
    ]),
    s(
      "text",
      {
        x: 14,
        y: top + (height - top - bottom) / 2,
        transform: `rotate(-90 14 ${top + (height - top - bottom) / 2})`,
        "text-anchor": "middle",
        class: "axis-title",
      },
      `Depth (${units.depth}) ↓`,
    ),
    ...(resultant && resultant.thrust > 0
      ? resultantArrow(resultant, back, y(maxDepth - resultant.height), width - right, top, arrowId)
      : []),
  );
}

/**
 * The depth of the tension crack: the deepest point of a zero soil pressure that starts at the top,
 * where a positive one follows. Null where there is none.
 * @param {readonly DiagramPoint[]} points
 * @param {(p: DiagramPoint) => number} soil
 */
function crackDepth(points, soil) {
  let depth = null;
  for (const p of points) {
    if (soil(p) > 0) break;
    depth = p.depth;
  }
  const below = points.find((p) => soil(p) > 0);
  return depth !== null && depth > 0 && below !== undefined ? depth : null;
}

/**
 * The points a checker reads the pressure at: the surface, the bottom of the tension crack, the
 * water table and the base.
 * @param {readonly DiagramPoint[]} points
 * @param {number | null} crack
 * @param {number | null} waterTable
 * @returns {{ key: string, where: string, point: DiagramPoint }[]}
 */
function keyOrdinates(points, crack, waterTable) {
  const first = points[0];
  const last = points[points.length - 1];
  const at = (/** @type {number | null} */ depth) => points.find((p) => p.depth === depth);
  /** @type {{ key: string, where: string, point: DiagramPoint | undefined }[]} */
  const wanted = [
    { key: "surface", where: "at the surface", point: first },
    { key: "crack", where: "at the tension crack", point: crack === null ? undefined : at(crack) },
    {
      key: "water-table",
      where: "at the water table",
      point: waterTable === null ? undefined : at(waterTable),
    },
    { key: "base", where: "at the base", point: last === first ? undefined : last },
  ];
  return wanted.flatMap((o) => (o.point === undefined ? [] : [{ ...o, point: o.point }]));
}

/** The pressure at a point, with its water part where it has one. @param {DiagramPoint} p */
function ordinateText(p) {
  return (p.waterPressure ?? 0) > 0
    ? `${short(p.pressure)} (water ${short(p.waterPressure ?? 0)})`
    : short(p.pressure);
}

/**
 * The resultant: an arrow ending on the back of the wall at its height, and its value beside it.
 * @param {Resultant} r
 * @param {number} wallX @param {number} atY @param {number} rightX @param {number} topY
 * @param {string} arrowId
 */
function resultantArrow(r, wallX, atY, rightX, topY, arrowId) {
  const length = (rightX - wallX) * 0.62;
  const tailX = wallX + length * Math.cos(r.angle);
  const tailY = atY - length * Math.sin(r.angle);
  // Two lines above the tail, or below it when the tail is close to the top (in em: the letters
  // are larger on a phone).
  const below = tailY - 50 < topY;
  const [first, second] = below ? ["1.5em", "2.8em"] : ["-1.9em", "-0.6em"];
  return [
    s("line", {
      x1: tailX,
      y1: tailY,
      x2: wallX + 3,
      y2: atY,
      class: "resultant",
      "marker-end": `url(#${arrowId})`,
    }),
    s(
      "text",
      { x: rightX, y: tailY, dy: first, "text-anchor": "end", class: "resultant-label haloed" },
      `P = ${short(r.thrust)} ${r.thrustUnit}`,
    ),
    s(
      "text",
      { x: rightX, y: tailY, dy: second, "text-anchor": "end", class: "tick haloed" },
      `${short(r.height)} ${r.heightUnit} above the base`,
    ),
  ];
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
