/**
 * The capture of a call whose tool acted outside the service (runReservedCall): its effect
 * happened, so its charge is tried again until it commits, whatever held it up (a stalled or
 * locked database, an answer lost on the way back, the event loop blocked past the statement's
 * timeout). Each attempt is idempotent by the call's id, so a capture that did commit unconfirmed
 * is found charged by the next one, never charged twice. Only a store that is closing stops it.
 * Shared by both stores' ledgers.
 */
import { BackendUnavailableError } from "../ports/errors.ts";

const FIRST_WAIT_MS = 50;
const MAX_WAIT_MS = 1_000;
/** Attempts at most for a failure that is not the backend's unavailability (a deadlock, a bug). */
const MAX_OTHER_FAILURES = 3;

/** `attempt`'s answer once it gives one; it rejects only when `stopped()` or on repeated non-outage failures. */
export async function untilCaptured<T>(attempt: () => Promise<T>, stopped: () => boolean): Promise<T> {
  let wait = FIRST_WAIT_MS;
  let others = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof BackendUnavailableError) && ++others >= MAX_OTHER_FAILURES) throw error;
      if (stopped()) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    }
  }
}
