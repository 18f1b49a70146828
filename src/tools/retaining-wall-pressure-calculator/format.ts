/**
 * Turns the unrounded figures of compute.ts into `outputs`: unit labels per system, the human rows
 * (K to 4 decimals, everything else to 2), the status line and the machine-readable `values`.
 * No engineering here. A wall that uses nothing beyond a dry cohesionless Rankine wall gets exactly
 * the rows and status of tool version 1.0.0.
 */
import type { WallParameters, WallPressure } from "./compute.ts";
import {
  type PressureState,
  type ResultRow,
  type RetainingWallOutput,
  ROW_NAMES,
  type UnitSystem,
  type ValueUnits,
} from "./schema.ts";

type UnitLabels = {
  readonly length: string;
  readonly pressure: string;
  readonly force: string;
  readonly moment: string;
};

/** No conversion happens inside a system: the labels only name what the inputs already were. */
export const UNIT_LABELS: Readonly<Record<UnitSystem, UnitLabels>> = {
  metric: { length: "m", pressure: "kPa", force: "kN/m", moment: "kN·m/m" },
  imperial: { length: "ft", pressure: "psf", force: "lb/ft", moment: "lb·ft/ft" },
};

/** `values.units` in each system: the same for every answer, so built once. */
const valueUnits = (labels: UnitLabels): ValueUnits => ({
  coefficient: "1",
  surchargePressure: labels.pressure,
  basePressure: labels.pressure,
  thrust: labels.force,
  horizontalThrust: labels.force,
  verticalThrust: labels.force,
  thrustInclination: "deg",
  thrustHeight: labels.length,
  overturningMoment: labels.moment,
  seismicCoefficient: "1",
  seismicInertiaAngle: "deg",
  staticThrust: labels.force,
  dynamicIncrement: labels.force,
  waterThrust: labels.force,
  tensionCrackDepth: labels.length,
  wallFrictionAngle: "deg",
  depth: labels.length,
  pressure: labels.pressure,
  waterPressure: labels.pressure,
  leverArm: labels.length,
  moment: labels.moment,
});

const VALUE_UNITS: Readonly<Record<UnitSystem, ValueUnits>> = {
  metric: valueUnits(UNIT_LABELS.metric),
  imperial: valueUnits(UNIT_LABELS.imperial),
};

const STATE_LABELS: Readonly<Record<PressureState, { readonly row: string; readonly status: string }>> = {
  active: { row: "Active", status: "Active" },
  atrest: { row: "At rest", status: "At-rest" },
  passive: { row: "Passive", status: "Passive" },
};

/** Fixed decimals; a value that rounds to zero prints as "0.00", never "-0.00". */
export function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

const withUnit = (value: number, unit: string): string => `${fixed(value, 2)} ${unit}`;
const angleText = (degrees: number): string => `${fixed(degrees, 2)}°`;

/** What a wall used beyond a dry cohesionless Rankine wall: the status line names them. */
type Features = {
  readonly coulomb: boolean;
  readonly cohesion: boolean;
  readonly water: boolean;
  readonly earthquake: boolean;
};

function featuresOf(parameters: WallParameters, figures: WallPressure): Features {
  const { state } = parameters;
  return {
    coulomb: parameters.method === "coulomb" && state !== "atrest",
    cohesion: parameters.cohesion > 0 && state !== "atrest",
    water: figures.diagram.some((point) => point.waterPressure !== undefined),
    earthquake: figures.seismicInertiaAngle > 0,
  };
}

/** Where the earth thrust points, for the row and the status line. */
function direction(parameters: WallParameters, figures: WallPressure, features: Features) {
  const angle = figures.thrustInclination;
  if (angle === 0) return { row: "Horizontal", status: "" };
  const waterNote = features.water ? "; the water part is horizontal" : "";
  if (!features.coulomb) {
    return {
      row: `Inclined ${angleText(angle)} to the horizontal, parallel to the backfill slope`,
      status: ` inclined ${angleText(angle)} to the horizontal,`,
    };
  }
  const side = angle > 0 ? "below" : "above";
  return {
    row:
      `Inclined ${angleText(Math.abs(angle))} ${side} the horizontal ` +
      `(wall friction ${angleText(parameters.wallFriction)}, back inclination ${angleText(parameters.wallInclination)})${waterNote}`,
    status: ` inclined ${angleText(Math.abs(angle))} ${side} the horizontal,`,
  };
}

/** "(Coulomb; surcharge 10.00 kPa, water table 2.00 m below the top)", or "" for a 1.0.0 wall. */
function theoryAndLoads(
  parameters: WallParameters,
  figures: WallPressure,
  features: Features,
  theory: string,
  labels: UnitLabels,
): string {
  if (!features.coulomb && !features.cohesion && !features.water && !features.earthquake) return "";
  const loads: string[] = [];
  if (parameters.surcharge > 0) loads.push(`surcharge ${withUnit(parameters.surcharge, labels.pressure)}`);
  if (features.cohesion) {
    loads.push(
      `cohesion ${withUnit(parameters.cohesion, labels.pressure)}` +
        (figures.tensionCrackDepth > 0
          ? `, tension crack ${withUnit(figures.tensionCrackDepth, labels.length)}`
          : ""),
    );
  }
  if (features.water && parameters.water !== undefined) {
    loads.push(`water table ${withUnit(parameters.water.depth, labels.length)} below the top`);
  }
  if (features.earthquake && parameters.seismic !== undefined) {
    loads.push(`earthquake kh ${fixed(parameters.seismic.kh, 2)}, kv ${fixed(parameters.seismic.kv, 2)}`);
  }
  const name = features.earthquake ? `Mononobe-Okabe on ${theory}` : theory;
  return ` (${name}${loads.length > 0 ? `; ${loads.join(", ")}` : ""})`;
}

export function formatOutput(
  figures: WallPressure,
  parameters: WallParameters,
  units: UnitSystem,
): Omit<RetainingWallOutput, "method" | "components" | "assumptions"> {
  const { state } = parameters;
  const labels = UNIT_LABELS[units];
  const features = featuresOf(parameters, figures);
  const pointing = direction(parameters, figures, features);
  const theory = state === "atrest" ? "Jaky" : features.coulomb ? "Coulomb" : "Rankine";

  const rows: ResultRow[] = [
    { property: ROW_NAMES.state, value: `${STATE_LABELS[state].row} (${theory})` },
    { property: ROW_NAMES.coefficient[state], value: fixed(figures.coefficient, 4) },
  ];
  if (features.earthquake) {
    rows.push(
      { property: ROW_NAMES.seismicInertiaAngle, value: angleText(figures.seismicInertiaAngle) },
      { property: ROW_NAMES.seismicCoefficient, value: fixed(figures.seismicCoefficient, 4) },
    );
  }
  rows.push({
    property: ROW_NAMES.surchargePressure,
    value: withUnit(figures.surchargePressure, labels.pressure),
  });
  if (features.cohesion && state === "active") {
    rows.push({
      property: ROW_NAMES.tensionCrackDepth,
      value: withUnit(figures.tensionCrackDepth, labels.length),
    });
  }
  rows.push({ property: ROW_NAMES.basePressure, value: withUnit(figures.basePressure, labels.pressure) });
  if (features.water) {
    rows.push({ property: ROW_NAMES.waterThrust, value: withUnit(figures.waterThrust, labels.force) });
  }
  if (features.earthquake) {
    rows.push(
      { property: ROW_NAMES.staticThrust, value: withUnit(figures.staticThrust, labels.force) },
      { property: ROW_NAMES.dynamicIncrement, value: withUnit(figures.dynamicIncrement, labels.force) },
    );
  }
  rows.push(
    { property: ROW_NAMES.thrust, value: withUnit(figures.thrust, labels.force) },
    { property: ROW_NAMES.direction, value: pointing.row },
  );
  // Components only where an inclined earth thrust makes them differ from the total thrust.
  if (figures.thrustInclination !== 0) {
    rows.push(
      { property: ROW_NAMES.horizontalThrust, value: withUnit(figures.horizontalThrust, labels.force) },
      { property: ROW_NAMES.verticalThrust, value: withUnit(figures.verticalThrust, labels.force) },
    );
  }
  rows.push(
    { property: ROW_NAMES.thrustHeight, value: withUnit(figures.thrustHeight, labels.length) },
    { property: ROW_NAMES.overturningMoment, value: withUnit(figures.overturningMoment, labels.moment) },
  );

  const status =
    `${STATE_LABELS[state].status} thrust ${withUnit(figures.thrust, labels.force)}${pointing.status}` +
    ` acting ${withUnit(figures.thrustHeight, labels.length)} above the base` +
    theoryAndLoads(parameters, figures, features, theory, labels);

  return {
    status,
    result: rows,
    values: {
      coefficient: figures.coefficient,
      surchargePressure: figures.surchargePressure,
      basePressure: figures.basePressure,
      thrust: figures.thrust,
      horizontalThrust: figures.horizontalThrust,
      verticalThrust: figures.verticalThrust,
      thrustInclination: figures.thrustInclination,
      thrustHeight: figures.thrustHeight,
      overturningMoment: figures.overturningMoment,
      seismicCoefficient: figures.seismicCoefficient,
      seismicInertiaAngle: figures.seismicInertiaAngle,
      staticThrust: figures.staticThrust,
      dynamicIncrement: figures.dynamicIncrement,
      waterThrust: figures.waterThrust,
      tensionCrackDepth: figures.tensionCrackDepth,
      wallFrictionAngle: figures.wallFrictionAngle,
      method: parameters.method,
      units: VALUE_UNITS[units],
    },
    diagram: figures.diagram,
  };
}
