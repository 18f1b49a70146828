/**
 * The input schema accepts exactly what the tool's inputs allow (as
 * docs/tools/retaining-wall-pressure-calculator.md gives them), numeric strings included, and the
 * pipeline's validator names each field it refuses; the published schemas carry the labels and the
 * form groups.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inputErrors } from "../../../test/helpers/tools/retaining-wall-pressure-calculator.ts";
import { GROUP_KEYWORD } from "../schema.ts";
import { inputSchema } from "./schema.ts";

const valid = { height: 5, unitWeight: 18, frictionAngle: 30 };

const refusal = inputErrors;

describe("input schema", () => {
  it("accepts the minimal body and every optional field at its bounds", () => {
    assert.deepEqual(refusal(valid), {});
    for (const [field, low, high] of [
      ["wallFriction", 0, 50],
      ["wallInclination", -30, 30],
      ["cohesion", 0, 1e6],
      ["waterDepth", 0, 1e6],
      ["saturatedUnitWeight", 0, 1e6],
      ["seismicKh", 0, 0.5],
      ["seismicKv", -0.3, 0.3],
    ] as const) {
      assert.deepEqual(refusal({ ...valid, [field]: low }), {}, `${field} = ${low}`);
      assert.deepEqual(refusal({ ...valid, [field]: String(high) }), {}, `${field} = "${high}"`);
    }
    assert.deepEqual(refusal({ ...valid, method: "coulomb" }), {});
    assert.deepEqual(
      refusal({
        units: "imperial",
        state: "passive",
        height: 0,
        unitWeight: 0,
        frictionAngle: 50,
        backfillSlope: 45,
        surcharge: 0,
      }),
      {},
    );
    assert.deepEqual(refusal({ ...valid, state: "atrest", frictionAngle: 1, backfillSlope: 0 }), {});
  });

  it("accepts numeric strings, which the pipeline turns into numbers first", () => {
    assert.deepEqual(
      refusal({ height: "5", unitWeight: " 18.5 ", frictionAngle: "3e1", surcharge: ".5" }),
      {},
    );
  });

  it("refuses missing required fields", () => {
    for (const field of ["height", "unitWeight", "frictionAngle"]) {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      assert.deepEqual(inputErrors(body), { [field]: "is required" });
    }
  });

  it("refuses out-of-bound values, numbers and numeric strings alike", () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ wallFriction: -1 }, { wallFriction: "must be at least 0" }],
      [{ wallFriction: "50.1" }, { wallFriction: "must be at most 50" }],
      [{ wallInclination: -30.5 }, { wallInclination: "must be at least -30" }],
      [{ wallInclination: "31" }, { wallInclination: "must be at most 30" }],
      [{ cohesion: -0.1 }, { cohesion: "must be at least 0" }],
      [{ waterDepth: "-1" }, { waterDepth: "must be at least 0" }],
      [{ saturatedUnitWeight: -20 }, { saturatedUnitWeight: "must be at least 0" }],
      [{ seismicKh: 0.51 }, { seismicKh: "must be at most 0.5" }],
      [{ seismicKh: "-0.1" }, { seismicKh: "must be at least 0" }],
      [{ seismicKv: -0.31 }, { seismicKv: "must be at least -0.3" }],
      [{ seismicKv: "0.4" }, { seismicKv: "must be at most 0.3" }],
      [{ height: -0.01 }, { height: "must be at least 0" }],
      [{ unitWeight: "-1" }, { unitWeight: "must be at least 0" }],
      [{ frictionAngle: 0.99 }, { frictionAngle: "must be at least 1" }],
      [{ frictionAngle: "50.5" }, { frictionAngle: "must be at most 50" }],
      [{ backfillSlope: -1 }, { backfillSlope: "must be at least 0" }],
      [{ backfillSlope: 45.01 }, { backfillSlope: "must be at most 45" }],
      [{ surcharge: -5 }, { surcharge: "must be at least 0" }],
    ];
    for (const [change, expected] of cases) {
      assert.deepEqual(refusal({ ...valid, ...change }), expected, JSON.stringify(change));
    }
  });

  it("refuses bad enums, non-numeric strings, wrong types and unknown fields", () => {
    const numeric = "must be a number or a numeric string";
    assert.deepEqual(refusal({ ...valid, units: "SI" }), { units: "must be one of: metric, imperial" });
    assert.deepEqual(refusal({ ...valid, state: "at-rest" }), {
      state: "must be one of: active, atrest, passive",
    });
    assert.deepEqual(refusal({ ...valid, height: "five" }), { height: numeric });
    assert.deepEqual(refusal({ ...valid, height: "" }), { height: numeric });
    assert.deepEqual(refusal({ ...valid, height: true }), { height: numeric });
    assert.deepEqual(refusal({ ...valid, colour: "red" }), { colour: "is not a known field" });
    assert.deepEqual(refusal({ ...valid, method: "terzaghi" }), {
      method: "must be one of: rankine, coulomb",
    });
  });

  it("publishes the §2.2 labels as titles, and units in the descriptions", () => {
    const properties = inputSchema.properties as Record<string, { title: string; description: string }>;
    const titles = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, schema.title]),
    );
    assert.deepEqual(titles, {
      units: "Unit System",
      state: "Earth Pressure State",
      height: "Wall Height (H)",
      unitWeight: "Soil Unit Weight (gamma)",
      frictionAngle: "Friction Angle (phi)",
      backfillSlope: "Backfill Slope (beta)",
      surcharge: "Uniform Surcharge (q)",
      method: "Theory",
      wallFriction: "Wall Friction Angle (delta)",
      wallInclination: "Wall Back Inclination (theta)",
      cohesion: "Soil Cohesion (c)",
      waterDepth: "Water Table Depth (zw)",
      saturatedUnitWeight: "Saturated Unit Weight (gamma_sat)",
      seismicKh: "Horizontal Seismic Coefficient (kh)",
      seismicKv: "Vertical Seismic Coefficient (kv)",
    });
    assert.match(properties.height?.description ?? "", /\bm\b.*\bft\b/);
    assert.match(properties.unitWeight?.description ?? "", /kN\/m³.*pcf/);
    assert.match(properties.surcharge?.description ?? "", /kPa.*psf/);
    assert.match(properties.frictionAngle?.description ?? "", /degrees/);
    assert.match(properties.cohesion?.description ?? "", /kPa.*psf/);
    assert.match(properties.waterDepth?.description ?? "", /\bm\b.*\bft\b/);
    assert.match(properties.saturatedUnitWeight?.description ?? "", /kN\/m³.*pcf/);
    assert.match(properties.wallInclination?.description ?? "", /leans away from the backfill/);
  });

  it("names each input's form group with x-group; the unit system stands first, ungrouped", () => {
    const properties = inputSchema.properties as Record<string, Record<string, unknown>>;
    const groups = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, schema[GROUP_KEYWORD]]),
    );
    assert.deepEqual(groups, {
      units: undefined,
      state: "Wall",
      height: "Wall",
      unitWeight: "Soil",
      frictionAngle: "Soil",
      backfillSlope: "Backfill and loads",
      surcharge: "Backfill and loads",
      method: "Wall",
      wallFriction: "Wall",
      wallInclination: "Wall",
      cohesion: "Soil",
      waterDepth: "Water",
      saturatedUnitWeight: "Water",
      seismicKh: "Earthquake",
      seismicKv: "Earthquake",
    });
    assert.equal(Object.keys(properties)[0], "units");
  });
});
