/**
 * Which inputs combine: the rules between fields that the input schema cannot state. A field counts
 * as used when it changes the answer (a cohesion above 0, a water table above the base, a kh above
 * 0...), so sending a field at its neutral value is never refused. Each field used outside its case
 * is named with the first reason that applies, worded like the schema's own messages.
 */
import type { RetainingWallInput } from "./schema.ts";

type Reason = readonly [applies: boolean, reason: string];

/** The first reason that applies, if any. */
const firstOf = (...reasons: readonly Reason[]): string | undefined =>
  reasons.find(([applies]) => applies)?.[1];

export function fieldsOutsideTheirCase(input: RetainingWallInput): Record<string, string> {
  const state = input.state ?? "active";
  const coulomb = input.method === "coulomb";
  const sloped = (input.backfillSlope ?? 0) > 0;
  const cohesive = (input.cohesion ?? 0) > 0;
  const wet = input.waterDepth !== undefined && input.waterDepth < input.height;
  const kh = input.seismicKh ?? 0;

  const reasons: Record<string, string | undefined> = {
    cohesion: cohesive
      ? firstOf(
          [coulomb, "applies only with method rankine"],
          [sloped, "applies only with a level backfill (backfillSlope 0)"],
        )
      : undefined,
    waterDepth: wet
      ? firstOf(
          [
            sloped,
            "applies only with a level backfill (backfillSlope 0) when the water table is above the base",
          ],
          [
            (input.wallInclination ?? 0) !== 0,
            "applies only with a vertical wall back (wallInclination 0) when the water table is above the base",
          ],
        )
      : undefined,
    seismicKh:
      kh > 0
        ? firstOf(
            [state !== "active", "applies only to the active state"],
            [wet, "cannot be combined with a water table above the base"],
            [cohesive, "cannot be combined with cohesion"],
            [(input.surcharge ?? 0) > 0, "cannot be combined with a surcharge"],
          )
        : undefined,
    seismicKv: (input.seismicKv ?? 0) !== 0 && kh === 0 ? "needs a seismicKh greater than 0" : undefined,
    wallFriction:
      (input.wallFriction ?? 0) > 0
        ? firstOf(
            [!coulomb, "applies only with method coulomb"],
            [state === "atrest", "does not apply at rest"],
            [
              (input.wallFriction ?? 0) > input.frictionAngle,
              `must be at most the friction angle (${input.frictionAngle})`,
            ],
          )
        : undefined,
    wallInclination:
      (input.wallInclination ?? 0) !== 0
        ? firstOf(
            [!coulomb, "applies only with method coulomb"],
            [state === "atrest", "does not apply at rest"],
          )
        : undefined,
  };
  return Object.fromEntries(
    Object.entries(reasons).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * Thrown by `run` when it is called directly with fields outside their case: the service never
 * does (it answers 400 from `checkInput` first), so a direct caller gets the same refusal by name,
 * never a silent answer.
 */
export class MisplacedFieldsError extends Error {
  override readonly name = "MisplacedFieldsError";
  readonly fields: Readonly<Record<string, string>>;
  constructor(fields: Readonly<Record<string, string>>) {
    super(
      Object.entries(fields)
        .map(([field, reason]) => `${field} ${reason}`)
        .join("; "),
    );
    this.fields = fields;
  }
}
