/**
 * Rankine / Jaky lateral earth pressure on the vertical back of a retaining wall: pure math, no
 * units, no rounding, no text. The caller (index.ts) applies defaults and formats the figures.
 *
 * Conventions: depth z is measured down from the top of the wall; the height of the thrust (ȳ) is
 * measured up from the base. Every figure is a non-negative magnitude. Active and passive pressures
 * act parallel to the backfill surface (inclined at β, pushing toward the wall and downward); the
 * at-rest pressure is horizontal.
 */
import { UnprocessableInputError } from "../tool.ts";

export type EarthPressureState = "active" | "atrest" | "passive";

export type WallParameters = {
  readonly state: EarthPressureState;
  /** H, the height of the vertical plane the soil presses on. */
  readonly height: number;
  /** γ */
  readonly unitWeight: number;
  /** φ, degrees. */
  readonly frictionAngle: number;
  /** β, degrees. */
  readonly backfillSlope: number;
  /** q, a uniform vertical surcharge on the backfill surface. */
  readonly surcharge: number;
};

export type DiagramPoint = { readonly depth: number; readonly pressure: number };

export type WallPressure = {
  /** K for the requested state (Ka, K0 or Kp). */
  readonly coefficient: number;
  /** K·q: the uniform part of the pressure, also the pressure at the top of the wall. */
  readonly surchargePressure: number;
  /** K(γH + q). */
  readonly basePressure: number;
  /** P = ½KγH² + KqH, in the direction of the pressure. */
  readonly thrust: number;
  /** Angle of the thrust to the horizontal, degrees: β for active and passive, 0 at rest. */
  readonly thrustInclination: number;
  readonly horizontalThrust: number;
  readonly verticalThrust: number;
  /** ȳ above the base. */
  readonly thrustHeight: number;
  /** Horizontal thrust × ȳ, about the base. */
  readonly overturningMoment: number;
  /** Pressure (in the thrust's direction) from the top of the wall to the base. */
  readonly diagram: readonly DiagramPoint[];
};

/** The diagram is linear, so five evenly spaced points describe it exactly and read well. */
const DIAGRAM_INTERVALS = 4;

const radians = (degrees: number): number => (degrees * Math.PI) / 180;

/**
 * Rankine Ka and Kp for a backfill sloping at β (cos β form, Das; Smith; Murthy) and Jaky's K0 with
 * the sloping-ground factor (1 + sin β) of EN 1997-1 §9.5.2. Throws when β > φ: the slope itself
 * would not stand, so no Rankine state exists.
 */
export function earthPressureCoefficients(
  frictionAngle: number,
  backfillSlope: number,
): { readonly ka: number; readonly k0: number; readonly kp: number } {
  // Decided on the angles as given (degrees), so β = φ is never refused by a rounding error.
  if (backfillSlope > frictionAngle) {
    throw new UnprocessableInputError(
      `The backfill slope (${backfillSlope}°) is steeper than the soil's friction angle (${frictionAngle}°): ` +
        "such a slope cannot stand on its own, so no Rankine earth-pressure state exists. " +
        "Use a backfill slope no steeper than the friction angle.",
    );
  }
  const cosBeta = Math.cos(radians(backfillSlope));
  // s = √(cos²β − cos²φ), with the radicand written as sin(φ + β)·sin(φ − β) (the same quantity):
  // the difference of squares loses most of its digits as β approaches φ and the square root then
  // magnifies the loss (1e-16 becomes 1e-8); the product form is exact-to-rounding and exactly 0 at
  // β = φ. A rounding-negative radicand is still clamped to 0.
  const radicand =
    Math.sin(radians(frictionAngle + backfillSlope)) * Math.sin(radians(frictionAngle - backfillSlope));
  const root = Math.sqrt(Math.max(0, radicand));
  // root < cos β because φ ≤ 50° keeps cos φ > 0, so neither denominator can be zero.
  const ka = (cosBeta * (cosBeta - root)) / (cosBeta + root);
  const kp = (cosBeta * (cosBeta + root)) / (cosBeta - root);
  const k0 = (1 - Math.sin(radians(frictionAngle))) * (1 + Math.sin(radians(backfillSlope)));
  return { ka, k0, kp };
}

/** Height of the resultant above the base: H(γH + 3q) / (3(γH + 2q)), or H/3 with no load at all. */
export function thrustHeightAboveBase(height: number, unitWeight: number, surcharge: number): number {
  // No surcharge: a triangle, H/3, whatever γH is (this also covers the no-load case γH + 2q = 0).
  if (surcharge === 0) return height / 3;
  // Rewritten as H/3 · (1 + 1/(γH/q + 2)): no 0/0, and the factor stays in [1, 1.5] even when γH or
  // q is so large that γH + 3q would overflow.
  return (height / 3) * (1 + 1 / ((unitWeight * height) / surcharge + 2));
}

export function computeWallPressure(parameters: WallParameters): WallPressure {
  const { state, height, unitWeight, frictionAngle, backfillSlope, surcharge } = parameters;
  const { ka, k0, kp } = earthPressureCoefficients(frictionAngle, backfillSlope);
  const coefficient = state === "active" ? ka : state === "passive" ? kp : k0;

  // Distributed over the two terms so that K·γz + K·q stays finite whenever the answer is.
  const pressureAt = (depth: number): number => coefficient * unitWeight * depth + coefficient * surcharge;
  const thrust = 0.5 * coefficient * unitWeight * height * height + coefficient * surcharge * height;
  const thrustInclination = state === "atrest" ? 0 : backfillSlope;
  const horizontalThrust = thrust * Math.cos(radians(thrustInclination));
  // sin(0) is exactly 0, so level backfills and the at-rest state give a vertical part of exactly 0.
  const verticalThrust = thrust * Math.sin(radians(thrustInclination));
  const thrustHeight = thrustHeightAboveBase(height, unitWeight, surcharge);

  const diagram: DiagramPoint[] = [];
  for (let step = 0; step <= DIAGRAM_INTERVALS; step++) {
    const depth = step === DIAGRAM_INTERVALS ? height : (height * step) / DIAGRAM_INTERVALS;
    diagram.push({ depth, pressure: pressureAt(depth) });
  }

  const result: WallPressure = {
    coefficient,
    surchargePressure: coefficient * surcharge,
    basePressure: pressureAt(height),
    thrust,
    thrustInclination,
    horizontalThrust,
    verticalThrust,
    thrustHeight,
    overturningMoment: horizontalThrust * thrustHeight,
    diagram,
  };
  assertFinite(result);
  return result;
}

/**
 * The inputs have no upper bound, so a figure such as ½γH² can exceed the range of a double
 * (H = 1e200). That request is well formed but has no representable answer: 422, never Infinity.
 */
function assertFinite(result: WallPressure): void {
  const numbers = [
    result.coefficient,
    result.surchargePressure,
    result.basePressure,
    result.thrust,
    result.horizontalThrust,
    result.verticalThrust,
    result.thrustHeight,
    result.overturningMoment,
    ...result.diagram.flatMap((point) => [point.depth, point.pressure]),
  ];
  if (!numbers.every(Number.isFinite)) {
    throw new UnprocessableInputError(
      "The inputs are so large that the thrust or moment exceeds the range of numbers this tool can return; " +
        "check the height, unit weight and surcharge.",
    );
  }
}
