/**
 * The Retaining Wall Pressure Calculator as a tool definition: metadata, schemas, examples, the
 * check of which inputs combine, and a `run` that applies the documented defaults (the pipeline
 * does not) before the pure compute.
 */
import type { ToolDefinition } from "../tool.ts";
import { fieldsOutsideTheirCase, MisplacedFieldsError } from "./combinations.ts";
import { computeWallPressure, type WallParameters } from "./compute.ts";
import { formatOutput } from "./format.ts";
import {
  inputSchema,
  outputSchema,
  type RetainingWallInput,
  type RetainingWallOutput,
  type UnitSystem,
} from "./schema.ts";
import { calculationSheet } from "./sheet.ts";

/** γw in each unit system: 9.81 kN/m³, 62.4 pcf. */
const WATER_UNIT_WEIGHT: Readonly<Record<UnitSystem, number>> = { metric: 9.81, imperial: 62.4 };

/** The input with its documented defaults, as the compute takes it. */
function wallParameters(input: RetainingWallInput): WallParameters {
  const units = input.units ?? "metric";
  return {
    state: input.state ?? "active",
    method: input.method ?? "rankine",
    height: input.height,
    unitWeight: input.unitWeight,
    frictionAngle: input.frictionAngle,
    backfillSlope: input.backfillSlope ?? 0,
    surcharge: input.surcharge ?? 0,
    wallFriction: input.wallFriction ?? 0,
    wallInclination: input.wallInclination ?? 0,
    cohesion: input.cohesion ?? 0,
    water:
      input.waterDepth === undefined
        ? undefined
        : {
            depth: input.waterDepth,
            saturatedUnitWeight: input.saturatedUnitWeight ?? input.unitWeight,
            unitWeight: WATER_UNIT_WEIGHT[units],
          },
    seismic: { kh: input.seismicKh ?? 0, kv: input.seismicKv ?? 0 },
  };
}

export const retainingWallPressureCalculator = {
  slug: "retaining-wall-pressure-calculator",
  name: "Retaining Wall Pressure Calculator",
  description:
    "Lateral earth pressure on a retaining wall, Rankine or Coulomb: the active (Ka), at-rest (K0, Jaky) or " +
    "passive (Kp) coefficient, the pressure at the base, the total thrust per unit length of wall with its " +
    "horizontal and vertical components, the height at which it acts and the overturning moment about the " +
    "base. Takes an optional backfill slope and uniform surcharge; Coulomb's wall friction and inclined back; " +
    "soil cohesion with the tension crack; a water table; and a Mononobe-Okabe earthquake thrust. Metric " +
    "(m, kN/m³, kPa) or imperial (ft, pcf, psf) units; returns a readable table, the unrounded figures and " +
    "the pressure diagram.",
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
    "coulomb",
    "wall friction",
    "cohesion",
    "tension crack",
    "groundwater",
    "water table",
    "seismic",
    "earthquake",
    "mononobe-okabe",
    "kae",
  ],
  version: "1.2.0",
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
      title: "Metric, Coulomb, wall friction 2/3 of phi, backfill sloping at 10°, active",
      input: {
        method: "coulomb",
        height: 6,
        unitWeight: 18,
        frictionAngle: 33,
        wallFriction: 22,
        backfillSlope: 10,
      },
    },
    {
      title: "Metric, cohesive backfill with a water table 2 m down",
      input: {
        height: 6,
        unitWeight: 18,
        saturatedUnitWeight: 20,
        frictionAngle: 26,
        cohesion: 10,
        waterDepth: 2,
      },
    },
    {
      title: "Metric, Mononobe-Okabe earthquake thrust, kh 0.2",
      input: {
        method: "coulomb",
        height: 6,
        unitWeight: 18,
        frictionAngle: 35,
        wallFriction: 17.5,
        seismicKh: 0.2,
      },
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
  effects: "none",
  checkInput: fieldsOutsideTheirCase,
  run(input) {
    // The pipeline has checked already; a direct caller gets the same refusal, never a silent answer.
    const misplaced = fieldsOutsideTheirCase(input);
    if (Object.keys(misplaced).length > 0) throw new MisplacedFieldsError(misplaced);
    const parameters = wallParameters(input);
    const units = input.units ?? "metric";
    const figures = computeWallPressure(parameters);
    return { ...formatOutput(figures, parameters, units), ...calculationSheet(parameters, figures, units) };
  },
} satisfies ToolDefinition<RetainingWallInput, RetainingWallOutput>;
