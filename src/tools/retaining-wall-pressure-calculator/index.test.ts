/**
 * The tool definition as the pipeline sees it: metadata, defaults applied by `run`, the rows and
 * values of `outputs`, the 422, and the worked example of docs/tools/retaining-wall-pressure-calculator.md
 * (same numbers, typed here; nothing is read from the doc).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  convertNumericStrings,
  inputErrors,
  outputSchemaErrors,
} from "../../../test/helpers/tools/retaining-wall-pressure-calculator.ts";
import { UnprocessableInputError } from "../tool.ts";
import { retainingWallPressureCalculator as tool } from "./index.ts";
import type { RetainingWallOutput } from "./schema.ts";

const rows = (output: RetainingWallOutput): Record<string, string> =>
  Object.fromEntries(output.result.map((row) => [row.property, row.value]));

describe("definition", () => {
  it("carries the agreed metadata", () => {
    assert.equal(tool.slug, "retaining-wall-pressure-calculator");
    assert.equal(tool.name, "Retaining Wall Pressure Calculator");
    assert.equal(tool.version, "1.2.0");
    assert.deepEqual(tool.defaults, { weight: 1, maxBodyBytes: 16384 });
    for (const word of [
      "rankine",
      "earth pressure",
      "retaining wall",
      "surcharge",
      "at-rest",
      "overturning",
    ]) {
      assert.ok(tool.keywords.includes(word), word);
    }
    assert.ok(tool.examples.length >= 3);
  });

  it("every example is a valid request whose output satisfies the output schema", () => {
    for (const example of tool.examples) {
      assert.deepEqual(inputErrors(example.input), {}, example.title);
      const output = tool.run(convertNumericStrings(example.input) as never);
      assert.equal(outputSchemaErrors(output), "", example.title);
    }
  });
});

describe("outputs", () => {
  // The worked example of the doc: H = 5 m, γ = 18 kN/m³, φ = 30°, q = 10 kPa, level, active.
  // Ka = 1/3; Kq = 3.33 kPa; base = (90 + 10)/3 = 33.33 kPa; P = 75 + 16.67 = 91.67 kN/m;
  // ȳ = 5(90 + 30)/(3(90 + 20)) = 1.82 m; M = 91.67 × 1.818 = 166.67 kN·m/m.
  it("doc worked example: metric, level, active, with surcharge (defaults for units and state)", () => {
    const output = tool.run({ height: 5, unitWeight: 18, frictionAngle: 30, surcharge: 10 });
    assert.equal(output.status, "Active thrust 91.67 kN/m acting 1.82 m above the base");
    assert.deepEqual(output.result, [
      { property: "Earth Pressure State", value: "Active (Rankine)" },
      { property: "Active Coefficient (Ka)", value: "0.3333" },
      { property: "Surcharge Pressure (Kq)", value: "3.33 kPa" },
      { property: "Pressure at Base", value: "33.33 kPa" },
      { property: "Total Thrust (P)", value: "91.67 kN/m" },
      { property: "Thrust Direction", value: "Horizontal" },
      { property: "Thrust Height Above Base", value: "1.82 m" },
      { property: "Overturning Moment About Base", value: "166.67 kN·m/m" },
    ]);
    assert.ok(Math.abs(output.values.thrust - 275 / 3) < 1e-9);
    assert.ok(Math.abs(output.values.thrustHeight - 20 / 11) < 1e-12);
    assert.ok(Math.abs(output.values.overturningMoment - 500 / 3) < 1e-9);
    assert.deepEqual(output.diagram.at(0), { depth: 0, pressure: output.values.surchargePressure });
    assert.equal(output.diagram.at(-1)?.depth, 5);
    // The response the doc prints, figure for figure (its abridged `units` and diagram as printed).
    const { units, ...figures } = output.values;
    assert.deepEqual(figures, {
      coefficient: 0.3333333333333333,
      surchargePressure: 3.333333333333333,
      basePressure: 33.333333333333336,
      thrust: 91.66666666666666,
      horizontalThrust: 91.66666666666666,
      verticalThrust: 0,
      thrustInclination: 0,
      thrustHeight: 1.8181818181818181,
      overturningMoment: 166.66666666666666,
      seismicCoefficient: 0.3333333333333333,
      seismicInertiaAngle: 0,
      staticThrust: 91.66666666666666,
      dynamicIncrement: 0,
      waterThrust: 0,
      tensionCrackDepth: 0,
      wallFrictionAngle: 0,
      method: "rankine",
    });
    assert.deepEqual([units.thrust, units.thrustHeight, units.overturningMoment], ["kN/m", "m", "kN·m/m"]);
    assert.deepEqual(
      [output.diagram.at(0), output.diagram.at(-1)],
      [
        { depth: 0, pressure: 3.333333333333333 },
        { depth: 5, pressure: 33.333333333333336 },
      ],
    );
  });

  it("imperial sloping backfill shows the components and names imperial units", () => {
    const output = tool.run({
      units: "imperial",
      height: 20,
      unitWeight: 120,
      frictionAngle: 34,
      backfillSlope: 15,
    });
    const table = rows(output);
    assert.equal(table["Active Coefficient (Ka)"], "0.3108");
    assert.equal(table["Total Thrust (P)"], "7458.24 lb/ft");
    assert.equal(table["Horizontal Thrust (Ph)"], "7204.11 lb/ft");
    assert.equal(table["Vertical Thrust (Pv)"], "1930.34 lb/ft");
    assert.equal(
      table["Thrust Direction"],
      "Inclined 15.00° to the horizontal, parallel to the backfill slope",
    );
    assert.equal(table["Thrust Height Above Base"], "6.67 ft");
    assert.equal(table["Overturning Moment About Base"], "48027.39 lb·ft/ft");
    assert.equal(
      output.status,
      "Active thrust 7458.24 lb/ft inclined 15.00° to the horizontal, acting 6.67 ft above the base",
    );
    assert.deepEqual(output.values.units, {
      coefficient: "1",
      surchargePressure: "psf",
      basePressure: "psf",
      thrust: "lb/ft",
      horizontalThrust: "lb/ft",
      verticalThrust: "lb/ft",
      thrustInclination: "deg",
      thrustHeight: "ft",
      overturningMoment: "lb·ft/ft",
      seismicCoefficient: "1",
      seismicInertiaAngle: "deg",
      staticThrust: "lb/ft",
      dynamicIncrement: "lb/ft",
      waterThrust: "lb/ft",
      tensionCrackDepth: "ft",
      wallFrictionAngle: "deg",
      depth: "ft",
      pressure: "psf",
      waterPressure: "psf",
      leverArm: "ft",
      moment: "lb·ft/ft",
    });
  });

  it("does not convert inside a system: the same numbers in imperial give the same figures", () => {
    const body = { height: 4, unitWeight: 19, frictionAngle: 28, backfillSlope: 12, surcharge: 7 };
    const metric = tool.run({ ...body, units: "metric" });
    const imperial = tool.run({ ...body, units: "imperial" });
    assert.deepEqual({ ...metric.values, units: null }, { ...imperial.values, units: null });
    // Water is the one load whose unit weight the tool supplies: 9.81 kN/m³ or 62.4 pcf.
    const wet = { ...body, backfillSlope: 0, waterDepth: 1, saturatedUnitWeight: 70 };
    assert.equal(
      tool.run({ ...wet, units: "metric" }).values.waterThrust.toFixed(4),
      (0.5 * 9.81 * 9).toFixed(4),
    );
    assert.equal(
      tool.run({ ...wet, units: "imperial" }).values.waterThrust.toFixed(4),
      (0.5 * 62.4 * 9).toFixed(4),
    );
    assert.deepEqual(metric.diagram, imperial.diagram);
  });

  it("names the coefficient after the state; at rest stays horizontal on a slope", () => {
    const atRest = tool.run({
      state: "atrest",
      height: 3,
      unitWeight: 18,
      frictionAngle: 30,
      backfillSlope: 20,
    });
    assert.equal(rows(atRest)["At-Rest Coefficient (K0)"], "0.6710");
    assert.equal(rows(atRest)["Thrust Direction"], "Horizontal");
    assert.equal(rows(atRest)["Vertical Thrust (Pv)"], undefined);
    assert.equal(atRest.values.verticalThrust, 0);
    assert.match(atRest.status, /^At-rest thrust /);

    const passive = tool.run({ state: "passive", height: 1.5, unitWeight: 19, frictionAngle: 35 });
    assert.equal(rows(passive)["Passive Coefficient (Kp)"], "3.6902");
    assert.equal(passive.status, "Passive thrust 78.88 kN/m acting 0.50 m above the base");
  });

  it("β > φ is refused with a 422 that says why; β = φ is answered", () => {
    assert.throws(
      () => tool.run({ height: 3, unitWeight: 18, frictionAngle: 25, backfillSlope: 26 }),
      (error: unknown) =>
        error instanceof UnprocessableInputError &&
        error.message.startsWith("The backfill slope (26°) is steeper than the soil's friction angle (25°)"),
    );
    const limit = tool.run({
      state: "passive",
      height: 3,
      unitWeight: 18,
      frictionAngle: 25,
      backfillSlope: 25,
    });
    assert.equal(rows(limit)["Passive Coefficient (Kp)"], Math.cos((25 * Math.PI) / 180).toFixed(4));
  });

  // Only an earthquake reaches it: δ ≤ φ ≤ 50° and θ ≤ 30° keep a static δ + θ at 80° or less.
  // φ = δ = 50°, θ = 30°: kh 0.2 gives ψ = atan(0.2) = 11.31° and δ + θ + ψ = 91.31°, refused;
  // kh 0.17 gives ψ = 9.65° and 89.65°, answered.
  it("δ + θ + ψ ≥ 90° is refused with a 422 that says why; just under 90° is answered", () => {
    const wall = {
      method: "coulomb",
      height: 5,
      unitWeight: 18,
      frictionAngle: 50,
      wallFriction: 50,
      wallInclination: 30,
    } as const;
    assert.throws(
      () => tool.run({ ...wall, seismicKh: 0.2 }),
      (error: unknown) =>
        error instanceof UnprocessableInputError &&
        error.message ===
          "The wall friction (50°), the back inclination (30°) and the seismic inertia angle (11.31°) " +
            "add up to 91.31°: at 90° or more the active thrust would lie along the wall back, and the " +
            "formula has no real value.",
    );
    const under = tool.run({ ...wall, seismicKh: 0.17 });
    assert.equal((80 + under.values.seismicInertiaAngle).toFixed(2), "89.65");
    assert.equal(outputSchemaErrors(under), "");
  });

  it("a wall of zero height gives zeros, formatted without a minus sign", () => {
    const output = tool.run({ height: 0, unitWeight: 18, frictionAngle: 30 });
    assert.equal(rows(output)["Total Thrust (P)"], "0.00 kN/m");
    assert.equal(rows(output)["Overturning Moment About Base"], "0.00 kN·m/m");
    assert.equal(outputSchemaErrors(output), "");
  });
});
