/**
 * Properties that must hold for every in-bounds input (fast-check), checked through the tool's own
 * `run` where the published output matters and through compute.ts where the physics does.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { outputSchemaErrors, wall } from "../../../test/helpers/tools/retaining-wall-pressure-calculator.ts";
import { UnprocessableInputError } from "../tool.ts";
import { rankineCoefficients as earthPressureCoefficients } from "./coefficients.ts";
import { computeWallPressure } from "./compute.ts";
import { retainingWallPressureCalculator as tool } from "./index.ts";
import type { RetainingWallInput } from "./schema.ts";

const rad = (degrees: number): number => (degrees * Math.PI) / 180;
const close = (a: number, b: number, relative = 1e-9): boolean =>
  Math.abs(a - b) <= relative * Math.max(1, Math.abs(a), Math.abs(b));

/** φ in [1, 50] and β in [0, min(45, φ)], including the β = φ edge. */
const angles = fc
  .tuple(
    fc.double({ min: 1, max: 50, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.boolean(),
  )
  .map(([phi, fraction, atLimit]) => {
    const beta = atLimit ? Math.min(phi, 45) : Math.min(phi, 45) * fraction;
    return { phi, beta };
  });

/** Physically meaningful magnitudes, zeros included (huge ones are covered separately below). */
const magnitude = fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e4, noNaN: true }));
const state = fc.constantFrom("active", "atrest", "passive" as const);

const wallInput = fc.record({
  state,
  height: magnitude,
  unitWeight: magnitude,
  surcharge: magnitude,
  angles,
});

describe("coefficients", () => {
  it("Ka ≤ K0 ≤ Kp and Ka·Kp = 1 on a level backfill", () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 50, noNaN: true }), (phi) => {
        const { ka, k0, kp } = earthPressureCoefficients(phi, 0);
        return ka <= k0 && k0 <= kp && close(ka * kp, 1, 1e-12);
      }),
    );
  });

  // With a slope, Ka and Kp give a pressure parallel to the backfill while K0 gives a horizontal one,
  // so the ordering holds between horizontal pressures: Ka cos β ≤ K0 ≤ Kp cos β (equal to cos²φ at
  // β = φ on the left). Raw Ka can exceed K0 near β = φ (φ = β = 30°: Ka = 0.866 > K0 = 0.75).
  it("Ka cos β ≤ K0 ≤ Kp cos β, and Ka·Kp = cos²β, with a sloping backfill", () => {
    fc.assert(
      fc.property(angles, ({ phi, beta }) => {
        const { ka, k0, kp } = earthPressureCoefficients(phi, beta);
        const cos = Math.cos(rad(beta));
        const slack = 1e-12;
        return (
          ka * cos <= k0 * (1 + slack) && k0 <= kp * cos * (1 + slack) && close(ka * kp, cos * cos, 1e-9)
        );
      }),
    );
  });
});

describe("thrust and its line of action", () => {
  it("the thrust equals the area of the pressure diagram", () => {
    fc.assert(
      fc.property(wallInput, ({ angles: { phi, beta }, ...rest }) => {
        const result = computeWallPressure(wall({ ...rest, frictionAngle: phi, backfillSlope: beta }));
        let area = 0;
        for (let i = 1; i < result.diagram.length; i++) {
          const [a, b] = [result.diagram[i - 1], result.diagram[i]];
          if (a === undefined || b === undefined) return false;
          area += ((a.pressure + b.pressure) / 2) * (b.depth - a.depth); // exact for a linear diagram
        }
        const first = result.diagram[0];
        const last = result.diagram.at(-1);
        return (
          close(area, result.thrust) &&
          first?.depth === 0 &&
          last?.depth === rest.height &&
          close(last.pressure, result.basePressure)
        );
      }),
    );
  });

  it("ȳ lies between H/3 (triangle) and H/2 (rectangle), and M = Ph·ȳ", () => {
    fc.assert(
      fc.property(wallInput, ({ angles: { phi, beta }, ...rest }) => {
        const result = computeWallPressure(wall({ ...rest, frictionAngle: phi, backfillSlope: beta }));
        const h = rest.height;
        // Rounding slack, relative plus a few subnormal steps: for H ≈ 1e-323 m, H/3 and H/2 are
        // themselves rounded to a handful of representable values.
        const slack = (bound: number): number => Math.abs(bound) * 1e-12 + 1e-320;
        return (
          result.thrustHeight >= h / 3 - slack(h / 3) &&
          result.thrustHeight <= h / 2 + slack(h / 2) &&
          close(result.overturningMoment, result.horizontalThrust * result.thrustHeight)
        );
      }),
    );
  });

  it("the components recompose the thrust at the right angle", () => {
    fc.assert(
      fc.property(wallInput, ({ angles: { phi, beta }, ...rest }) => {
        const result = computeWallPressure(wall({ ...rest, frictionAngle: phi, backfillSlope: beta }));
        const expectedAngle = rest.state === "atrest" ? 0 : beta;
        return (
          result.thrustInclination === expectedAngle &&
          close(Math.hypot(result.horizontalThrust, result.verticalThrust), result.thrust) &&
          (expectedAngle > 0 || result.verticalThrust === 0)
        );
      }),
    );
  });
});

describe("run over the whole input domain", () => {
  const anyNumber = fc.oneof(magnitude, fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }));
  const anyInput = fc.record(
    {
      units: fc.constantFrom("metric", "imperial" as const),
      state,
      height: anyNumber,
      unitWeight: anyNumber,
      frictionAngle: fc.double({ min: 1, max: 50, noNaN: true }),
      backfillSlope: fc.double({ min: 0, max: 45, noNaN: true }),
      surcharge: anyNumber,
    },
    { requiredKeys: ["height", "unitWeight", "frictionAngle"] },
  );

  it("returns finite figures that satisfy the output schema, or a 422 with a reason", () => {
    fc.assert(
      fc.property(anyInput, (input: RetainingWallInput) => {
        let output: ReturnType<typeof tool.run>;
        try {
          output = tool.run(input);
        } catch (error) {
          // Only two well-formed inputs have no answer: β > φ, and figures beyond a double's range.
          assert.ok(error instanceof UnprocessableInputError, String(error));
          const slopeTooSteep = (input.backfillSlope ?? 0) > input.frictionAngle;
          assert.ok(slopeTooSteep || /exceeds the range/.test(error.message), error.message);
          if (slopeTooSteep) assert.match(error.message, /steeper than the soil's friction angle/);
          return;
        }
        assert.ok((input.backfillSlope ?? 0) <= input.frictionAngle, "β > φ must be refused");
        assert.equal(outputSchemaErrors(output), "");
        const json = JSON.stringify(output);
        assert.doesNotMatch(json, /null|NaN|Infinity/);
      }),
      { numRuns: 500 },
    );
  });

  it("physically meaningful magnitudes never overflow", () => {
    fc.assert(
      fc.property(wallInput, ({ angles: { phi, beta }, ...rest }) => {
        const output = tool.run({ ...rest, frictionAngle: phi, backfillSlope: beta });
        return outputSchemaErrors(output) === "";
      }),
    );
  });
});
