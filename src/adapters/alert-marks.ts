/**
 * What this process knows is already marked of each account's month (`credits.depleted`): every
 * refusal after the first costs then no write and no read. A mark forgotten (past the limit, or
 * another instance's) costs one insert that finds it, never a second event.
 */

/** Marks remembered at most; past it the memory starts again (it only saves work). */
const REMEMBERED = 10_000;

export interface KnownMarks {
  has(accountId: string, period: string): boolean;
  add(accountId: string, period: string): void;
}

export function createKnownMarks(): KnownMarks {
  const known = new Set<string>();
  return {
    has: (accountId, period) => known.has(`${accountId}\n${period}`),
    add(accountId, period) {
      if (known.size >= REMEMBERED) known.clear();
      known.add(`${accountId}\n${period}`);
    },
  };
}

/** The settings row's text of the thresholds, the same on both stores (compared to skip a rewrite). */
export function alertsText(alerts: {
  readonly usedPercent: readonly number[];
  readonly remainingBelow: readonly number[];
}): string {
  return JSON.stringify({ usedPercent: alerts.usedPercent, remainingBelow: alerts.remainingBelow });
}
