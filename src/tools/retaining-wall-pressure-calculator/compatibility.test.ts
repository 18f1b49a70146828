/**
 * The tool answers every request that was valid in 1.0.0 exactly as 1.0.0 did: the same
 * status, rows, diagram and `values` members, to the bit (new `outputs` and `values` members may be added), and
 * the same 422 where there was one. 1.0.0 is a frozen copy of its compute and format (commit
 * 9d2405f, trimmed to what produces `outputs`), kept here as the reference and never changed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { convertNumericStrings } from "../../../test/helpers/tools/retaining-wall-pressure-calculator.ts";
import { UnprocessableInputError } from "../tool.ts";
import { retainingWallPressureCalculator as tool } from "./index.ts";

type State = "active" | "atrest" | "passive";
type V100Input = {
  units?: "metric" | "imperial";
  state?: State;
  height: number;
  unitWeight: number;
  frictionAngle: number;
  backfillSlope?: number;
  surcharge?: number;
};

/** Tool version 1.0.0's `run`, frozen. */
function runV100(input: V100Input): Record<string, unknown> {
  const state = input.state ?? "active";
  const units = input.units ?? "metric";
  const { height, unitWeight, frictionAngle } = input;
  const backfillSlope = input.backfillSlope ?? 0;
  const surcharge = input.surcharge ?? 0;
  const radians = (degrees: number): number => (degrees * Math.PI) / 180;
  if (backfillSlope > frictionAngle) {
    throw new UnprocessableInputError(
      `The backfill slope (${backfillSlope}°) is steeper than the soil's friction angle (${frictionAngle}°): ` +
        "such a slope cannot stand on its own, so no Rankine earth-pressure state exists. " +
        "Use a backfill slope no steeper than the friction angle.",
    );
  }
  const cosBeta = Math.cos(radians(backfillSlope));
  const radicand =
    Math.sin(radians(frictionAngle + backfillSlope)) * Math.sin(radians(frictionAngle - backfillSlope));
  const root = Math.sqrt(Math.max(0, radicand));
  const ka = (cosBeta * (cosBeta - root)) / (cosBeta + root);
  const kp = (cosBeta * (cosBeta + root)) / (cosBeta - root);
  const k0 = (1 - Math.sin(radians(frictionAngle))) * (1 + Math.sin(radians(backfillSlope)));
  const coefficient = state === "active" ? ka : state === "passive" ? kp : k0;
  const pressureAt = (depth: number): number => coefficient * unitWeight * depth + coefficient * surcharge;
  const thrust = 0.5 * coefficient * unitWeight * height * height + coefficient * surcharge * height;
  const thrustInclination = state === "atrest" ? 0 : backfillSlope;
  const horizontalThrust = thrust * Math.cos(radians(thrustInclination));
  const verticalThrust = thrust * Math.sin(radians(thrustInclination));
  const thrustHeight =
    surcharge === 0 ? height / 3 : (height / 3) * (1 + 1 / ((unitWeight * height) / surcharge + 2));
  const diagram: { depth: number; pressure: number }[] = [];
  for (let step = 0; step <= 4; step++) {
    const depth = step === 4 ? height : (height * step) / 4;
    diagram.push({ depth, pressure: pressureAt(depth) });
  }
  const figures = {
    coefficient,
    surchargePressure: coefficient * surcharge,
    basePressure: pressureAt(height),
    thrust,
    thrustInclination,
    horizontalThrust,
    verticalThrust,
    thrustHeight,
    overturningMoment: horizontalThrust * thrustHeight,
  };
  const numbers = [...Object.values(figures), ...diagram.flatMap((p) => [p.depth, p.pressure])];
  if (!numbers.every(Number.isFinite)) {
    throw new UnprocessableInputError(
      "The inputs are so large that the thrust or moment exceeds the range of numbers this tool can return; " +
        "check the height, unit weight and surcharge.",
    );
  }

  const labels =
    units === "metric"
      ? { length: "m", pressure: "kPa", force: "kN/m", moment: "kN·m/m" }
      : { length: "ft", pressure: "psf", force: "lb/ft", moment: "lb·ft/ft" };
  const stateLabels = {
    active: { row: "Active (Rankine)", status: "Active" },
    atrest: { row: "At rest (Jaky)", status: "At-rest" },
    passive: { row: "Passive (Rankine)", status: "Passive" },
  }[state];
  const fixed = (value: number, decimals: number): string => {
    const text = value.toFixed(decimals);
    return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
  };
  const withUnit = (value: number, unit: string): string => `${fixed(value, 2)} ${unit}`;
  const inclined = thrustInclination > 0;
  const angle = `${fixed(thrustInclination, 2)}°`;
  const coefficientRow = {
    active: "Active Coefficient (Ka)",
    atrest: "At-Rest Coefficient (K0)",
    passive: "Passive Coefficient (Kp)",
  }[state];
  const rows = [
    { property: "Earth Pressure State", value: stateLabels.row },
    { property: coefficientRow, value: fixed(coefficient, 4) },
    { property: "Surcharge Pressure (Kq)", value: withUnit(figures.surchargePressure, labels.pressure) },
    { property: "Pressure at Base", value: withUnit(figures.basePressure, labels.pressure) },
    { property: "Total Thrust (P)", value: withUnit(thrust, labels.force) },
    {
      property: "Thrust Direction",
      value: inclined ? `Inclined ${angle} to the horizontal, parallel to the backfill slope` : "Horizontal",
    },
  ];
  if (inclined) {
    rows.push(
      { property: "Horizontal Thrust (Ph)", value: withUnit(horizontalThrust, labels.force) },
      { property: "Vertical Thrust (Pv)", value: withUnit(verticalThrust, labels.force) },
    );
  }
  rows.push(
    { property: "Thrust Height Above Base", value: withUnit(thrustHeight, labels.length) },
    { property: "Overturning Moment About Base", value: withUnit(figures.overturningMoment, labels.moment) },
  );
  const direction = inclined ? ` inclined ${angle} to the horizontal,` : "";
  const status =
    `${stateLabels.status} thrust ${withUnit(thrust, labels.force)}${direction}` +
    ` acting ${withUnit(thrustHeight, labels.length)} above the base`;
  const valueUnits = {
    coefficient: "1",
    surchargePressure: labels.pressure,
    basePressure: labels.pressure,
    thrust: labels.force,
    horizontalThrust: labels.force,
    verticalThrust: labels.force,
    thrustInclination: "deg",
    thrustHeight: labels.length,
    overturningMoment: labels.moment,
    depth: labels.length,
    pressure: labels.pressure,
  };
  return { status, result: rows, values: { ...figures, units: valueUnits }, diagram };
}

/** The answer or the 422's message, comparable as JSON. */
function answerOf(run: () => unknown): { readonly ok: unknown } | { readonly unprocessable: string } {
  try {
    return { ok: run() };
  } catch (error) {
    if (!(error instanceof UnprocessableInputError)) throw error;
    return { unprocessable: error.message };
  }
}

/** The answer with only what 1.0.0 had: new `outputs` members, `values` members and unit entries left out. */
function asV100(answer: ReturnType<typeof answerOf>, reference: ReturnType<typeof answerOf>) {
  if (!("ok" in answer) || !("ok" in reference)) return answer;
  const output = answer.ok as Record<string, unknown> & {
    values: Record<string, unknown> & { units: Record<string, unknown> };
  };
  const old = reference.ok as Record<string, unknown> & {
    values: Record<string, unknown> & { units: Record<string, unknown> };
  };
  const pick = (from: Record<string, unknown>, keys: string[]) =>
    Object.fromEntries(keys.filter((key) => key in from).map((key) => [key, from[key]]));
  const units = pick(output.values.units, Object.keys(old.values.units));
  const values = { ...pick(output.values, Object.keys(old.values)), units };
  return { ok: { ...pick(output, Object.keys(old)), values } };
}

const degrees = fc.oneof(
  fc.integer({ min: 0, max: 50 }),
  fc.double({ min: 0, max: 50, noNaN: true }),
  fc.constantFrom(1, 28, 30, 45, 50),
);
const magnitude = fc.oneof(
  fc.constant(0),
  fc.double({ min: 0, max: 1e4, noNaN: true }),
  fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }),
  fc.integer({ min: 0, max: 100 }),
);
/** Numbers sent as JSON numbers or as the numeric strings clients also send. */
const sent = (number: fc.Arbitrary<number>) => fc.oneof(number, number.map(String));

const v100Request = fc.record(
  {
    units: fc.constantFrom("metric", "imperial"),
    state: fc.constantFrom("active", "atrest", "passive"),
    height: sent(magnitude),
    unitWeight: sent(magnitude),
    frictionAngle: sent(degrees.filter((phi) => phi >= 1)),
    backfillSlope: sent(degrees.filter((beta) => beta <= 45)),
    surcharge: sent(magnitude),
  },
  { requiredKeys: ["height", "unitWeight", "frictionAngle"] },
);

describe("every request valid in 1.0.0 gets the 1.0.0 answer", () => {
  it("status, rows, diagram and the 1.0.0 values, bit for bit; the same 422 message", () => {
    fc.assert(
      fc.property(v100Request, (request) => {
        const input = convertNumericStrings(request);
        const reference = answerOf(() => runV100(input as V100Input));
        const answer = answerOf(() => tool.run(input as never));
        assert.deepEqual(asV100(answer, reference), reference);
        if ("ok" in answer)
          assert.equal((answer.ok as { values: { method: string } }).values.method, "rankine");
      }),
      { numRuns: 2000 },
    );
  });

  it("the documented worked example (the first of the tool's examples), byte for byte as JSON", () => {
    const input = tool.examples[0]?.input ?? {};
    const reference = runV100(input as V100Input);
    const answer = asV100({ ok: tool.run(input as never) }, { ok: reference });
    assert.equal(JSON.stringify(answer), JSON.stringify({ ok: reference }));
  });

  it("sending the new fields at their neutral values changes nothing", () => {
    fc.assert(
      fc.property(v100Request, (request) => {
        const input = convertNumericStrings(request) as V100Input;
        const neutral = {
          ...input,
          method: "rankine",
          wallFriction: 0,
          wallInclination: 0,
          cohesion: 0,
          waterDepth: Number.isFinite(input.height) ? input.height : undefined,
          seismicKh: 0,
          seismicKv: 0,
        };
        if (neutral.waterDepth === undefined) delete neutral.waterDepth;
        assert.deepEqual(
          answerOf(() => tool.run(neutral as never)),
          answerOf(() => tool.run(input as never)),
        );
      }),
      { numRuns: 500 },
    );
  });
});
