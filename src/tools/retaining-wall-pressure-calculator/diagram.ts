/**
 * The pressure diagram down the wall: the earth part K·σ'v(z) plus a cohesion term (zero where
 * that comes out negative: the tension crack), and the water part below the water table. Pure
 * math over depths z measured down from the top (0 ≤ z ≤ H); heights ȳ are measured up from the
 * base. Pressures are per unit of vertical height, so a diagram's area is a thrust per unit length.
 *
 * Between the break points (the water table, the bottom of the tension crack) every part is linear
 * in z, so a diagram sampled at its break points is exact when drawn or integrated as straight
 * lines between its points.
 */

export type WaterTable = {
  /** zw, depth below the top; only a table above the base (zw < H) has any effect. */
  readonly depth: number;
  /** γsat, below the table. */
  readonly saturatedUnitWeight: number;
  /** γw */
  readonly unitWeight: number;
};

export type EarthProfile = {
  readonly height: number;
  /** K, in the direction of the earth thrust. */
  readonly coefficient: number;
  /** γ, above the water table. */
  readonly unitWeight: number;
  /** The uniform vertical stress at the top: the surcharge (Coulomb's already scaled to the back). */
  readonly surcharge: number;
  /** Added to K·σ'v at every depth: −2c√Ka (active), +2c√Kp (passive), 0 where cohesion does not apply. */
  readonly cohesionPressure: number;
  /** Absent, or at or below the base: dry. */
  readonly water?: WaterTable | undefined;
};

export type DiagramPoint = {
  readonly depth: number;
  /** Earth plus water. */
  readonly pressure: number;
  /** The water part, present on every point when a water table lies above the base. */
  readonly waterPressure?: number;
};

/** The water table when it lies above the base, else undefined (dry). */
export function waterAboveBase(profile: EarthProfile): WaterTable | undefined {
  const { water } = profile;
  return water !== undefined && water.depth < profile.height ? water : undefined;
}

/** The earth part at depth z: max(0, K·σ'v(z) + cohesion term). */
export function earthPressureAt(profile: EarthProfile, depth: number): number {
  const { coefficient: k, unitWeight, surcharge } = profile;
  const water = waterAboveBase(profile);
  // K·γ·z + K·q distributed over the terms, as for a dry cohesionless wall, so that those figures
  // stay exactly what they always were.
  let pressure =
    water === undefined || depth <= water.depth
      ? k * unitWeight * depth + k * surcharge
      : k * unitWeight * water.depth +
        k * surcharge +
        k * (water.saturatedUnitWeight - water.unitWeight) * (depth - water.depth);
  if (profile.cohesionPressure !== 0) pressure += profile.cohesionPressure;
  return Math.max(0, pressure);
}

/** γw·(z − zw) below the water table, 0 above it. */
export function waterPressureAt(profile: EarthProfile, depth: number): number {
  const water = waterAboveBase(profile);
  return water === undefined || depth <= water.depth ? 0 : water.unitWeight * (depth - water.depth);
}

/**
 * The depth of the top zone where the earth part is zero (a negative cohesion term outweighs
 * K·σ'v): 0 where there is none, H where the whole height is in tension. σ'v never decreases with
 * depth (γsat ≥ γw is the caller's to ensure), so the zone is one interval from the top.
 */
export function tensionCrackDepth(profile: EarthProfile): number {
  const { height, coefficient: k, unitWeight, surcharge, cohesionPressure } = profile;
  if (cohesionPressure >= 0) return 0;
  // The vertical stress at which K·σ'v balances the cohesion term: 2c/√Ka.
  const balancing = -cohesionPressure / k;
  if (surcharge >= balancing) return 0;
  const water = waterAboveBase(profile);
  const dryDepth = water === undefined ? height : water.depth;
  if (surcharge + unitWeight * dryDepth > balancing) return (balancing - surcharge) / unitWeight;
  if (water === undefined) return height;
  const atTable = surcharge + unitWeight * water.depth;
  const buoyant = water.saturatedUnitWeight - water.unitWeight;
  if (atTable + buoyant * (height - water.depth) > balancing) {
    return water.depth + (balancing - atTable) / buoyant;
  }
  return height;
}

/** Five evenly spaced depths (the chart's grid) and every break point inside the wall, in order. */
export function diagramDepths(height: number, breaks: readonly number[]): number[] {
  const intervals = 4;
  const depths: number[] = [];
  for (let step = 0; step <= intervals; step++) {
    depths.push(step === intervals ? height : (height * step) / intervals);
  }
  for (const depth of breaks) {
    if (depth > 0 && depth < height && !depths.includes(depth)) depths.push(depth);
  }
  return depths.sort((a, b) => a - b);
}

/** The earth part of the profile's diagram, at its grid and break points. */
export function earthDiagram(profile: EarthProfile, crackDepth: number): DiagramPoint[] {
  const water = waterAboveBase(profile);
  const breaks = water === undefined ? [crackDepth] : [crackDepth, water.depth];
  return diagramDepths(profile.height, breaks).map((depth) => ({
    depth,
    pressure: earthPressureAt(profile, depth),
  }));
}

/** The whole diagram from its earth part: the water part added, with `waterPressure`, where water applies. */
export function pressureDiagram(
  profile: EarthProfile,
  earth: readonly DiagramPoint[],
): readonly DiagramPoint[] {
  if (waterAboveBase(profile) === undefined) return earth;
  return earth.map(({ depth, pressure }) => {
    const waterPressure = waterPressureAt(profile, depth);
    return { depth, pressure: pressure + waterPressure, waterPressure };
  });
}

/** A resultant: its magnitude and the height of its line of action above the base. */
export type Resultant = { readonly force: number; readonly height: number };

/**
 * The area under a piecewise-linear diagram of (depth, pressure) points and the height of its
 * centroid above the base, exact for straight lines between the points: each trapezoid's area is
 * L(p1 + p2)/2 and its moment L(p1(2a + b) + p2(a + 2b))/6, with a and b the heights of its ends
 * above the base. A diagram with no area has its resultant at `heightWhenEmpty`.
 */
export function piecewiseLinearResultant(
  height: number,
  points: readonly { readonly depth: number; readonly pressure: number }[],
  heightWhenEmpty: number,
): Resultant {
  let force = 0;
  let moment = 0;
  for (let i = 1; i < points.length; i++) {
    const upper = points[i - 1];
    const lower = points[i];
    if (upper === undefined || lower === undefined) continue;
    const length = lower.depth - upper.depth;
    const a = height - upper.depth;
    const b = height - lower.depth;
    force += (length * (upper.pressure + lower.pressure)) / 2;
    moment += (length * (upper.pressure * (2 * a + b) + lower.pressure * (a + 2 * b))) / 6;
  }
  return { force, height: force > 0 ? moment / force : heightWhenEmpty };
}
