/**
 * Shared by the retaining-wall calculator's tests: the pipeline's own validators for the published
 * schemas, so the tests check exactly what a request meets.
 */
import { compileInputValidator, compileOutputValidator } from "../../../src/core/kernel/validation.ts";
import type { WallParameters } from "../../../src/tools/retaining-wall-pressure-calculator/compute.ts";
import {
  inputSchema,
  outputSchema,
  type RetainingWallInput,
} from "../../../src/tools/retaining-wall-pressure-calculator/schema.ts";

const validateRequest = compileInputValidator(inputSchema);

/** The `fields` of the 400 the pipeline would answer, or `{}` when the body is valid. */
export function inputErrors(body: Record<string, unknown>): Record<string, string> | string {
  const result = validateRequest(body);
  return result.ok ? {} : result.fields;
}

/** The body as `run` receives it (numeric strings turned into numbers); throws when invalid. */
export function convertNumericStrings(body: Record<string, unknown>): Record<string, unknown> {
  const result = validateRequest(body);
  if (!result.ok) throw new Error(`invalid request: ${JSON.stringify(result.fields)}`);
  return result.value;
}

/** Ajv's messages for an output that fails the output schema, or "" when it passes. */
export const outputSchemaErrors = compileOutputValidator(outputSchema);

/** A wall's parameters as the compute takes them, every input at its default unless overridden. */
export const wall = (overrides: Partial<WallParameters>): WallParameters => ({
  state: "active",
  method: "rankine",
  height: 5,
  unitWeight: 18,
  frictionAngle: 30,
  backfillSlope: 0,
  surcharge: 0,
  wallFriction: 0,
  wallInclination: 0,
  cohesion: 0,
  ...overrides,
});

/** The wall every combination rule below is broken on: H 5 m, γ 18 kN/m³, φ 30°, nothing else. */
export const plainWall = {
  height: 5,
  unitWeight: 18,
  frictionAngle: 30,
} as const satisfies RetainingWallInput;

/**
 * Each combination rule of the doc's "Which inputs combine", broken by one change to `plainWall`:
 * the case's name, the change, and the `fields` of the 400 it answers. The unit test checks them
 * against `checkInput` and `run`, the HTTP test over the wire, so a rule is written down once.
 */
export const misplacedFieldCases: readonly (readonly [
  name: string,
  change: Partial<RetainingWallInput>,
  fields: Readonly<Record<string, string>>,
])[] = [
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
  ["seismic at rest", { state: "atrest", seismicKh: 0.1 }, { seismicKh: "applies only to the active state" }],
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
  ["wall friction under Rankine", { wallFriction: 10 }, { wallFriction: "applies only with method coulomb" }],
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
