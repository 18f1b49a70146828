/**
 * The Retaining Wall Pressure Calculator as a tool definition: metadata, schemas, examples, and a
 * `run` that applies the documented defaults (the pipeline does not) before the pure compute.
 */
import type { ToolDefinition } from "../tool.ts";
import { computeWallPressure } from "./compute.ts";
import { formatOutput } from "./format.ts";
import { inputSchema, outputSchema, type RetainingWallInput, type RetainingWallOutput } from "./schema.ts";

export const retainingWallPressureCalculator: ToolDefinition<RetainingWallInput, RetainingWallOutput> = {
  slug: "retaining-wall-pressure-calculator",
  name: "Retaining Wall Pressure Calculator",
  description:
    "Rankine lateral earth pressure on the vertical back of a retaining wall with a cohesionless backfill: " +
    "the active (Ka), at-rest (K0, Jaky) or passive (Kp) coefficient, the pressure at the base, the total " +
    "thrust per unit length of wall with its horizontal and vertical components, the height at which it " +
    "acts and the overturning moment about the base. Takes an optional backfill slope and uniform " +
    "surcharge, in metric (m, kN/m³, kPa) or imperial (ft, pcf, psf) units, and returns a readable table, " +
    "the unrounded figures and the pressure diagram.",
  keywords: [
    "rankine",
    "earth pressure",
    "lateral earth pressure",
    "retaining wall",
    "geotechnical",
    "thrust",
    "overturning",
    "overturning moment",
    "active",
    "passive",
    "at-rest",
    "at rest",
    "coefficient",
    "ka",
    "kp",
    "k0",
    "jaky",
    "surcharge",
    "backfill",
    "sloping backfill",
    "soil",
    "friction angle",
  ],
  version: "1.0.0",
  defaults: { weight: 1, maxBodyBytes: 16384 },
  inputSchema,
  outputSchema,
  examples: [
    {
      title: "Metric, level backfill, active, 10 kPa surcharge",
      input: {
        units: "metric",
        state: "active",
        height: 5,
        unitWeight: 18,
        frictionAngle: 30,
        surcharge: 10,
      },
    },
    {
      title: "Imperial, backfill sloping at 15°, active",
      input: {
        units: "imperial",
        state: "active",
        height: 20,
        unitWeight: 120,
        frictionAngle: 34,
        backfillSlope: 15,
      },
    },
    {
      title: "Metric, level ground, passive resistance in front of a footing",
      input: { units: "metric", state: "passive", height: 1.5, unitWeight: 19, frictionAngle: 35 },
    },
    {
      title: "Imperial basement wall at rest, 250 psf surcharge",
      input: {
        units: "imperial",
        state: "atrest",
        height: 12,
        unitWeight: 110,
        frictionAngle: 32,
        surcharge: 250,
      },
    },
  ],
  run(input) {
    const state = input.state ?? "active";
    const units = input.units ?? "metric";
    const figures = computeWallPressure({
      state,
      height: input.height,
      unitWeight: input.unitWeight,
      frictionAngle: input.frictionAngle,
      backfillSlope: input.backfillSlope ?? 0,
      surcharge: input.surcharge ?? 0,
    });
    return formatOutput(figures, state, units);
  },
};
