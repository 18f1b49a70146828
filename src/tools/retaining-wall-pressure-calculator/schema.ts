/**
 * The published contract of the calculator: the request body (with the optional inputs of tool
 * version 1.1.0) and `outputs` (with the method, components and assumptions of 1.2.0), both JSON Schema 2020-12, plus the TypeScript shapes that mirror
 * them; docs/tools/retaining-wall-pressure-calculator.md describes them. Data only, no behaviour.
 */
import { CHOICES_KEYWORD, GROUP_KEYWORD, numberOrNumericString } from "../schema.ts";
import type { JsonSchema } from "../tool.ts";

export type UnitSystem = "metric" | "imperial";
export type PressureState = "active" | "atrest" | "passive";
export type Theory = "rankine" | "coulomb";

/** What `run` receives: numbers already converted and in bounds; optional fields not defaulted. */
export type RetainingWallInput = {
  readonly units?: UnitSystem;
  readonly state?: PressureState;
  readonly height: number;
  readonly unitWeight: number;
  readonly frictionAngle: number;
  readonly backfillSlope?: number;
  readonly surcharge?: number;
  readonly method?: Theory;
  readonly wallFriction?: number;
  readonly wallInclination?: number;
  readonly cohesion?: number;
  readonly waterDepth?: number;
  readonly saturatedUnitWeight?: number;
  readonly seismicKh?: number;
  readonly seismicKv?: number;
};

export type ResultRow = { readonly property: string; readonly value: string };

/** The members of `outputs.values` that are numbers, each also named in `values.units`. */
const NUMERIC_VALUE_NAMES = [
  "coefficient",
  "surchargePressure",
  "basePressure",
  "thrust",
  "horizontalThrust",
  "verticalThrust",
  "thrustInclination",
  "thrustHeight",
  "overturningMoment",
  "seismicCoefficient",
  "seismicInertiaAngle",
  "staticThrust",
  "dynamicIncrement",
  "waterThrust",
  "tensionCrackDepth",
  "wallFrictionAngle",
] as const;
type NumericValueName = (typeof NUMERIC_VALUE_NAMES)[number];

/** The columns of `diagram` and `components` that carry a unit, beside the numeric members of `values`. */
type ColumnName = "depth" | "pressure" | "waterPressure" | "leverArm" | "moment";

/** `values.units`: every numeric member, and the columns of `diagram` and `components`. */
export type ValueUnits = Readonly<Record<NumericValueName | ColumnName, string>>;

export type RetainingWallValues = Readonly<Record<NumericValueName, number>> & {
  readonly method: Theory;
  readonly units: ValueUnits;
};

export type DiagramPointOutput = {
  readonly depth: number;
  readonly pressure: number;
  readonly waterPressure?: number;
};

/** A step of the method: the formula, the values put in it, and what it gives (with its unit). */
export type MethodRow = {
  readonly quantity: string;
  readonly formula: string;
  readonly substitution: string;
  readonly result: string;
};

/** A part of the thrust with its lever arm and moment about the base; the last row is the total. */
export type ComponentRow = {
  readonly component: string;
  readonly formula: string;
  readonly thrust: number;
  readonly horizontalThrust?: number;
  readonly leverArm?: number;
  readonly moment: number;
};

export type RetainingWallOutput = {
  readonly status: string;
  readonly result: readonly ResultRow[];
  readonly values: RetainingWallValues;
  readonly diagram: readonly DiagramPointOutput[];
  readonly method: readonly MethodRow[];
  readonly components: readonly ComponentRow[];
  readonly assumptions: readonly string[];
};

const SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema";

/** The unit a form shows beside each numeric field, following the unit system where it depends on it. */
const LENGTH_FIELD = { units: { metric: "m", imperial: "ft" } };
const UNIT_WEIGHT_FIELD = { units: { metric: "kN/m³", imperial: "pcf" } };
const PRESSURE_FIELD = { units: { metric: "kPa", imperial: "psf" } };
const DEGREES_UNIT_FIELD = "°";

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
      [CHOICES_KEYWORD]: { metric: "Metric (m, kN/m³, kPa)", imperial: "Imperial (ft, pcf, psf)" },
    },
    state: {
      title: "Earth Pressure State",
      description:
        "active: the wall yields away from the soil (Ka); atrest: the wall does not move (K0, Jaky, whatever the theory); passive: the wall is pushed into the soil (Kp). Default active.",
      type: "string",
      enum: ["active", "atrest", "passive"],
      default: "active",
      [CHOICES_KEYWORD]: { active: "Active (Ka)", atrest: "At rest (K0)", passive: "Passive (Kp)" },
      [GROUP_KEYWORD]: "Wall",
    },
    method: {
      title: "Theory",
      description:
        "rankine: a vertical back and no wall friction (the thrust is parallel to the backfill); coulomb: Coulomb's wedge, with wall friction and an inclined back. The at-rest state uses K0 (Jaky) under either. Default rankine.",
      type: "string",
      enum: ["rankine", "coulomb"],
      default: "rankine",
      [CHOICES_KEYWORD]: { rankine: "Rankine", coulomb: "Coulomb" },
      [GROUP_KEYWORD]: "Wall",
    },
    height: numberOrNumericString({
      title: "Wall Height (H)",
      description:
        "Vertical height of the back the soil presses on, from the backfill surface at the wall down to the base: m (metric) or ft (imperial).",
      minimum: 0,
      group: "Wall",
      unit: LENGTH_FIELD,
    }),
    wallFriction: numberOrNumericString({
      title: "Wall Friction Angle (delta)",
      description:
        "Friction angle between the soil and the wall back, degrees, from 0 to the friction angle. Coulomb only, active or passive. Default 0.",
      minimum: 0,
      maximum: 50,
      default: 0,
      group: "Wall",
      unit: DEGREES_UNIT_FIELD,
    }),
    wallInclination: numberOrNumericString({
      title: "Wall Back Inclination (theta)",
      description:
        "Angle of the wall back from the vertical, degrees (−30 to 30): positive when the back leans away from the backfill so that the soil rests on it, negative when it overhangs the soil. Coulomb only, active or passive. Default 0.",
      minimum: -30,
      maximum: 30,
      default: 0,
      group: "Wall",
      unit: DEGREES_UNIT_FIELD,
    }),
    unitWeight: numberOrNumericString({
      title: "Soil Unit Weight (gamma)",
      description:
        "Unit weight of the backfill (above the water table): kN/m³ (metric) or pcf, lb/ft³ (imperial).",
      minimum: 0,
      group: "Soil",
      unit: UNIT_WEIGHT_FIELD,
    }),
    frictionAngle: numberOrNumericString({
      title: "Friction Angle (phi)",
      description: "Angle of internal friction of the backfill, degrees (1 to 50).",
      minimum: 1,
      maximum: 50,
      group: "Soil",
      unit: DEGREES_UNIT_FIELD,
    }),
    cohesion: numberOrNumericString({
      title: "Soil Cohesion (c)",
      description:
        "Effective cohesion of the backfill: kPa (metric) or psf (imperial). Rankine with a level backfill only; active pressure below zero is taken as zero (the tension crack); ignored at rest. Not with an earthquake. Default 0.",
      minimum: 0,
      default: 0,
      group: "Soil",
      unit: PRESSURE_FIELD,
    }),
    backfillSlope: numberOrNumericString({
      title: "Backfill Slope (beta)",
      description:
        "Inclination of the backfill surface rising away from the wall, degrees (0 to 45). Must not exceed the friction angle (422 otherwise). Default 0.",
      minimum: 0,
      maximum: 45,
      default: 0,
      group: "Backfill and loads",
      unit: DEGREES_UNIT_FIELD,
    }),
    surcharge: numberOrNumericString({
      title: "Uniform Surcharge (q)",
      description:
        "Uniform vertical load per unit horizontal area on the backfill surface: kPa (metric) or psf, lb/ft² (imperial). Not with an earthquake. Default 0.",
      minimum: 0,
      default: 0,
      group: "Backfill and loads",
      unit: PRESSURE_FIELD,
    }),
    waterDepth: numberOrNumericString({
      title: "Water Table Depth (zw)",
      description:
        "Depth of the water table below the top of the wall: m (metric) or ft (imperial). Absent, or at or below the base: dry. A table above the base needs a level backfill and a vertical back, and no earthquake.",
      minimum: 0,
      group: "Water",
      unit: LENGTH_FIELD,
    }),
    saturatedUnitWeight: numberOrNumericString({
      title: "Saturated Unit Weight (gamma_sat)",
      description:
        "Unit weight of the backfill below the water table: kN/m³ (metric) or pcf (imperial); at least that of water (9.81 kN/m³, 62.4 pcf). Default: the soil unit weight.",
      minimum: 0,
      group: "Water",
      unit: UNIT_WEIGHT_FIELD,
    }),
    seismicKh: numberOrNumericString({
      title: "Horizontal Seismic Coefficient (kh)",
      description:
        "Horizontal pseudo-static acceleration as a fraction of g (0 to 0.5), for the Mononobe-Okabe thrust. Active state only, with no water table above the base, no cohesion and no surcharge. Default 0.",
      minimum: 0,
      maximum: 0.5,
      default: 0,
      group: "Earthquake",
    }),
    seismicKv: numberOrNumericString({
      title: "Vertical Seismic Coefficient (kv)",
      description:
        "Vertical pseudo-static acceleration as a fraction of g (−0.3 to 0.3), positive when the inertia force acts upward (it lightens the wedge by 1 − kv). Needs a seismicKh above 0. Default 0.",
      minimum: -0.3,
      maximum: 0.3,
      default: 0,
      group: "Earthquake",
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
  seismicInertiaAngle: "Seismic Inertia Angle (psi)",
  seismicCoefficient: "Seismic Active Coefficient (KAE)",
  surchargePressure: "Surcharge Pressure (Kq)",
  tensionCrackDepth: "Tension Crack Depth (zc)",
  basePressure: "Pressure at Base",
  waterThrust: "Water Thrust (Pw)",
  staticThrust: "Static Thrust (PA)",
  dynamicIncrement: "Dynamic Thrust Increment (dPAE)",
  thrust: "Total Thrust (P)",
  direction: "Thrust Direction",
  horizontalThrust: "Horizontal Thrust (Ph)",
  verticalThrust: "Vertical Thrust (Pv)",
  thrustHeight: "Thrust Height Above Base",
  overturningMoment: "Overturning Moment About Base",
} as const;

const ALL_ROW_NAMES = Object.values(ROW_NAMES).flatMap((name) =>
  typeof name === "string" ? [name] : Object.values(name),
);

const magnitude = (description: string): JsonSchema => ({ type: "number", minimum: 0, description });
const signed = (description: string): JsonSchema => ({ type: "number", description });
const unitName = (names: readonly string[], description: string): JsonSchema => ({
  type: "string",
  enum: [...names],
  description,
});
const PRESSURE_UNIT = unitName(["kPa", "psf"], "Pressure.");
const FORCE_UNIT = unitName(["kN/m", "lb/ft"], "Force per unit length of wall.");
const LENGTH_UNIT = unitName(["m", "ft"], "Length.");
const MOMENT_UNIT = unitName(["kN·m/m", "lb·ft/ft"], "Moment per unit length of wall.");
const DEGREES = { const: "deg", description: "Degrees." };
const DIMENSIONLESS = { const: "1", description: "Dimensionless." };

/** The unit of each numeric member of `values`, and of the columns of `diagram` and `components`. */
const VALUE_UNITS: Readonly<Record<NumericValueName | ColumnName, JsonSchema>> = {
  coefficient: DIMENSIONLESS,
  surchargePressure: PRESSURE_UNIT,
  basePressure: PRESSURE_UNIT,
  thrust: FORCE_UNIT,
  horizontalThrust: FORCE_UNIT,
  verticalThrust: FORCE_UNIT,
  thrustInclination: DEGREES,
  thrustHeight: LENGTH_UNIT,
  overturningMoment: MOMENT_UNIT,
  seismicCoefficient: DIMENSIONLESS,
  seismicInertiaAngle: DEGREES,
  staticThrust: FORCE_UNIT,
  dynamicIncrement: FORCE_UNIT,
  waterThrust: FORCE_UNIT,
  tensionCrackDepth: LENGTH_UNIT,
  wallFrictionAngle: DEGREES,
  depth: LENGTH_UNIT,
  pressure: PRESSURE_UNIT,
  waterPressure: PRESSURE_UNIT,
  leverArm: LENGTH_UNIT,
  moment: MOMENT_UNIT,
};

export const outputSchema: JsonSchema = {
  $schema: SCHEMA_DIALECT,
  title: "Retaining Wall Pressure Calculator outputs",
  type: "object",
  additionalProperties: false,
  required: ["status", "result", "values", "diagram", "method", "components", "assumptions"],
  properties: {
    status: {
      type: "string",
      description:
        'One-line summary, e.g. "Active thrust 91.67 kN/m acting 1.82 m above the base"; an inclined thrust also names its angle. When Coulomb, cohesion, a water table above the base or an earthquake is used, a closing parenthesis names the theory and the loads, e.g. "(Coulomb; surcharge 10.00 kPa)".',
    },
    result: {
      type: "array",
      description:
        'Rows in this order: "Earth Pressure State"; the coefficient, named "Active Coefficient (Ka)", "At-Rest Coefficient (K0)" or "Passive Coefficient (Kp)" (4 decimals); with an earthquake "Seismic Inertia Angle (psi)" and "Seismic Active Coefficient (KAE)"; "Surcharge Pressure (Kq)"; with cohesion in the active state "Tension Crack Depth (zc)"; "Pressure at Base"; with a water table above the base "Water Thrust (Pw)"; with an earthquake "Static Thrust (PA)" and "Dynamic Thrust Increment (dPAE)"; "Total Thrust (P)"; "Thrust Direction"; "Horizontal Thrust (Ph)" and "Vertical Thrust (Pv)" only when the earth thrust is inclined; "Thrust Height Above Base"; "Overturning Moment About Base". Values carry their unit and 2 decimals.',
      minItems: 8,
      maxItems: 14,
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
      required: [...NUMERIC_VALUE_NAMES, "method", "units"],
      properties: {
        coefficient: magnitude("Ka, K0 or Kp of the theory: the static coefficient of the requested state."),
        surchargePressure: magnitude(
          "The uniform part of the earth pressure from the surcharge: K·q (Rankine, at rest), K·q·cosθ·cosβ/cos(θ−β) (Coulomb).",
        ),
        basePressure: magnitude(
          "The pressure at the base: earth plus water; with an earthquake, the static earth pressure.",
        ),
        thrust: magnitude(
          "Total thrust per unit length of wall: the earth thrust plus the water thrust; with an earthquake PAE.",
        ),
        horizontalThrust: magnitude("Horizontal component of the thrust, toward the wall (earth and water)."),
        verticalThrust: signed(
          "Vertical component of the earth thrust, positive downward, negative when it pushes up on the wall (Coulomb passive with δ > θ, Coulomb active with θ < −δ); 0 when horizontal.",
        ),
        thrustInclination: {
          type: "number",
          minimum: -80,
          maximum: 80,
          description:
            "Angle of the earth thrust to the horizontal, positive when it pushes down on the wall: β under Rankine (parallel to the backfill), δ + θ for Coulomb active, θ − δ for Coulomb passive, 0 at rest. Water pushes horizontally.",
        },
        thrustHeight: magnitude(
          "Height of the line of action above the base, ȳ: the centroid of the whole pressure diagram.",
        ),
        overturningMoment: magnitude(
          "About the base, per unit length of wall: each horizontal part (earth, water) times the height it acts at.",
        ),
        seismicCoefficient: magnitude(
          "KAE (Mononobe-Okabe) with an earthquake; without one, the static coefficient, which KAE reduces to.",
        ),
        seismicInertiaAngle: magnitude("ψ = atan(kh / (1 − kv)), degrees; 0 without an earthquake."),
        staticThrust: magnitude(
          "The thrust without the earthquake, PA (the static part, at H/3); equal to `thrust` without an earthquake.",
        ),
        dynamicIncrement: signed(
          "ΔPAE = PAE − PA, acting at 0.6 H (Seed and Whitman); 0 without an earthquake. Negative when an upward kv lightens the wedge more than kh loads it.",
        ),
        waterThrust: magnitude("½·γw·(H − zw)², horizontal, at (H − zw)/3; 0 when dry."),
        tensionCrackDepth: magnitude(
          "Depth of the top zone where the active earth pressure (less 2c√Ka) is zero: 0 where there is none, H when the whole height is in tension.",
        ),
        wallFrictionAngle: magnitude(
          "δ used: the wall friction angle under Coulomb, 0 under Rankine and at rest.",
        ),
        method: { type: "string", enum: ["rankine", "coulomb"], description: "The theory requested." },
        units: {
          type: "object",
          description:
            "The unit of each numeric member of `values`, of `depth`, `pressure` and `waterPressure` in `diagram`, and of `leverArm` and `moment` in `components`.",
          additionalProperties: false,
          required: Object.keys(VALUE_UNITS),
          properties: VALUE_UNITS,
        },
      },
    },
    diagram: {
      type: "array",
      description:
        "The pressure diagram from the top of the wall (depth 0) to the base (depth H): 5 evenly spaced points, and a point at every break (the bottom of the tension crack, the water table) inside the wall, in order of depth. Straight lines between the points are exact, so its area is the total thrust and its centroid the thrust height. `pressure` is the total per unit of vertical height (the earth part in the earth thrust's direction, plus water); `waterPressure`, present on every point when a water table lies above the base, is the water part. With an earthquake the Seed and Whitman increment is drawn as the linear distribution with its resultant at 0.6 H (1.6ΔPAE/H at the top, 0.4ΔPAE/H at the base), so `pressure` near the top is negative when ΔPAE is.",
      minItems: 5,
      maxItems: 7,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["depth", "pressure"],
        properties: {
          depth: magnitude("Depth below the top of the wall."),
          pressure: signed("Total pressure at that depth: earth plus water."),
          waterPressure: magnitude(
            "The water part of `pressure`: γw·(depth − zw) below the table, 0 above it.",
          ),
        },
      },
    },
    method: {
      type: "array",
      description:
        "The calculation step by step, for a checker: the coefficient (with ψ and KAE under an earthquake), the surcharge and cohesion terms, the tension crack, the pressures at the water table and the base (soil and water), the seismic thrust and its increment, then the total thrust, its horizontal component, the height of the resultant and the overturning moment. Each row gives the formula in symbols (φ, β, δ, θ, ψ in degrees), the same with the values of this case put in, and the result with its unit, rounded as in `result`.",
      minItems: 4,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["quantity", "formula", "substitution", "result"],
        properties: {
          quantity: {
            type: "string",
            description: 'What the row works out, e.g. "Active coefficient (Rankine)".',
          },
          formula: { type: "string", description: 'In symbols, e.g. "Ka = tan²(45° − φ/2)".' },
          substitution: { type: "string", description: 'With the values put in, e.g. "tan²(45° − 30°/2)".' },
          result: { type: "string", description: 'The figure with its unit, e.g. "0.3333" or "33.33 kPa".' },
        },
      },
    },
    components: {
      type: "array",
      description:
        "The thrust as the parts a hand calculation adds, each with the height of its line of action above the base (its lever arm) and its moment about the base: the rectangle and triangle of each straight stretch of the soil diagram (above and below the water table, below the tension crack), the water, or under an earthquake the static thrust at H/3 and the dynamic increment at 0.6 H. The last row, `Total`, is the tool's total thrust, horizontal thrust and overturning moment, which the parts add up to (to rounding).",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["component", "formula", "thrust", "moment"],
        properties: {
          component: {
            type: "string",
            description: 'What the part is, e.g. "Soil", "Surcharge", "Water", "Total".',
          },
          formula: {
            type: "string",
            description:
              'Its thrust in symbols and with the values put in, e.g. "½·Ka·γ·H² = ½ × 0.3333 × 18 × 5²".',
          },
          thrust: signed(
            "The part's thrust per unit length of wall, in its direction (negative only for a negative dynamic increment).",
          ),
          horizontalThrust: signed(
            "Its horizontal component; present only when the earth thrust is inclined.",
          ),
          leverArm: magnitude("Height of its line of action above the base; absent on the `Total` row."),
          moment: signed(
            "Its horizontal component times its lever arm: its share of the overturning moment.",
          ),
        },
      },
    },
    assumptions: {
      type: "array",
      description:
        "The assumptions behind the figures, as sentences: characteristic values with no partial factors, per unit length of wall, drained; the theory's; the surcharge's, the tension crack's (no water in it), the water table's (hydrostatic) or a drained backfill, the earthquake's; and which components the overturning moment takes.",
      items: { type: "string" },
    },
  },
};
