/**
 * Earth-pressure coefficients: pure functions of the angles, in degrees, with no loads and no units.
 * Rankine and Jaky for a vertical back; Coulomb for a back inclined at θ with wall friction δ;
 * Mononobe-Okabe for Coulomb's wedge under a pseudo-static earthquake. Each throws
 * `UnprocessableInputError` where its formula has no real value, saying why.
 *
 * Signs (as in Das, Principles of Foundation Engineering, ch. 7): β > 0 is a backfill rising away
 * from the wall; θ > 0 is a wall back leaning away from the backfill, so that the soil rests on it
 * (the wedge grows and Ka with it); δ ≥ 0 is the friction angle between soil and wall back; the
 * seismic inertia angle ψ comes from kh and kv (kv > 0 is an upward inertia force).
 */
import { UnprocessableInputError } from "../tool.ts";

export const radians = (degrees: number): number => (degrees * Math.PI) / 180;
const degrees = (radians: number): number => (radians * 180) / Math.PI;

/** The angles of a Coulomb wedge, degrees. */
export type WedgeAngles = {
  /** φ */
  readonly frictionAngle: number;
  /** δ */
  readonly wallFriction: number;
  /** θ */
  readonly wallInclination: number;
  /** β */
  readonly backfillSlope: number;
};

/**
 * β > φ: the slope itself would not stand, so no earth-pressure state exists in either theory.
 * Decided on the angles as given (degrees), so β = φ is never refused by a rounding error.
 */
function assertSlopeCanStand(frictionAngle: number, backfillSlope: number, theory: string): void {
  if (backfillSlope > frictionAngle) {
    throw new UnprocessableInputError(
      `The backfill slope (${backfillSlope}°) is steeper than the soil's friction angle (${frictionAngle}°): ` +
        `such a slope cannot stand on its own, so no ${theory} earth-pressure state exists. ` +
        "Use a backfill slope no steeper than the friction angle.",
    );
  }
}

/**
 * Rankine Ka and Kp for a backfill sloping at β (cos β form, Das; Smith; Murthy) and Jaky's K0 with
 * the sloping-ground factor (1 + sin β) of EN 1997-1 §9.5.2.
 */
export function rankineCoefficients(
  frictionAngle: number,
  backfillSlope: number,
): { readonly ka: number; readonly k0: number; readonly kp: number } {
  assertSlopeCanStand(frictionAngle, backfillSlope, "Rankine");
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

/** ψ = atan(kh / (1 − kv)), degrees: the tilt of gravity plus the inertia force. */
export function seismicInertiaAngle(kh: number, kv: number): number {
  return degrees(Math.atan(kh / (1 - kv)));
}

/**
 * Mononobe-Okabe KAE (Okabe 1926; Mononobe and Matsuo 1929; in the form of Das, ch. 7, and Kramer,
 * Geotechnical Earthquake Engineering, ch. 11):
 *   KAE = cos²(φ−θ−ψ) / (cosψ·cos²θ·cos(δ+θ+ψ)·[1 + √(sin(φ+δ)·sin(φ−β−ψ) / (cos(δ+θ+ψ)·cos(θ−β)))]²).
 * With ψ = 0 it is Coulomb's Ka. No real value when φ − β − ψ < 0 (the backfill cannot stand under
 * the earthquake) or δ + θ + ψ ≥ 90°.
 */
export function mononobeOkabeActiveCoefficient(angles: WedgeAngles, inertiaAngle: number): number {
  const { frictionAngle: phi, wallFriction: delta, wallInclination: theta, backfillSlope: beta } = angles;
  assertSlopeCanStand(phi, beta, "Coulomb");
  if (phi - beta - inertiaAngle < 0) {
    throw new UnprocessableInputError(
      `The seismic inertia angle ψ = atan(kh / (1 − kv)) is ${inertiaAngle.toFixed(2)}°, more than the ` +
        `friction angle (${phi}°) less the backfill slope (${beta}°): the backfill cannot stand under that ` +
        "earthquake, so the Mononobe-Okabe formula has no real value (φ − β − ψ must not be negative). " +
        "Use a smaller kh, a flatter slope or a larger friction angle.",
    );
  }
  const thrustAngle = delta + theta + inertiaAngle;
  if (thrustAngle >= 90) {
    throw new UnprocessableInputError(
      `The wall friction (${delta}°), the back inclination (${theta}°) and the seismic inertia angle ` +
        `(${inertiaAngle.toFixed(2)}°) add up to ${thrustAngle.toFixed(2)}°: at 90° or more the active ` +
        "thrust would lie along the wall back, and the formula has no real value.",
    );
  }
  const cosThrust = Math.cos(radians(thrustAngle));
  const cosTheta = Math.cos(radians(theta));
  const radicand =
    (Math.sin(radians(phi + delta)) * Math.sin(radians(phi - beta - inertiaAngle))) /
    (cosThrust * Math.cos(radians(theta - beta)));
  const bracket = 1 + Math.sqrt(Math.max(0, radicand));
  return (
    Math.cos(radians(phi - theta - inertiaAngle)) ** 2 /
    (Math.cos(radians(inertiaAngle)) * cosTheta * cosTheta * cosThrust * bracket * bracket)
  );
}

/** Coulomb (1776) Ka: the Mononobe-Okabe formula without an earthquake. */
export function coulombActiveCoefficient(angles: WedgeAngles): number {
  return mononobeOkabeActiveCoefficient(angles, 0);
}

/**
 * Coulomb Kp (Das, ch. 7):
 *   Kp = cos²(φ+θ) / (cos²θ·cos(δ−θ)·[1 − √(sin(φ+δ)·sin(φ+β) / (cos(δ−θ)·cos(θ−β)))]²).
 * No real value when δ − θ ≥ 90° or the square-root term reaches 1 (the plane wedge then offers
 * unbounded resistance: the bracket vanishes or turns negative).
 */
export function coulombPassiveCoefficient(angles: WedgeAngles): number {
  const { frictionAngle: phi, wallFriction: delta, wallInclination: theta, backfillSlope: beta } = angles;
  assertSlopeCanStand(phi, beta, "Coulomb");
  if (delta - theta >= 90) {
    throw new UnprocessableInputError(
      `The wall friction (${delta}°) less the back inclination (${theta}°) is ${delta - theta}°: at 90° or ` +
        "more the passive thrust would lie along the wall back, and the formula has no real value.",
    );
  }
  const cosThrust = Math.cos(radians(delta - theta));
  const cosTheta = Math.cos(radians(theta));
  const root = Math.sqrt(
    (Math.sin(radians(phi + delta)) * Math.sin(radians(phi + beta))) /
      (cosThrust * Math.cos(radians(theta - beta))),
  );
  if (root >= 1) {
    throw new UnprocessableInputError(
      `With φ = ${phi}°, δ = ${delta}°, θ = ${theta}° and β = ${beta}° Coulomb's passive wedge has no ` +
        `solution: the square-root term of the formula is ${root.toFixed(4)}, 1 or more, so the plane ` +
        "wedge would resist without limit. Use a smaller wall friction angle or a flatter slope.",
    );
  }
  const bracket = 1 - root;
  return Math.cos(radians(phi + theta)) ** 2 / (cosTheta * cosTheta * cosThrust * bracket * bracket);
}
