/**
 * Whether the store has its schema. Until it does, every API request answers 503
 * `api_unconfigured`; once it has, the answer is remembered.
 */
import type { Store } from "../../ports/store.ts";
import { ApiError } from "../kernel/errors.ts";

export interface Readiness {
  check(): Promise<void>;
}

export function createReadiness(
  store: Pick<Store, "isMigrated">,
  now: () => number,
  recheckMs = 1000,
): Readiness {
  let ready = false;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<boolean> | null = null;
  return {
    async check() {
      if (ready) return;
      if (inFlight === null && now() - checkedAt >= recheckMs) {
        checkedAt = now();
        // Requests arriving meanwhile wait for this one answer instead of guessing.
        inFlight = store.isMigrated().finally(() => {
          inFlight = null;
        });
        // A check that failed (database unreachable) says nothing about the schema: the next
        // request checks again and gets the real reason, not `api_unconfigured`.
        inFlight.catch(() => {
          checkedAt = Number.NEGATIVE_INFINITY;
        });
      }
      if (inFlight !== null) ready = await inFlight;
      if (!ready) {
        throw new ApiError(
          "api_unconfigured",
          "The database schema is not there yet: the operator must run `toolrun migrate`.",
        );
      }
    },
  };
}
