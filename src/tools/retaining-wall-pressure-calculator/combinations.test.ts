/**
 * Which inputs combine: each field used outside its case is refused by name with its reason (the
 * pipeline answers 400 `validation_error` with these `fields`), a field at its neutral value never
 * is, and the compute never sees a refused combination.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  misplacedFieldCases,
  plainWall as wall,
} from "../../../test/helpers/tools/retaining-wall-pressure-calculator.ts";
import { MisplacedFieldsError } from "./combinations.ts";
import { retainingWallPressureCalculator as tool } from "./index.ts";
import type { RetainingWallInput } from "./schema.ts";

/** The fields `checkInput` refuses, or {} when it accepts. */
function refused(input: RetainingWallInput): Record<string, string> {
  return { ...tool.checkInput?.(input) };
}

describe("combination rules", () => {
  for (const [name, change, fields] of misplacedFieldCases) {
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
