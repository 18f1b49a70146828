/**
 * Shared by this tool's tests only: a wall's parameters as the compute takes them, every input at
 * its default (a dry, cohesionless Rankine wall with no earthquake) unless a test says otherwise.
 */
import type { WallParameters } from "./compute.ts";

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
