/**
 * The input schema accepts exactly what spec §2.2 allows (after the pipeline's numeric-string
 * conversion, re-done here) and names what it refuses; the published schemas carry the labels.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inputSchema } from "./schema.ts";
import { inputErrors } from "./test-support.ts";

const valid = { height: 5, unitWeight: 18, frictionAngle: 30 };

const refusal = (body: Record<string, unknown>): string[] =>
  inputErrors(body).map((error) => `${error.keyword} ${error.instancePath}`);

describe("input schema", () => {
  it("accepts the minimal body and every optional field at its bounds", () => {
    assert.deepEqual(refusal(valid), []);
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
      [],
    );
    assert.deepEqual(refusal({ ...valid, state: "atrest", frictionAngle: 1, backfillSlope: 0 }), []);
  });

  it("accepts numeric strings, which the pipeline turns into numbers first", () => {
    assert.deepEqual(
      refusal({ height: "5", unitWeight: " 18.5 ", frictionAngle: "3e1", surcharge: ".5" }),
      [],
    );
  });

  it("refuses missing required fields", () => {
    for (const field of ["height", "unitWeight", "frictionAngle"]) {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      assert.deepEqual(
        inputErrors(body).map((error) => [error.keyword, (error as { params?: unknown }).params]),
        [["required", { missingProperty: field }]],
      );
    }
  });

  it("refuses out-of-bound values, numbers and numeric strings alike", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ height: -0.01 }, "minimum /height"],
      [{ unitWeight: "-1" }, "minimum /unitWeight"],
      [{ frictionAngle: 0.99 }, "minimum /frictionAngle"],
      [{ frictionAngle: "50.5" }, "maximum /frictionAngle"],
      [{ backfillSlope: -1 }, "minimum /backfillSlope"],
      [{ backfillSlope: 45.01 }, "maximum /backfillSlope"],
      [{ surcharge: -5 }, "minimum /surcharge"],
    ];
    for (const [change, expected] of cases) {
      assert.deepEqual(refusal({ ...valid, ...change }), [expected], JSON.stringify(change));
    }
  });

  it("refuses bad enums, non-numeric strings, wrong types and unknown fields", () => {
    assert.deepEqual(refusal({ ...valid, units: "SI" }), ["enum /units"]);
    assert.deepEqual(refusal({ ...valid, state: "at-rest" }), ["enum /state"]);
    assert.deepEqual(refusal({ ...valid, height: "five" }), ["pattern /height"]);
    assert.deepEqual(refusal({ ...valid, height: "" }), ["pattern /height"]);
    assert.deepEqual(refusal({ ...valid, height: true }), ["type /height"]);
    assert.deepEqual(refusal({ ...valid, cohesion: 10 }), ["additionalProperties "]);
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
    });
    assert.match(properties.height?.description ?? "", /\bm\b.*\bft\b/);
    assert.match(properties.unitWeight?.description ?? "", /kN\/m³.*pcf/);
    assert.match(properties.surcharge?.description ?? "", /kPa.*psf/);
    assert.match(properties.frictionAngle?.description ?? "", /degrees/);
  });
});
