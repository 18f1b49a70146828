/**
 * The calculation sheet's method, components and assumptions for cases worked by hand: the parts a
 * checker adds, with the lever arms and moments a textbook gives, and the formulas as printed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { retainingWallPressureCalculator as tool } from "./index.ts";
import type { RetainingWallInput, RetainingWallOutput } from "./schema.ts";

const run = (input: RetainingWallInput): RetainingWallOutput => tool.run(input);

/** Components as [name, thrust, lever arm, moment], rounded as a hand calculation is. */
const parts = (output: RetainingWallOutput) =>
  output.components.map((row) => [
    row.component,
    row.thrust.toFixed(2),
    row.leverArm === undefined ? "—" : row.leverArm.toFixed(2),
    row.moment.toFixed(2),
  ]);

const step = (output: RetainingWallOutput, quantity: string) => {
  const row = output.method.find((r) => r.quantity === quantity);
  assert.ok(row, `no method row "${quantity}" in ${output.method.map((r) => r.quantity).join(", ")}`);
  return row;
};

describe("the calculation sheet", () => {
  it("Rankine with a surcharge: soil ½KaγH² at H/3 and surcharge KaqH at H/2, adding to the totals", () => {
    const output = run({ height: 5, unitWeight: 18, frictionAngle: 30, surcharge: 10 });
    // Ka = 1/3: ½ × ⅓ × 18 × 25 = 75 at 5/3; ⅓ × 10 × 5 = 16.67 at 2.5; M = 41.67 + 125 = 166.67.
    assert.deepEqual(parts(output), [
      ["Surcharge", "16.67", "2.50", "41.67"],
      ["Soil", "75.00", "1.67", "125.00"],
      ["Total", "91.67", "—", "166.67"],
    ]);
    assert.deepEqual(step(output, "Active coefficient (Rankine)"), {
      quantity: "Active coefficient (Rankine)",
      formula: "Ka = tan²(45° − φ/2)",
      substitution: "tan²(45° − 30°/2)",
      result: "0.3333",
    });
    assert.equal(step(output, "Pressure at the base").substitution, "0.3333 × (18 × 5 + 10)");
    assert.equal(step(output, "Overturning moment").result, "166.67 kN·m/m");
    assert.ok(output.assumptions.includes("Characteristic values: no partial factors are applied."));
    assert.ok(output.assumptions.includes("No water pressure: the backfill drains freely down to the base."));
  });

  it("Coulomb: the coefficient's formula with φ, δ, θ and β put in, and the moment of Ph only", () => {
    const output = run({
      method: "coulomb",
      height: 6,
      unitWeight: 18,
      frictionAngle: 33,
      wallFriction: 22,
      backfillSlope: 10,
    });
    const ka = step(output, "Active coefficient (Coulomb)");
    assert.equal(
      ka.formula,
      "Ka = cos²(φ − θ) / (cos²θ·cos(δ + θ)·[1 + √(sin(φ + δ)·sin(φ − β) / (cos(δ + θ)·cos(θ − β)))]²)",
    );
    assert.equal(
      ka.substitution,
      "cos²(33° − 0°) / (cos²0°·cos(22° + 0°)·[1 + √(sin(33° + 22°)·sin(33° − 10°) / (cos(22° + 0°)·cos(0° − 10°)))]²)",
    );
    assert.equal(ka.result, output.values.coefficient.toFixed(4));
    assert.equal(step(output, "Horizontal component").formula, "Ph = P·cos(δ + θ)");
    const [soil] = output.components;
    assert.ok(soil);
    assert.equal(soil.horizontalThrust, soil.thrust * Math.cos((22 * Math.PI) / 180));
    assert.ok(
      output.assumptions.some((line) =>
        /horizontal component Ph only; the vertical component Pv is not included/.test(line),
      ),
    );
  });

  it("cohesion and a water table: the tension crack, the stretches above and below the table, and the water", () => {
    const input = {
      height: 6,
      unitWeight: 18,
      saturatedUnitWeight: 20,
      frictionAngle: 26,
      cohesion: 10,
      waterDepth: 2,
    } as const;
    const output = run(input);
    const ka = Math.tan(((45 - 13) * Math.PI) / 180) ** 2;
    const zc = (2 * 10) / (18 * Math.sqrt(ka));
    const atTable = ka * 18 * 2 - 2 * 10 * Math.sqrt(ka);
    const buoyant = 20 - 9.81;
    const expected = [
      [
        "Soil above the water table, below the tension crack",
        0.5 * ka * 18 * (2 - zc) ** 2,
        4 + (2 - zc) / 3,
      ],
      ["Soil below the water table, uniform part", atTable * 4, 2],
      ["Soil below the water table, triangular part", 0.5 * ka * buoyant * 16, 4 / 3],
      ["Water", 0.5 * 9.81 * 16, 4 / 3],
    ] as const;
    assert.deepEqual(
      parts(output).slice(0, -1),
      expected.map(([name, force, arm]) => [
        name,
        force.toFixed(2),
        arm.toFixed(2),
        (force * arm).toFixed(2),
      ]),
    );
    assert.deepEqual(step(output, "Tension crack depth"), {
      quantity: "Tension crack depth",
      formula: "zc = (2c/√Ka) / γ",
      substitution: "(2 × 10 / √0.3905) / 18",
      result: `${zc.toFixed(2)} m`,
    });
    assert.equal(step(output, "Water pressure at the base").result, "39.24 kPa");
    assert.ok(output.assumptions.some((line) => /no water in the tension crack/.test(line)));
    assert.ok(output.assumptions.some((line) => /Hydrostatic water table/.test(line)));
  });

  it("Mononobe-Okabe: ψ, KAE, and the static thrust at H/3 with the increment at 0.6 H", () => {
    const output = run({
      method: "coulomb",
      height: 6,
      unitWeight: 18,
      frictionAngle: 35,
      wallFriction: 17.5,
      seismicKh: 0.2,
    });
    assert.equal(
      step(output, "Seismic inertia angle").result,
      `${((Math.atan(0.2) * 180) / Math.PI).toFixed(2)}°`,
    );
    assert.equal(step(output, "Seismic thrust").formula, "PAE = ½·γ·H²·(1 − kv)·KAE");
    const [staticPart, increment] = output.components;
    assert.equal(staticPart?.thrust, output.values.staticThrust);
    assert.equal(staticPart?.leverArm, 2);
    assert.equal(increment?.thrust, output.values.dynamicIncrement);
    assert.ok(Math.abs((increment?.leverArm ?? 0) - 3.6) < 1e-12);
  });

  it("a wall wholly in tension has no parts and a zero total", () => {
    const output = run({ height: 1, unitWeight: 18, frictionAngle: 30, cohesion: 50 });
    assert.deepEqual(parts(output), [["Total", "0.00", "—", "0.00"]]);
    assert.match(step(output, "Tension crack depth").result, /the whole height/);
  });

  it("no symbol is left as a raw input word", () => {
    for (const example of tool.examples) {
      const text = JSON.stringify(run(example.input as RetainingWallInput).method);
      assert.doesNotMatch(text, /rankine|coulomb|atrest|degrees|phi|beta|delta|theta/, example.title);
    }
  });
});
