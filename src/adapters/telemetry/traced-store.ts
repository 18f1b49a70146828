/**
 * The ledger's own spans around a metered call, without the ledger knowing: a reservation (for a
 * tool with effects outside) from the call's start until its work begins, and the settlement, from
 * the end of the work until the charge or refund is committed. The work itself (the tool's run)
 * is the call's span, or the spans the tool starts.
 */
import type { CallOutcome, Store, WorkResult } from "../../ports/store.ts";
import type { Telemetry, TraceSpan } from "../../ports/telemetry.ts";
import { TOOLRUN_OUTCOME } from "../../ports/trace-attributes.ts";

export const SETTLE_SPAN = "toolrun.ledger.settle";
export const RESERVE_SPAN = "toolrun.ledger.reserve";

type Work<T> = () => WorkResult<T> | Promise<WorkResult<T>>;

export function withLedgerSpans<S extends Store>(store: S, telemetry: Telemetry): S {
  return {
    ...store,
    runCall: (reservation, work, answerOf) =>
      traced(telemetry, false, work, (timed) => store.runCall(reservation, timed, answerOf)),
    runReservedCall: (reservation, work, answerOf) =>
      traced(telemetry, true, work, (timed) => store.runReservedCall(reservation, timed, answerOf)),
  };
}

async function traced<T>(
  telemetry: Telemetry,
  reserved: boolean,
  work: Work<T>,
  ledger: (work: Work<T>) => Promise<CallOutcome<T>>,
): Promise<CallOutcome<T>> {
  const reserve = reserved ? telemetry.start(RESERVE_SPAN, { kind: "internal" }) : undefined;
  let settle: TraceSpan | undefined;
  const settling = (result: WorkResult<T>) => {
    settle = telemetry.start(SETTLE_SPAN, { kind: "internal" });
    return result;
  };
  const timed: Work<T> = () => {
    reserve?.end();
    const result = work();
    return result instanceof Promise ? result.then(settling) : settling(result);
  };
  try {
    const outcome = await ledger(timed);
    settle?.set({ [TOOLRUN_OUTCOME]: outcome.status });
    return outcome;
  } catch (error) {
    (settle ?? reserve)?.fail(error instanceof Error ? error.name : "_OTHER");
    throw error;
  } finally {
    // A call the ledger refused before its work ends its reservation here; ending twice is a no-op.
    reserve?.end();
    settle?.end();
  }
}
