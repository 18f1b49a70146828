/**
 * Turns the unrounded figures of compute.ts into `outputs`: unit labels per system, the human rows
 * (K to 4 decimals, everything else to 2), the status line and the machine-readable `values`.
 * No engineering here.
 */
import type { WallPressure } from "./compute.ts";
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

const STATE_LABELS: Readonly<Record<PressureState, { readonly row: string; readonly status: string }>> = {
  active: { row: "Active (Rankine)", status: "Active" },
  atrest: { row: "At rest (Jaky)", status: "At-rest" },
  passive: { row: "Passive (Rankine)", status: "Passive" },
};

/** Fixed decimals; a value that rounds to zero prints as "0.00", never "-0.00". */
export function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

const withUnit = (value: number, unit: string): string => `${fixed(value, 2)} ${unit}`;

export function formatOutput(
  figures: WallPressure,
  state: PressureState,
  units: UnitSystem,
): RetainingWallOutput {
  const labels = UNIT_LABELS[units];
  const inclined = figures.thrustInclination > 0;
  const angle = `${fixed(figures.thrustInclination, 2)}°`;

  const rows: ResultRow[] = [
    { property: ROW_NAMES.state, value: STATE_LABELS[state].row },
    { property: ROW_NAMES.coefficient[state], value: fixed(figures.coefficient, 4) },
    { property: ROW_NAMES.surchargePressure, value: withUnit(figures.surchargePressure, labels.pressure) },
    { property: ROW_NAMES.basePressure, value: withUnit(figures.basePressure, labels.pressure) },
    { property: ROW_NAMES.thrust, value: withUnit(figures.thrust, labels.force) },
    {
      property: ROW_NAMES.direction,
      value: inclined ? `Inclined ${angle} to the horizontal, parallel to the backfill slope` : "Horizontal",
    },
  ];
  // Components only where a slope makes them differ from the total thrust.
  if (inclined) {
    rows.push(
      { property: ROW_NAMES.horizontalThrust, value: withUnit(figures.horizontalThrust, labels.force) },
      { property: ROW_NAMES.verticalThrust, value: withUnit(figures.verticalThrust, labels.force) },
    );
  }
  rows.push(
    { property: ROW_NAMES.thrustHeight, value: withUnit(figures.thrustHeight, labels.length) },
    { property: ROW_NAMES.overturningMoment, value: withUnit(figures.overturningMoment, labels.moment) },
  );

  const direction = inclined ? ` inclined ${angle} to the horizontal,` : "";
  const status =
    `${STATE_LABELS[state].status} thrust ${withUnit(figures.thrust, labels.force)}${direction}` +
    ` acting ${withUnit(figures.thrustHeight, labels.length)} above the base`;

  const valueUnits: ValueUnits = {
    coefficient: "1",
    surchargePressure: labels.pressure,
    basePressure: labels.pressure,
    thrust: labels.force,
    horizontalThrust: labels.force,
    verticalThrust: labels.force,
    thrustInclination: "deg",
    thrustHeight: labels.length,
    overturningMoment: labels.moment,
    depth: labels.length,
    pressure: labels.pressure,
  };

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
      units: valueUnits,
    },
    diagram: figures.diagram.map((point) => ({ depth: point.depth, pressure: point.pressure })),
  };
}
