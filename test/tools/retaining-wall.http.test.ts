/**
 * The calculator end to end over HTTP: a call, a 422 that leaves the balance unchanged, a 400
 * naming each bad field, and the inputs of tool version 1.1.0: numeric strings, the 400 for a field
 * used outside its case (refused before anything is charged) and the refunded 422s of Coulomb and
 * Mononobe-Okabe.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, type TestApp, toolClient, untilSuiteEnds } from "../helpers/app.ts";
import { misplacedFieldCases, plainWall } from "../helpers/tools/retaining-wall-pressure-calculator.ts";

describe("retaining-wall-pressure-calculator over HTTP", () => {
  let t: TestApp;
  const suite = untilSuiteEnds();
  let client: ReturnType<typeof toolClient>;
  const post = (payload: unknown) => client.post(payload);
  const used = () => client.creditsUsed();

  before(async () => {
    t = await createTestApp({ tools }, suite);
    client = toolClient(t, "retaining-wall-pressure-calculator", await t.key("free"));
  });

  it("computes the documented worked example, charging the free plan's minimum of 2", async () => {
    const res = await post({ height: "5", unitWeight: 18, frictionAngle: 30, surcharge: 10 });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.tool, "retaining-wall-pressure-calculator");
    assert.equal(body.tool_version, "1.2.0");
    assert.equal(body.credits_used, 2);
    assert.equal(body.credits_remaining, 998);
    const rows = new Map(
      body.outputs.result.map((r: { property: string; value: string }) => [r.property, r.value]),
    );
    assert.equal(rows.get("Active Coefficient (Ka)"), "0.3333");
    assert.equal(rows.get("Total Thrust (P)"), "91.67 kN/m");
    assert.equal(rows.get("Overturning Moment About Base"), "166.67 kN·m/m");
    assert.ok(Math.abs(body.outputs.values.thrust - 91.6667) < 1e-3);
    assert.equal(typeof body.outputs.status, "string");
  });

  it("answers 422 for a backfill steeper than the friction angle and refunds it", async () => {
    const before = await used();
    const res = await post({ height: 5, unitWeight: 18, frictionAngle: 25, backfillSlope: 30 });
    assert.equal(res.statusCode, 422, res.body);
    const body = res.json();
    assert.equal(body.code, "unprocessable_input");
    assert.match(body.detail, /steeper than the friction angle/);
    assert.equal(body.credits_used, 0);
    assert.equal(await used(), before);
  });

  it("answers 400 naming each bad field", async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ unitWeight: 18, frictionAngle: 30 }, { height: "is required" }],
      [{ height: 5, unitWeight: 18, frictionAngle: 51 }, { frictionAngle: "must be at most 50" }],
      [{ height: 5, unitWeight: 18, frictionAngle: 0.5 }, { frictionAngle: "must be at least 1" }],
      [{ height: -1, unitWeight: 18, frictionAngle: 30 }, { height: "must be at least 0" }],
      [
        { height: 5, unitWeight: "heavy", frictionAngle: 30 },
        { unitWeight: "must be a number or a numeric string" },
      ],
      [
        { height: 5, unitWeight: 18, frictionAngle: 30, backfillSlope: 46 },
        { backfillSlope: "must be at most 45" },
      ],
      [
        { height: 5, unitWeight: 18, frictionAngle: 30, surcharge: "-2" },
        { surcharge: "must be at least 0" },
      ],
      [
        { height: 5, unitWeight: 18, frictionAngle: 30, units: "si" },
        { units: "must be one of: metric, imperial" },
      ],
      [
        { height: 5, unitWeight: 18, frictionAngle: 30, state: "rest" },
        { state: "must be one of: active, atrest, passive" },
      ],
      [{ height: 5, unitWeight: 18, frictionAngle: 30, colour: "red" }, { colour: "is not a known field" }],
      [
        { height: 5, unitWeight: 18, frictionAngle: 30, seismicKh: "0.6" },
        { seismicKh: "must be at most 0.5" },
      ],
    ];
    const before = await used();
    for (const [payload, fields] of cases) {
      const res = await post(payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().code, "validation_error");
      assert.deepEqual(res.json().fields, fields, JSON.stringify(payload));
    }
    assert.equal(await used(), before);
  });

  it("takes the new inputs as numeric strings: Coulomb with wall friction, water, an earthquake", async () => {
    const coulomb = await post({
      method: "coulomb",
      height: "6",
      unitWeight: "18",
      frictionAngle: "35",
      wallFriction: "17.5",
      seismicKh: "0.2",
      seismicKv: "0",
    });
    assert.equal(coulomb.statusCode, 200, coulomb.body);
    const { values, status } = coulomb.json().outputs;
    assert.equal(values.method, "coulomb");
    assert.equal(values.seismicCoefficient.toFixed(4), "0.3797");
    assert.match(status, /\(Mononobe-Okabe on Coulomb; earthquake kh 0\.20, kv 0\.00\)$/);

    const wet = await post({
      height: 6,
      unitWeight: 18,
      frictionAngle: 30,
      waterDepth: "2",
      saturatedUnitWeight: "20",
    });
    assert.equal(wet.statusCode, 200, wet.body);
    assert.equal(wet.json().outputs.values.waterThrust.toFixed(2), "78.48");
    assert.ok(
      wet
        .json()
        .outputs.diagram.every((point: { waterPressure?: number }) => point.waterPressure !== undefined),
    );
  });

  it("answers 400 naming the field for every combination rule, as numbers and as numeric strings, charging nothing", async () => {
    const asStrings = (change: object) =>
      Object.fromEntries(
        Object.entries(change).map(([field, value]) => [
          field,
          typeof value === "number" ? String(value) : value,
        ]),
      );
    // A key of its own: the table's requests would spend most of the free plan's 60 a minute.
    const own = toolClient(t, "retaining-wall-pressure-calculator", await t.key("free"));
    for (const [name, change, fields] of misplacedFieldCases) {
      for (const sent of [change, asStrings(change)]) {
        const res = await own.post({ ...plainWall, ...sent });
        assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
        assert.equal(res.json().code, "validation_error", name);
        assert.deepEqual(res.json().fields, fields, `${name}: ${JSON.stringify(sent)}`);
      }
    }
    // The schema's own errors come first: a body that breaks both is refused for the schema.
    const both = await own.post({ height: -1, unitWeight: 18, frictionAngle: 30, wallFriction: 10 });
    assert.deepEqual(both.json().fields, { height: "must be at least 0" });
    assert.equal(await own.creditsUsed(), 0);
  });

  it("answers 422, refunded, where Coulomb or Mononobe-Okabe has no real value", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ frictionAngle: 30, backfillSlope: 25, seismicKh: 0.2 }, /φ − β − ψ must not be negative/],
      [
        { method: "coulomb", state: "passive", frictionAngle: 50, wallFriction: 50, backfillSlope: 45 },
        /passive wedge has no solution/,
      ],
      [{ frictionAngle: 30, waterDepth: 1, saturatedUnitWeight: 9 }, /less than the unit weight of water/],
      // δ + θ + ψ = 50° + 30° + atan(0.2) = 91.31°: the active thrust would lie along the back.
      [
        { method: "coulomb", frictionAngle: 50, wallFriction: 50, wallInclination: 30, seismicKh: 0.2 },
        /add up to 91\.31°: at 90° or more the active thrust would lie along the wall back/,
      ],
    ];
    for (const [change, detail] of cases) {
      const before = await used();
      const res = await post({ height: 5, unitWeight: 18, ...change });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, "unprocessable_input");
      assert.match(res.json().detail, detail);
      assert.equal(res.json().credits_used, 0);
      assert.equal(await used(), before);
    }
  });
});
