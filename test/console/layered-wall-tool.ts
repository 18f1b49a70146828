/**
 * A tool the console has no code for, shaped like the calculator with groundwater: its inputs carry
 * `x-group` and `x-unit`, its diagram a `waterPressure` part below the water table, its `values` a
 * thrust and its height. The console's grouped form, unit suffixes and stacked diagram are tested
 * with it, whatever the real calculator's schema says at the time.
 */
import { numberOrNumericString } from "../../src/tools/schema.ts";
import type { ToolDefinition } from "../../src/tools/tool.ts";

type Units = "metric" | "imperial";

interface LayeredWallInput {
  units?: Units;
  height: number;
  unitWeight: number;
  frictionAngle: number;
  surcharge?: number;
  waterDepth?: number;
}

interface Point {
  depth: number;
  pressure: number;
  waterPressure?: number;
}

const LENGTH = { units: { metric: "m", imperial: "ft" } };
const UNIT_WEIGHT = { units: { metric: "kN/m³", imperial: "pcf" } };
const PRESSURE = { units: { metric: "kPa", imperial: "psf" } };
const UNIT_NAMES = {
  metric: { length: "m", pressure: "kPa", force: "kN/m", water: 9.81 },
  imperial: { length: "ft", pressure: "psf", force: "lb/ft", water: 62.4 },
};

const grouped = (group: string, unit: unknown, schema: Record<string, unknown>) => ({
  ...schema,
  "x-group": group,
  "x-unit": unit,
});

export const layeredWallTool: ToolDefinition<
  LayeredWallInput,
  {
    status: string;
    values: Record<string, unknown>;
    diagram: Point[];
  }
> = {
  slug: "layered-wall",
  name: "Layered Wall",
  description:
    "Rankine active pressure with a water table. Made for the console's tests: `x-group` and `x-unit`.",
  keywords: ["test", "wall"],
  version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 1024 },
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    additionalProperties: false,
    required: ["height", "unitWeight", "frictionAngle"],
    properties: {
      units: { title: "Unit System", type: "string", enum: ["metric", "imperial"], default: "metric" },
      height: grouped("Wall", LENGTH, numberOrNumericString({ title: "Wall Height (H)", minimum: 0 })),
      unitWeight: grouped(
        "Soil",
        UNIT_WEIGHT,
        numberOrNumericString({ title: "Soil Unit Weight (gamma)", minimum: 0 }),
      ),
      frictionAngle: grouped(
        "Soil",
        "degrees",
        numberOrNumericString({ title: "Friction Angle (phi)", minimum: 1, maximum: 50 }),
      ),
      surcharge: grouped(
        "Backfill and loads",
        PRESSURE,
        numberOrNumericString({ title: "Uniform Surcharge (q)", minimum: 0, default: 0 }),
      ),
      waterDepth: grouped(
        "Water",
        LENGTH,
        numberOrNumericString({ title: "Water Table Depth (zw)", minimum: 0 }),
      ),
    },
  },
  outputSchema: { type: "object" },
  examples: [
    {
      title: "Metric, water table at 2 m",
      input: { height: 6, unitWeight: 18, frictionAngle: 30, waterDepth: 2 },
    },
  ],
  effects: "none",
  run(input) {
    const units = UNIT_NAMES[input.units ?? "metric"];
    const ka = Math.tan(Math.PI / 4 - (input.frictionAngle * Math.PI) / 360) ** 2;
    const q = input.surcharge ?? 0;
    const H = input.height;
    const zw = input.waterDepth !== undefined && input.waterDepth < H ? input.waterDepth : null;
    const buoyant = input.unitWeight - units.water;
    const at = (depth: number): Point => {
      if (zw === null || depth <= zw) return { depth, pressure: ka * (input.unitWeight * depth + q) };
      const water = units.water * (depth - zw);
      const soil = ka * (input.unitWeight * zw + q + buoyant * (depth - zw));
      return { depth, pressure: soil + water, waterPressure: water };
    };
    const depths = [...new Set([0, H / 4, H / 2, (3 * H) / 4, H, ...(zw === null ? [] : [zw])])].sort(
      (a, b) => a - b,
    );
    const diagram = depths
      .map(at)
      .map((p) =>
        zw === null ? p : { depth: p.depth, pressure: p.pressure, waterPressure: p.waterPressure ?? 0 },
      );
    // Piecewise linear: the thrust is the area, its height the centroid's height above the base.
    let thrust = 0;
    let moment = 0;
    for (let i = 1; i < diagram.length; i++) {
      const a = diagram[i - 1] as Point;
      const b = diagram[i] as Point;
      const h = b.depth - a.depth;
      const area = ((a.pressure + b.pressure) / 2) * h;
      const centroid =
        a.pressure + b.pressure === 0
          ? h / 2
          : (h * (a.pressure + 2 * b.pressure)) / (3 * (a.pressure + b.pressure));
      thrust += area;
      moment += area * (H - (a.depth + centroid));
    }
    const thrustHeight = thrust === 0 ? 0 : moment / thrust;
    return {
      status: `Active thrust ${thrust.toFixed(2)} ${units.force} acting ${thrustHeight.toFixed(2)} ${units.length} above the base`,
      values: {
        thrust,
        thrustHeight,
        horizontalThrust: thrust,
        verticalThrust: 0,
        units: {
          thrust: units.force,
          thrustHeight: units.length,
          horizontalThrust: units.force,
          verticalThrust: units.force,
          depth: units.length,
          pressure: units.pressure,
          waterPressure: units.pressure,
        },
      },
      diagram,
    };
  },
};
