/**
 * The published contract of the calculator: the request body (spec §2.2) and `outputs`, both JSON
 * Schema 2020-12, plus the TypeScript shapes that mirror them. Data only, no behaviour.
 */
import { numberOrNumericString } from "../schema.ts";
import type { JsonSchema } from "../tool.ts";

export type UnitSystem = "metric" | "imperial";
export type PressureState = "active" | "atrest" | "passive";

/** What `run` receives: numbers already converted and in bounds; optional fields not defaulted. */
export type RetainingWallInput = {
  readonly units?: UnitSystem;
  readonly state?: PressureState;
  readonly height: number;
  readonly unitWeight: number;
  readonly frictionAngle: number;
  readonly backfillSlope?: number;
  readonly surcharge?: number;
};

export type ResultRow = { readonly property: string; readonly value: string };

export type ValueUnits = {
  readonly coefficient: "1";
  readonly surchargePressure: string;
  readonly basePressure: string;
  readonly thrust: string;
  readonly horizontalThrust: string;
  readonly verticalThrust: string;
  readonly thrustInclination: "deg";
  readonly thrustHeight: string;
  readonly overturningMoment: string;
  readonly depth: string;
  readonly pressure: string;
};

export type RetainingWallValues = {
  readonly coefficient: number;
  readonly surchargePressure: number;
  readonly basePressure: number;
  readonly thrust: number;
  readonly horizontalThrust: number;
  readonly verticalThrust: number;
  readonly thrustInclination: number;
  readonly thrustHeight: number;
  readonly overturningMoment: number;
  readonly units: ValueUnits;
};

export type RetainingWallOutput = {
  readonly status: string;
  readonly result: readonly ResultRow[];
  readonly values: RetainingWallValues;
  readonly diagram: readonly { readonly depth: number; readonly pressure: number }[];
};

const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

export const inputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  title: "Retaining Wall Pressure Calculator input",
  type: "object",
  additionalProperties: false,
  required: ["height", "unitWeight", "frictionAngle"],
  properties: {
    units: {
      title: "Unit System",
      description:
        "metric: m, kN/m³, kPa; imperial: ft, pcf (lb/ft³), psf (lb/ft²). Every length, unit weight and pressure is in this system; nothing is converted. Default metric.",
      type: "string",
      enum: ["metric", "imperial"],
      default: "metric",
    },
    state: {
      title: "Earth Pressure State",
      description:
        "active: the wall yields away from the soil (Ka); atrest: the wall does not move (K0, Jaky); passive: the wall is pushed into the soil (Kp). Default active.",
      type: "string",
      enum: ["active", "atrest", "passive"],
      default: "active",
    },
    height: numberOrNumericString({
      title: "Wall Height (H)",
      description:
        "Height of the vertical plane the soil presses on, from the backfill surface at the wall down to the base: m (metric) or ft (imperial).",
      minimum: 0,
    }),
    unitWeight: numberOrNumericString({
      title: "Soil Unit Weight (gamma)",
      description: "Unit weight of the backfill: kN/m³ (metric) or pcf, lb/ft³ (imperial).",
      minimum: 0,
    }),
    frictionAngle: numberOrNumericString({
      title: "Friction Angle (phi)",
      description: "Angle of internal friction of the cohesionless backfill, degrees (1 to 50).",
      minimum: 1,
      maximum: 50,
    }),
    backfillSlope: numberOrNumericString({
      title: "Backfill Slope (beta)",
      description:
        "Inclination of the backfill surface rising away from the wall, degrees (0 to 45). Must not exceed the friction angle (422 otherwise). Default 0.",
      minimum: 0,
      maximum: 45,
      default: 0,
    }),
    surcharge: numberOrNumericString({
      title: "Uniform Surcharge (q)",
      description:
        "Uniform vertical load on the backfill surface: kPa (metric) or psf, lb/ft² (imperial). Default 0.",
      minimum: 0,
      default: 0,
    }),
  },
};

/** Row names, in the order they appear. The coefficient row is named after the state. */
export const ROW_NAMES = {
  state: "Earth Pressure State",
  coefficient: {
    active: "Active Coefficient (Ka)",
    atrest: "At-Rest Coefficient (K0)",
    passive: "Passive Coefficient (Kp)",
  },
  surchargePressure: "Surcharge Pressure (Kq)",
  basePressure: "Pressure at Base",
  thrust: "Total Thrust (P)",
  direction: "Thrust Direction",
  horizontalThrust: "Horizontal Thrust (Ph)",
  verticalThrust: "Vertical Thrust (Pv)",
  thrustHeight: "Thrust Height Above Base",
  overturningMoment: "Overturning Moment About Base",
} as const;

const ALL_ROW_NAMES = [
  ROW_NAMES.state,
  ...Object.values(ROW_NAMES.coefficient),
  ROW_NAMES.surchargePressure,
  ROW_NAMES.basePressure,
  ROW_NAMES.thrust,
  ROW_NAMES.direction,
  ROW_NAMES.horizontalThrust,
  ROW_NAMES.verticalThrust,
  ROW_NAMES.thrustHeight,
  ROW_NAMES.overturningMoment,
];

const magnitude = (description: string): JsonSchema => ({ type: "number", minimum: 0, description });
const unitName = (names: readonly string[], description: string): JsonSchema => ({
  type: "string",
  enum: [...names],
  description,
});

/** The members of `outputs.values`, each also named in `values.units`. */
const VALUE_NAMES = [
  "coefficient",
  "surchargePressure",
  "basePressure",
  "thrust",
  "horizontalThrust",
  "verticalThrust",
  "thrustInclination",
  "thrustHeight",
  "overturningMoment",
] as const;

export const outputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  title: "Retaining Wall Pressure Calculator outputs",
  type: "object",
  additionalProperties: false,
  required: ["status", "result", "values", "diagram"],
  properties: {
    status: {
      type: "string",
      description:
        'One-line summary, e.g. "Active thrust 91.67 kN/m acting 1.82 m above the base"; an inclined thrust also names its angle.',
    },
    result: {
      type: "array",
      description:
        'Rows in this order: "Earth Pressure State"; the coefficient, named "Active Coefficient (Ka)", "At-Rest Coefficient (K0)" or "Passive Coefficient (Kp)" (4 decimals); "Surcharge Pressure (Kq)"; "Pressure at Base"; "Total Thrust (P)"; "Thrust Direction"; "Horizontal Thrust (Ph)" and "Vertical Thrust (Pv)" only when the thrust is inclined (active or passive with a sloping backfill); "Thrust Height Above Base"; "Overturning Moment About Base". Values carry their unit and 2 decimals.',
      minItems: 8,
      maxItems: 10,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["property", "value"],
        properties: {
          property: { type: "string", enum: ALL_ROW_NAMES },
          value: { type: "string" },
        },
      },
    },
    values: {
      type: "object",
      description: "The figures of `result` as unrounded numbers; `units` names the unit of each.",
      additionalProperties: false,
      required: [...VALUE_NAMES, "units"],
      properties: {
        coefficient: magnitude("Ka, K0 or Kp, the coefficient of the requested state."),
        surchargePressure: magnitude("K·q, the uniform part of the pressure (also the pressure at the top)."),
        basePressure: magnitude("K(γH + q), the pressure at the base."),
        thrust: magnitude("Total thrust per unit length of wall, ½KγH² + KqH."),
        horizontalThrust: magnitude("Horizontal component of the thrust, toward the wall."),
        verticalThrust: magnitude(
          "Vertical component of the thrust, downward; 0 when the thrust is horizontal.",
        ),
        thrustInclination: {
          type: "number",
          minimum: 0,
          maximum: 45,
          description:
            "Angle of the thrust to the horizontal (parallel to the backfill): β for active and passive, 0 at rest.",
        },
        thrustHeight: magnitude("Height of the line of action above the base, ȳ."),
        overturningMoment: magnitude("Horizontal thrust × ȳ, about the base, per unit length of wall."),
        units: {
          type: "object",
          description: "The unit of each member of `values`, and of `depth` and `pressure` in `diagram`.",
          additionalProperties: false,
          required: [...VALUE_NAMES, "depth", "pressure"],
          properties: {
            coefficient: { const: "1", description: "Dimensionless." },
            surchargePressure: unitName(["kPa", "psf"], "Pressure."),
            basePressure: unitName(["kPa", "psf"], "Pressure."),
            thrust: unitName(["kN/m", "lb/ft"], "Force per unit length of wall."),
            horizontalThrust: unitName(["kN/m", "lb/ft"], "Force per unit length of wall."),
            verticalThrust: unitName(["kN/m", "lb/ft"], "Force per unit length of wall."),
            thrustInclination: { const: "deg", description: "Degrees." },
            thrustHeight: unitName(["m", "ft"], "Length."),
            overturningMoment: unitName(["kN·m/m", "lb·ft/ft"], "Moment per unit length of wall."),
            depth: unitName(["m", "ft"], "Length."),
            pressure: unitName(["kPa", "psf"], "Pressure."),
          },
        },
      },
    },
    diagram: {
      type: "array",
      description:
        "The pressure diagram, linear, as 5 points from the top of the wall (depth 0) to the base (depth H), evenly spaced. `pressure` = K(γ·depth + q) acts in the thrust's direction, so its area is the total thrust.",
      minItems: 5,
      maxItems: 5,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["depth", "pressure"],
        properties: {
          depth: magnitude("Depth below the top of the wall."),
          pressure: magnitude("Earth pressure at that depth."),
        },
      },
    },
  },
};
