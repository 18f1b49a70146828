/**
 * Which inputs combine: each field used outside its case is refused by name with its reason (the
 * pipeline answers 400 `validation_error` with these `fields`), a field at its neutral value never
 * is, and the compute never sees a refused combination.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MisplacedFieldsError } from "./combinations.ts";
import { retainingWallPressureCalculator as tool } from "./index.ts";
import type { RetainingWallInput } from "./schema.ts";

const wall: RetainingWallInput = { height: 5, unitWeight: 18, frictionAngle: 30 };

/** The fields `checkInput` refuses, or {} when it accepts. */
function refused(input: RetainingWallInput): Record<string, string> {
  return { ...tool.checkInput?.(input) };
}

describe("combination rules", () => {
  const cases: [string, Partial<RetainingWallInput>, Record<string, string>][] = [
    [
      "cohesion with Coulomb",
      { method: "coulomb", cohesion: 5 },
      { cohesion: "applies only with method rankine" },
    ],
    [
      "cohesion with a slope",
      { cohesion: 5, backfillSlope: 10 },
      { cohesion: "applies only with a level backfill (backfillSlope 0)" },
    ],
    [
      "water above the base with a slope",
      { waterDepth: 2, backfillSlope: 10 },
      {
        waterDepth:
          "applies only with a level backfill (backfillSlope 0) when the water table is above the base",
      },
    ],
    [
      "water above the base with an inclined back",
      { method: "coulomb", waterDepth: 2, wallInclination: 5 },
      {
        waterDepth:
          "applies only with a vertical wall back (wallInclination 0) when the water table is above the base",
      },
    ],
    [
      "seismic passive",
      { state: "passive", seismicKh: 0.1 },
      { seismicKh: "applies only to the active state" },
    ],
    [
      "seismic at rest",
      { state: "atrest", seismicKh: 0.1 },
      { seismicKh: "applies only to the active state" },
    ],
    [
      "seismic with water above the base",
      { waterDepth: 1, seismicKh: 0.1 },
      { seismicKh: "cannot be combined with a water table above the base" },
    ],
    [
      "seismic with cohesion",
      { cohesion: 5, seismicKh: 0.1 },
      { seismicKh: "cannot be combined with cohesion" },
    ],
    [
      "seismic with a surcharge",
      { surcharge: 5, seismicKh: 0.1 },
      { seismicKh: "cannot be combined with a surcharge" },
    ],
    ["kv without kh", { seismicKv: -0.1 }, { seismicKv: "needs a seismicKh greater than 0" }],
    ["kv with kh 0", { seismicKh: 0, seismicKv: 0.1 }, { seismicKv: "needs a seismicKh greater than 0" }],
    [
      "wall friction under Rankine",
      { wallFriction: 10 },
      { wallFriction: "applies only with method coulomb" },
    ],
    [
      "wall friction at rest",
      { method: "coulomb", state: "atrest", wallFriction: 10 },
      { wallFriction: "does not apply at rest" },
    ],
    [
      "wall friction above φ",
      { method: "coulomb", wallFriction: 30.5 },
      { wallFriction: "must be at most the friction angle (30)" },
    ],
    [
      "back inclination under Rankine",
      { wallInclination: -5 },
      { wallInclination: "applies only with method coulomb" },
    ],
    [
      "back inclination at rest",
      { method: "coulomb", state: "atrest", wallInclination: 5 },
      { wallInclination: "does not apply at rest" },
    ],
    [
      "several at once, each named",
      {
        state: "passive",
        wallFriction: 5,
        wallInclination: 5,
        seismicKh: 0.2,
        cohesion: 1,
        backfillSlope: 5,
      },
      {
        cohesion: "applies only with a level backfill (backfillSlope 0)",
        seismicKh: "applies only to the active state",
        wallFriction: "applies only with method coulomb",
        wallInclination: "applies only with method coulomb",
      },
    ],
  ];
  for (const [name, change, fields] of cases) {
    it(`refuses ${name}, naming the field`, () => {
      const input = { ...wall, ...change };
      assert.deepEqual(refused(input), fields);
      assert.throws(() => tool.run(input), MisplacedFieldsError, "run refuses it too");
    });
  }

  it("accepts each field in its case, δ = φ included", () => {
    for (const change of [
      { method: "coulomb", wallFriction: 30, wallInclination: -30, backfillSlope: 20 },
      { method: "coulomb", state: "passive", wallFriction: 20, wallInclination: 10 },
      { cohesion: 10 },
      { cohesion: 10, state: "passive", waterDepth: 1, saturatedUnitWeight: 20 },
      { method: "coulomb", wallFriction: 20, waterDepth: 0, saturatedUnitWeight: 20 },
      { seismicKh: 0.2, seismicKv: -0.1, backfillSlope: 5 },
      { method: "coulomb", seismicKh: 0.2, seismicKv: 0.1, wallFriction: 15, wallInclination: 10 },
    ] as const) {
      assert.deepEqual(refused({ ...wall, ...change }), {}, JSON.stringify(change));
    }
  });

  it("never refuses a field at its neutral value, nor a water table at or below the base", () => {
    for (const change of [
      { method: "rankine", wallFriction: 0, wallInclination: 0, cohesion: 0, seismicKh: 0, seismicKv: 0 },
      { state: "passive", backfillSlope: 20, surcharge: 5, cohesion: 0, seismicKh: 0, wallFriction: 0 },
      { state: "atrest", method: "coulomb", wallFriction: 0, wallInclination: 0 },
      { backfillSlope: 20, waterDepth: 5, saturatedUnitWeight: 3 },
      { backfillSlope: 20, waterDepth: 7, seismicKh: 0.1 },
      { saturatedUnitWeight: 20 },
    ] as const) {
      assert.deepEqual(refused({ ...wall, ...change }), {}, JSON.stringify(change));
    }
  });
});
