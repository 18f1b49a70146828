/**
 * Properties of Coulomb, cohesion, water and the earthquake over their whole input domain
 * (fast-check): the theories agree where they must, each load moves the thrust the way physics
 * says, the diagram is the thrust, and no answer holds NaN or Infinity.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { outputSchemaErrors } from "../../../test/helpers/tools/retaining-wall-pressure-calculator.ts";
import { UnprocessableInputError } from "../tool.ts";
import {
  coulombActiveCoefficient,
  coulombPassiveCoefficient,
  mononobeOkabeActiveCoefficient,
  rankineCoefficients,
} from "./coefficients.ts";
import { fieldsOutsideTheirCase, MisplacedFieldsError } from "./combinations.ts";
import { retainingWallPressureCalculator as tool } from "./index.ts";
import type { RetainingWallInput, RetainingWallOutput } from "./schema.ts";

const close = (a: number, b: number, relative = 1e-9): boolean =>
  Math.abs(a - b) <= relative * Math.max(1, Math.abs(a), Math.abs(b));

/** The output, or undefined where the wall has no answer (422). */
function answer(input: RetainingWallInput): RetainingWallOutput | undefined {
  try {
    return tool.run(input);
  } catch (error) {
    if (error instanceof UnprocessableInputError) return undefined;
    throw error;
  }
}

const phi = fc.double({ min: 1, max: 50, noNaN: true });
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const magnitude = fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e4, noNaN: true }));
const positive = fc.double({ min: 0.1, max: 1e3, noNaN: true });
const state = fc.constantFrom("active", "atrest", "passive" as const);

/** Angles within their bounds and their rules: δ ≤ φ, β ≤ min(45, φ). */
const coulombAngles = fc
  .record({ phi, delta: fraction, theta: fc.double({ min: -30, max: 30, noNaN: true }), beta: fraction })
  .map(({ phi, delta, theta, beta }) => ({
    frictionAngle: phi,
    wallFriction: delta * phi,
    wallInclination: theta,
    backfillSlope: beta * Math.min(45, phi),
  }));

/** Any input the schema accepts, every optional field present or not: the whole domain. */
const anyInput: fc.Arbitrary<RetainingWallInput> = fc.record(
  {
    units: fc.constantFrom("metric", "imperial" as const),
    state,
    method: fc.constantFrom("rankine", "coulomb" as const),
    height: fc.oneof(magnitude, fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true })),
    unitWeight: magnitude,
    frictionAngle: phi,
    backfillSlope: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 45, noNaN: true })),
    surcharge: fc.oneof(fc.constant(0), magnitude),
    wallFriction: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 50, noNaN: true })),
    wallInclination: fc.oneof(fc.constant(0), fc.double({ min: -30, max: 30, noNaN: true })),
    cohesion: fc.oneof(fc.constant(0), magnitude),
    waterDepth: magnitude,
    saturatedUnitWeight: magnitude,
    seismicKh: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.5, noNaN: true })),
    seismicKv: fc.oneof(fc.constant(0), fc.double({ min: -0.3, max: 0.3, noNaN: true })),
  },
  { requiredKeys: ["height", "unitWeight", "frictionAngle"] },
);

/** Walls that combine: Coulomb or Rankine, with or without cohesion and water, no earthquake. */
const staticWall: fc.Arbitrary<RetainingWallInput> = fc
  .record({
    state,
    coulomb: fc.boolean(),
    angles: coulombAngles,
    height: positive,
    unitWeight: positive,
    surcharge: magnitude,
    cohesion: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 100, noNaN: true })),
    water: fc.option(fc.record({ depth: fraction, buoyant: fc.double({ min: 0, max: 15, noNaN: true }) })),
  })
  .map(({ state, coulomb, angles, height, unitWeight, surcharge, cohesion, water }): RetainingWallInput => {
    const atRest = state === "atrest";
    const level = cohesion > 0 || water !== null;
    return {
      state,
      method: coulomb ? "coulomb" : "rankine",
      height,
      unitWeight,
      surcharge,
      frictionAngle: angles.frictionAngle,
      backfillSlope: level ? 0 : angles.backfillSlope,
      ...(coulomb && !atRest && { wallFriction: angles.wallFriction }),
      ...(coulomb && !atRest && water === null && { wallInclination: angles.wallInclination }),
      ...(!coulomb && { cohesion }),
      ...(water !== null && {
        waterDepth: water.depth * height,
        saturatedUnitWeight: 9.81 + water.buoyant,
      }),
    };
  });

/** Walls under an earthquake: active, dry, no cohesion, no surcharge. */
const seismicWall: fc.Arbitrary<RetainingWallInput> = fc
  .record({
    coulomb: fc.boolean(),
    angles: coulombAngles,
    height: positive,
    unitWeight: positive,
    kh: fc.double({ min: 0.001, max: 0.5, noNaN: true }),
    kv: fc.double({ min: -0.3, max: 0.3, noNaN: true }),
  })
  .map(
    ({ coulomb, angles, height, unitWeight, kh, kv }): RetainingWallInput => ({
      method: coulomb ? "coulomb" : "rankine",
      height,
      unitWeight,
      frictionAngle: angles.frictionAngle,
      backfillSlope: angles.backfillSlope,
      ...(coulomb && { wallFriction: angles.wallFriction, wallInclination: angles.wallInclination }),
      seismicKh: kh,
      seismicKv: kv,
    }),
  );

describe("the theories agree where they must", () => {
  it("Coulomb with δ = θ = β = 0 is Rankine, coefficients and every figure", () => {
    fc.assert(
      fc.property(staticWall, (wall) => {
        const level = { ...wall, backfillSlope: 0, wallFriction: 0, wallInclination: 0 };
        const rankine = answer({ ...level, method: "rankine" });
        const coulomb = answer({ ...level, method: "coulomb", cohesion: 0 });
        if ((wall.cohesion ?? 0) > 0) return; // cohesion is Rankine's alone
        assert.ok(rankine !== undefined && coulomb !== undefined);
        for (const key of [
          "coefficient",
          "thrust",
          "thrustHeight",
          "overturningMoment",
          "basePressure",
        ] as const) {
          assert.ok(close(rankine.values[key], coulomb.values[key], 1e-12), key);
        }
      }),
    );
  });

  it("Coulomb with θ = 0 and δ = β is Rankine's sloping Ka, and Kp with δ = −β is Rankine's Kp", () => {
    fc.assert(
      fc.property(coulombAngles, ({ frictionAngle, backfillSlope }) => {
        const { ka, kp } = rankineCoefficients(frictionAngle, backfillSlope);
        const wedge = { frictionAngle, wallFriction: backfillSlope, wallInclination: 0, backfillSlope };
        assert.ok(close(coulombActiveCoefficient(wedge), ka, 1e-9));
        const passive = () => coulombPassiveCoefficient({ ...wedge, wallFriction: -backfillSlope });
        // Near β = φ both grow without bound; where Coulomb's root reaches 1 it refuses instead.
        if (kp < 1e6) assert.ok(close(passive(), kp, 1e-6), `${passive()} vs ${kp}`);
      }),
    );
  });

  it("KAE with kh = kv = 0 is the static Ka of either theory", () => {
    fc.assert(
      fc.property(coulombAngles, (wedge) => {
        const rankine = { ...wedge, wallFriction: wedge.backfillSlope, wallInclination: 0 };
        assert.ok(
          close(
            mononobeOkabeActiveCoefficient(rankine, 0),
            rankineCoefficients(wedge.frictionAngle, wedge.backfillSlope).ka,
            1e-9,
          ),
        );
        assert.equal(mononobeOkabeActiveCoefficient(wedge, 0), coulombActiveCoefficient(wedge));
      }),
    );
  });

  it("a water table at or below the base gives the dry answer, whatever γsat", () => {
    fc.assert(
      fc.property(
        staticWall,
        fc.double({ min: 0, max: 1e3, noNaN: true }),
        magnitude,
        (wall, below, gammaSat) => {
          const dry = { ...wall };
          delete (dry as { waterDepth?: number }).waterDepth;
          delete (dry as { saturatedUnitWeight?: number }).saturatedUnitWeight;
          const wet = { ...dry, waterDepth: wall.height + below, saturatedUnitWeight: gammaSat };
          assert.deepEqual(answer(wet), answer(dry));
        },
      ),
    );
  });

  it("cohesion 0 gives the cohesionless answer", () => {
    fc.assert(
      fc.property(staticWall, (wall) => {
        const without = { ...wall };
        delete (without as { cohesion?: number }).cohesion;
        if (wall.method === "coulomb") return;
        assert.deepEqual(answer({ ...without, cohesion: 0 }), answer(without));
      }),
    );
  });
});

describe("each load moves the thrust the way it should", () => {
  it("the thrust grows with kh", () => {
    fc.assert(
      fc.property(seismicWall, fc.double({ min: 0, max: 0.5, noNaN: true }), (wall, more) => {
        const kh = wall.seismicKh ?? 0;
        const lower = answer(wall);
        const higher = answer({ ...wall, seismicKh: Math.min(0.5, kh + more) });
        if (lower === undefined || higher === undefined) return;
        assert.ok(higher.values.thrust >= lower.values.thrust * (1 - 1e-12));
        // Without kv, the earthquake only adds: KAE ≥ Ka and PAE ≥ PA.
        if ((wall.seismicKv ?? 0) === 0)
          assert.ok(lower.values.dynamicIncrement >= -1e-9 * lower.values.thrust);
      }),
    );
  });

  it("the thrust grows with γsat below the water table", () => {
    fc.assert(
      fc.property(staticWall, fc.double({ min: 0, max: 10, noNaN: true }), (wall, more) => {
        if (wall.waterDepth === undefined) return;
        const gammaSat = wall.saturatedUnitWeight ?? 0;
        const lighter = answer(wall);
        const heavier = answer({ ...wall, saturatedUnitWeight: gammaSat + more });
        // Both have an answer or neither (a passive wedge with no solution), whatever γsat.
        assert.equal(lighter === undefined, heavier === undefined);
        if (lighter === undefined || heavier === undefined) return;
        assert.ok(heavier.values.thrust >= lighter.values.thrust * (1 - 1e-12));
      }),
    );
  });

  it("the active thrust falls as cohesion grows, and the tension crack deepens", () => {
    fc.assert(
      fc.property(staticWall, fc.double({ min: 0, max: 50, noNaN: true }), (wall, more) => {
        if (wall.method === "coulomb" || (wall.state ?? "active") !== "active") return;
        const level = { ...wall, backfillSlope: 0 };
        const weaker = answer(level);
        const stronger = answer({ ...level, cohesion: (wall.cohesion ?? 0) + more });
        assert.ok(weaker !== undefined && stronger !== undefined);
        assert.ok(stronger.values.thrust <= weaker.values.thrust * (1 + 1e-12) + 1e-12);
        assert.ok(stronger.values.tensionCrackDepth >= weaker.values.tensionCrackDepth - 1e-12);
      }),
    );
  });
});

describe("the diagram is the thrust", () => {
  /** Area and centroid height of straight lines through the points. */
  function areaAndCentroid(output: RetainingWallOutput, height: number) {
    let area = 0;
    let moment = 0;
    const points = output.diagram;
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1], points[i]];
      if (a === undefined || b === undefined) continue;
      const length = b.depth - a.depth;
      area += (length * (a.pressure + b.pressure)) / 2;
      moment +=
        (length *
          (a.pressure * (2 * (height - a.depth) + (height - b.depth)) +
            b.pressure * (height - a.depth + 2 * (height - b.depth)))) /
        6;
    }
    return { area, centroid: area > 0 ? moment / area : Number.NaN };
  }

  it("area = thrust and centroid = thrust height, with every break point sampled", () => {
    fc.assert(
      fc.property(fc.oneof(staticWall, seismicWall), (wall) => {
        const output = answer(wall);
        if (output === undefined) return;
        const { values, diagram } = output;
        const depths = diagram.map((point) => point.depth);
        assert.deepEqual(
          depths,
          [...depths].sort((a, b) => a - b),
          "in order of depth",
        );
        assert.equal(depths[0], 0);
        assert.equal(depths.at(-1), wall.height);
        const { area, centroid } = areaAndCentroid(output, wall.height);
        assert.ok(close(area, values.thrust, 1e-9), `area ${area} vs thrust ${values.thrust}`);
        if (values.thrust > 1e-9)
          assert.ok(close(centroid, values.thrustHeight, 1e-7), `${centroid} vs ${values.thrustHeight}`);
        const wet = wall.waterDepth !== undefined && wall.waterDepth < wall.height;
        assert.equal(
          diagram.every((point) => point.waterPressure !== undefined),
          wet,
        );
        if (wet && (wall.waterDepth ?? 0) > 0)
          assert.ok(depths.includes(wall.waterDepth ?? -1), "a point at zw");
        const crack = values.tensionCrackDepth;
        if (crack > 0 && crack < wall.height) assert.ok(depths.includes(crack), "a point at the crack");
      }),
      { numRuns: 300 },
    );
  });

  it("the moment is each horizontal part times its height: the earth's, and water's at (H − zw)/3", () => {
    fc.assert(
      fc.property(staticWall, (wall) => {
        const output = answer(wall);
        if (output === undefined) return;
        const { values } = output;
        const waterHeight = (wall.height - (wall.waterDepth ?? wall.height)) / 3;
        const earth = values.thrust - values.waterThrust;
        const earthHeight =
          earth > 0 ? (values.thrust * values.thrustHeight - values.waterThrust * waterHeight) / earth : 0;
        const expected =
          (values.horizontalThrust - values.waterThrust) * earthHeight + values.waterThrust * waterHeight;
        assert.ok(
          close(values.overturningMoment, expected, 1e-7),
          `${values.overturningMoment} vs ${expected}`,
        );
        assert.ok(
          close(Math.hypot(values.horizontalThrust - values.waterThrust, values.verticalThrust), earth, 1e-9),
        );
      }),
    );
  });
});

describe("run over the whole input domain", () => {
  it("answers, or refuses with a 400 naming the field or a 422 saying why; never NaN or Infinity", () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const misplaced = fieldsOutsideTheirCase(input);
        let output: RetainingWallOutput;
        try {
          output = tool.run(input);
        } catch (error) {
          if (error instanceof MisplacedFieldsError) {
            assert.deepEqual(error.fields, misplaced);
            return;
          }
          assert.ok(error instanceof UnprocessableInputError, String(error));
          assert.deepEqual(misplaced, {});
          assert.match(
            error.message,
            /steeper than the soil's friction angle|range of numbers|seismic inertia angle|add up to|passive wedge has no solution|saturated unit weight/,
          );
          return;
        }
        assert.deepEqual(misplaced, {});
        assert.equal(outputSchemaErrors(output), "");
        assert.doesNotMatch(JSON.stringify(output), /null|NaN|Infinity/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("the components add up to the totals", () => {
  it("thrust, horizontal thrust and moment: the parts' sums are the Total row, which is `values`", () => {
    fc.assert(
      fc.property(fc.oneof(staticWall, seismicWall), (input) => {
        const output = answer(input);
        if (output === undefined) return;
        const { values } = output;
        const parts = output.components.slice(0, -1);
        const total = output.components.at(-1);
        assert.equal(total?.component, "Total");
        assert.equal(total?.thrust, values.thrust);
        assert.equal(total?.moment, values.overturningMoment);
        const sum = (pick: (row: (typeof parts)[number]) => number) =>
          parts.reduce((acc, row) => acc + pick(row), 0);
        assert.ok(
          close(
            sum((row) => row.thrust),
            values.thrust,
            1e-9,
          ),
          "thrust",
        );
        assert.ok(
          close(
            sum((row) => row.moment),
            values.overturningMoment,
            1e-9,
          ),
          "moment",
        );
        if (values.thrustInclination !== 0) {
          assert.equal(total?.horizontalThrust, values.horizontalThrust);
          assert.ok(
            close(
              sum((row) => row.horizontalThrust ?? Number.NaN),
              values.horizontalThrust,
              1e-9,
            ),
          );
        } else {
          assert.ok(output.components.every((row) => row.horizontalThrust === undefined));
        }
        for (const row of parts) {
          const arm = row.leverArm ?? Number.NaN;
          assert.ok(
            arm >= -1e-9 * input.height && arm <= input.height * (1 + 1e-9),
            `${row.component} at ${arm}`,
          );
          assert.ok(close(row.moment, (row.horizontalThrust ?? row.thrust) * arm, 1e-12), row.component);
        }
        const moment = output.method.at(-1);
        assert.equal(moment?.quantity, "Overturning moment");
        assert.equal(
          moment?.result,
          `${values.overturningMoment.toFixed(2)} ${values.units.overturningMoment}`,
        );
      }),
      { numRuns: 1000 },
    );
  });
});
