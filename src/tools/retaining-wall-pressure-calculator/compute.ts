/**
 * Lateral earth pressure on a retaining wall: pure math, no units, no rounding, no text. The caller
 * (index.ts) applies defaults, checks which inputs combine, and formats the figures.
 *
 * Conventions: depth z is measured down from the top of the wall; the height of the thrust (ȳ) is
 * measured up from the base. The earth thrust acts at `thrustInclination` to the horizontal,
 * positive when it pushes down on the wall: β for Rankine (parallel to the backfill), δ + θ for
 * Coulomb active, θ − δ for Coulomb passive (δ − θ above the horizontal), 0 at rest. Water pushes
 * horizontally.
 */
import { UnprocessableInputError } from "../tool.ts";
import {
  coulombActiveCoefficient,
  coulombPassiveCoefficient,
  mononobeOkabeActiveCoefficient,
  radians,
  rankineCoefficients,
  seismicInertiaAngle,
  type WedgeAngles,
} from "./coefficients.ts";
import {
  type DiagramPoint,
  diagramDepths,
  type EarthProfile,
  earthDiagram,
  earthPressureAt,
  piecewiseLinearResultant,
  pressureDiagram,
  type Resultant,
  tensionCrackDepth,
  type WaterTable,
  waterAboveBase,
  waterPressureAt,
} from "./diagram.ts";
import type { PressureState, Theory } from "./schema.ts";

export type WallParameters = {
  readonly state: PressureState;
  readonly method: Theory;
  /** H, the vertical height of the back the soil presses on. */
  readonly height: number;
  /** γ */
  readonly unitWeight: number;
  /** φ, degrees. */
  readonly frictionAngle: number;
  /** β, degrees. */
  readonly backfillSlope: number;
  /** q, a uniform vertical surcharge per unit horizontal area. */
  readonly surcharge: number;
  /** δ, degrees (Coulomb). */
  readonly wallFriction: number;
  /** θ, degrees (Coulomb). */
  readonly wallInclination: number;
  /** c (Rankine, level backfill). */
  readonly cohesion: number;
  readonly water?: WaterTable | undefined;
  /** kh > 0 for an earthquake (active, dry, no cohesion, no surcharge). */
  readonly seismic?: { readonly kh: number; readonly kv: number } | undefined;
};

export type { DiagramPoint };

export type WallPressure = {
  /** The static K for the requested state (Ka, K0 or Kp of the theory). */
  readonly coefficient: number;
  /** K times the surcharge term: the uniform part of the earth pressure. */
  readonly surchargePressure: number;
  /** The pressure at the base: earth plus water (static with an earthquake). */
  readonly basePressure: number;
  /** The total thrust: earth plus water, or PAE with an earthquake. */
  readonly thrust: number;
  /** Angle of the earth thrust to the horizontal, degrees, positive when it pushes down. */
  readonly thrustInclination: number;
  readonly horizontalThrust: number;
  /** Signed: negative when the earth thrust pushes up on the wall. */
  readonly verticalThrust: number;
  /** ȳ above the base: the centroid of the whole diagram (Seed and Whitman's with an earthquake). */
  readonly thrustHeight: number;
  /** The sum of each horizontal part times its height, about the base. */
  readonly overturningMoment: number;
  /** KAE with an earthquake; otherwise the static coefficient, which KAE reduces to. */
  readonly seismicCoefficient: number;
  /** ψ, degrees; 0 without an earthquake. */
  readonly seismicInertiaAngle: number;
  /** The thrust without the earthquake (PA); equal to `thrust` without one. */
  readonly staticThrust: number;
  /** ΔPAE = PAE − PA; 0 without an earthquake. */
  readonly dynamicIncrement: number;
  /** ½γw(H − zw)², 0 when dry. */
  readonly waterThrust: number;
  /** Depth of the top zone where the earth part is zero; 0 where there is none. */
  readonly tensionCrackDepth: number;
  /** δ under Coulomb (not at rest); 0 otherwise. */
  readonly wallFrictionAngle: number;
  /** Total pressure from the top of the wall to the base, at every break point. */
  readonly diagram: readonly DiagramPoint[];
};

/** Seed and Whitman (1970): the dynamic increment acts at 0.6 H above the base. */
const DYNAMIC_INCREMENT_HEIGHT = 0.6;

/** Height of the resultant above the base: H(γH + 3q) / (3(γH + 2q)), or H/3 with no load at all. */
export function thrustHeightAboveBase(height: number, unitWeight: number, surcharge: number): number {
  // No surcharge: a triangle, H/3, whatever γH is (this also covers the no-load case γH + 2q = 0).
  if (surcharge === 0) return height / 3;
  // Rewritten as H/3 · (1 + 1/(γH/q + 2)): no 0/0, and the factor stays in [1, 1.5] even when γH or
  // q is so large that γH + 3q would overflow.
  return (height / 3) * (1 + 1 / ((unitWeight * height) / surcharge + 2));
}

/**
 * The resultant of a linear diagram K(γz + q): ½KγH² + KqH at the height above. Its closed form,
 * rather than the piecewise sum, keeps the figures of a dry cohesionless wall exactly as they were.
 */
function linearResultant(profile: EarthProfile): Resultant {
  const { coefficient: k, unitWeight, surcharge, height } = profile;
  return {
    force: 0.5 * k * unitWeight * height * height + k * surcharge * height,
    height: thrustHeightAboveBase(height, unitWeight, surcharge),
  };
}

/** The static coefficient and the direction of the earth thrust for the state and theory. */
function staticCoefficient(parameters: WallParameters): { readonly k: number; readonly angle: number } {
  const { state, method, frictionAngle, backfillSlope } = parameters;
  if (state === "atrest" || method === "rankine") {
    const { ka, k0, kp } = rankineCoefficients(frictionAngle, backfillSlope);
    if (state === "atrest") return { k: k0, angle: 0 };
    return { k: state === "active" ? ka : kp, angle: backfillSlope };
  }
  const angles = wedgeAngles(parameters);
  return state === "active"
    ? { k: coulombActiveCoefficient(angles), angle: angles.wallFriction + angles.wallInclination }
    : { k: coulombPassiveCoefficient(angles), angle: angles.wallInclination - angles.wallFriction };
}

/** The wedge of the theory: Rankine's is Coulomb's with θ = 0 and δ = β (thrust parallel to the slope). */
function wedgeAngles(parameters: WallParameters): WedgeAngles {
  const { method, frictionAngle, backfillSlope } = parameters;
  return method === "rankine"
    ? { frictionAngle, wallFriction: backfillSlope, wallInclination: 0, backfillSlope }
    : {
        frictionAngle,
        wallFriction: parameters.wallFriction,
        wallInclination: parameters.wallInclination,
        backfillSlope,
      };
}

/**
 * The vertical stress a uniform surcharge q puts on the back: q under Rankine and at rest, and
 * q·cosθ·cosβ / cos(θ − β) under Coulomb (so that its thrust is K·q·H·cosθ·cosβ / cos(θ − β)).
 */
function surchargeOnBack(parameters: WallParameters): number {
  const { state, method, surcharge, wallInclination, backfillSlope } = parameters;
  if (state === "atrest" || method === "rankine" || surcharge === 0) return surcharge;
  return (
    (surcharge * Math.cos(radians(wallInclination)) * Math.cos(radians(backfillSlope))) /
    Math.cos(radians(wallInclination - backfillSlope))
  );
}

/** −2c√Ka active, +2c√Kp passive (Bell's extension of Rankine); cohesion is ignored at rest. */
function cohesionPressure(state: PressureState, cohesion: number, k: number): number {
  if (cohesion === 0 || state === "atrest") return 0;
  const term = 2 * cohesion * Math.sqrt(k);
  return state === "active" ? -term : term;
}

export function computeWallPressure(parameters: WallParameters): WallPressure {
  const { height, state, water } = parameters;
  if (water !== undefined && water.depth < height && water.saturatedUnitWeight < water.unitWeight) {
    throw new UnprocessableInputError(
      `The saturated unit weight (${water.saturatedUnitWeight}) is less than the unit weight of water ` +
        `(${water.unitWeight}): soil below the water table would weigh less than the water it displaces, ` +
        "so its effective stress would fall with depth and there is no earth-pressure answer. " +
        "Check the saturated unit weight and the unit system.",
    );
  }
  const { k, angle } = staticCoefficient(parameters);
  const profile: EarthProfile = {
    height,
    coefficient: k,
    unitWeight: parameters.unitWeight,
    surcharge: surchargeOnBack(parameters),
    cohesionPressure: cohesionPressure(state, parameters.cohesion, k),
    water,
  };
  const result =
    parameters.seismic !== undefined && parameters.seismic.kh > 0
      ? withEarthquake(parameters, profile, angle, parameters.seismic)
      : withoutEarthquake(parameters, profile, angle);
  assertFinite(result);
  return result;
}

function withoutEarthquake(parameters: WallParameters, profile: EarthProfile, angle: number): WallPressure {
  const { height } = profile;
  const water = waterAboveBase(profile);
  const crackDepth = tensionCrackDepth(profile);
  const earthPoints = earthDiagram(profile, crackDepth);
  const diagram = pressureDiagram(profile, earthPoints);
  const layered = water !== undefined || profile.cohesionPressure !== 0;
  const earth = layered
    ? piecewiseLinearResultant(
        height,
        earthPoints,
        // A wall wholly in tension has no earth thrust; its (zero) resultant is put at the
        // centroid a triangle would have below the crack.
        (height - crackDepth) / 3,
      )
    : linearResultant(profile);
  const earthHeight = earth.height;
  const waterThrust = water === undefined ? 0 : 0.5 * water.unitWeight * (height - water.depth) ** 2;
  const waterHeight = water === undefined ? 0 : (height - water.depth) / 3;
  const thrust = earth.force + waterThrust;
  const thrustHeight =
    water === undefined || thrust === 0
      ? earthHeight
      : (earth.force * earthHeight + waterThrust * waterHeight) / thrust;
  const earthHorizontal = earth.force * Math.cos(radians(angle));
  return {
    coefficient: profile.coefficient,
    surchargePressure: profile.coefficient * profile.surcharge,
    basePressure: earthPressureAt(profile, height) + waterPressureAt(profile, height),
    thrust,
    thrustInclination: angle,
    horizontalThrust: earthHorizontal + waterThrust,
    // sin(0) is exactly 0, so a horizontal earth thrust has a vertical part of exactly 0.
    verticalThrust: earth.force * Math.sin(radians(angle)),
    thrustHeight,
    overturningMoment: earthHorizontal * earthHeight + waterThrust * waterHeight,
    seismicCoefficient: profile.coefficient,
    seismicInertiaAngle: 0,
    staticThrust: thrust,
    dynamicIncrement: 0,
    waterThrust,
    tensionCrackDepth: crackDepth,
    wallFrictionAngle: wallFrictionAngle(parameters),
    diagram,
  };
}

/**
 * Mononobe-Okabe (active, dry, c = 0, q = 0): PAE = ½γH²(1 − kv)KAE; the static part PA (Ka of the
 * same theory) acts at H/3 and the increment ΔPAE = PAE − PA at 0.6H (Seed and Whitman). The diagram
 * adds to the static triangle the increment drawn as the linear distribution with its resultant at
 * 0.6H: 1.6ΔPAE/H at the top falling to 0.4ΔPAE/H at the base.
 */
function withEarthquake(
  parameters: WallParameters,
  profile: EarthProfile,
  angle: number,
  seismic: { readonly kh: number; readonly kv: number },
): WallPressure {
  const { height, unitWeight } = profile;
  const inertiaAngle = seismicInertiaAngle(seismic.kh, seismic.kv);
  const seismicCoefficient = mononobeOkabeActiveCoefficient(wedgeAngles(parameters), inertiaAngle);
  const staticThrust = linearResultant(profile).force;
  const thrust = 0.5 * unitWeight * height * height * (1 - seismic.kv) * seismicCoefficient;
  const increment = thrust - staticThrust;
  const thrustHeight =
    thrust > 0
      ? (staticThrust * (height / 3) + increment * DYNAMIC_INCREMENT_HEIGHT * height) / thrust
      : height / 3;
  const incrementAt = (depth: number): number =>
    height > 0 ? ((1.6 - (1.2 * depth) / height) * increment) / height : 0;
  const diagram = diagramDepths(height, []).map((depth) => ({
    depth,
    pressure: earthPressureAt(profile, depth) + incrementAt(depth),
  }));
  const horizontalThrust = thrust * Math.cos(radians(angle));
  return {
    coefficient: profile.coefficient,
    surchargePressure: profile.coefficient * profile.surcharge,
    basePressure: earthPressureAt(profile, height),
    thrust,
    thrustInclination: angle,
    horizontalThrust,
    verticalThrust: thrust * Math.sin(radians(angle)),
    thrustHeight,
    overturningMoment: horizontalThrust * thrustHeight,
    seismicCoefficient,
    seismicInertiaAngle: inertiaAngle,
    staticThrust,
    dynamicIncrement: increment,
    waterThrust: 0,
    tensionCrackDepth: 0,
    wallFrictionAngle: wallFrictionAngle(parameters),
    diagram,
  };
}

function wallFrictionAngle(parameters: WallParameters): number {
  return parameters.method === "coulomb" && parameters.state !== "atrest" ? parameters.wallFriction : 0;
}

/**
 * The inputs have no upper bound, so a figure such as ½γH² can exceed the range of a double
 * (H = 1e200). That request is well formed but has no representable answer: 422, never Infinity.
 */
function assertFinite(result: WallPressure): void {
  const numbers = [
    ...Object.values(result).filter((value) => typeof value === "number"),
    ...result.diagram.flatMap((point) => [point.depth, point.pressure, point.waterPressure ?? 0]),
  ];
  if (!numbers.every(Number.isFinite)) {
    throw new UnprocessableInputError(
      "The inputs are so large that the thrust or moment exceeds the range of numbers this tool can return; " +
        "check the height, unit weight and surcharge.",
    );
  }
}
