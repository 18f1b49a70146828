/**
 * The calculator end to end over HTTP: a call, a 422 that leaves the balance unchanged, and a 400
 * naming each bad field.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { tools } from "../../src/tools/index.ts";
import { createTestApp, type TestApp, toolClient, untilSuiteEnds } from "../helpers/app.ts";

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
    assert.equal(body.tool_version, "1.0.0");
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
      [{ height: 5, unitWeight: 18, frictionAngle: 30, cohesion: 5 }, { cohesion: "is not a known field" }],
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
});
