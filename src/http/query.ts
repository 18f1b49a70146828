/**
 * Query-string readers that name the bad parameter instead of coercing silently.
 */
import { ApiError } from "../core/errors.ts";

export function readLimit(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= max)) {
    throw new ApiError("validation_error", `limit must be a whole number from 1 to ${max}.`, {
      extras: { fields: { limit: `must be an integer from 1 to ${max}` } },
    });
  }
  return value;
}
