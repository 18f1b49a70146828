/**
 * Calls answered 503 because a step of theirs got no answer in time: the step may have committed
 * (its reply lost) or still be on its way (held in a stalled connection), so each is compensated
 * by its call id, now and then again every RETRY_MS until the database answers: refunded when
 * recorded, or marked void so that its recording, arriving later, records nothing
 * (toolrun_refund_unconfirmed). The compensation is idempotent, so retrying, or racing the sweep
 * of abandoned calls, is safe. Only a process that dies before the database answers leaves such a
 * call as it was.
 */

const RETRY_MS = 1_000;

export interface UnconfirmedRefunds {
  /** Refunds the call now, and again until the database answers; resolves after the first try. */
  add(callId: string): Promise<void>;
  /** Call ids still waiting for the database (for tests). */
  pending(): number;
  stop(): void;
}

export function createUnconfirmedRefunds(refund: (callId: string) => Promise<unknown>): UnconfirmedRefunds {
  const waiting = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function attempt(callId: string): Promise<void> {
    try {
      await refund(callId);
      waiting.delete(callId);
    } catch {
      // Still unreachable: the next round tries again.
    }
  }

  function schedule(): void {
    if (timer || stopped || waiting.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void Promise.all([...waiting].map(attempt)).then(schedule);
    }, RETRY_MS);
    timer.unref();
  }

  return {
    add(callId) {
      if (stopped) return Promise.resolve();
      waiting.add(callId);
      return attempt(callId).then(schedule);
    },
    pending: () => waiting.size,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
