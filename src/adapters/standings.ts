/**
 * What this process last saw of each account's month: the credits of its allowance it has used, what
 * its grants had left and, per tool, its calls
 * counted against the monthly cap. A ledger consults it to refuse a call before running it only
 * when that is plain: figures that predict a refusal make the ledger read the current values
 * (which decide), they never refuse by themselves, so a stale figure costs one read, never a wrong
 * answer; figures that predict no refusal let the call run without that read, and the ledger's
 * own atomic check at the commit decides as always.
 */
import type { Reservation, Standing } from "../ports/store.ts";
import { refusalOf } from "./admission.ts";

/** Keys remembered at most; past it the memory starts again (it only saves work). */
const REMEMBERED = 10_000;

interface Known {
  creditsUsed: number;
  grantsLeft: number;
  /** Per tool: its calls counted against the monthly cap, where known. */
  readonly activeCalls: Map<string, number>;
}

export interface Standings {
  /** The account's standing this period and, where known, the tool's capped calls. */
  remember(r: Reservation, standing: Standing, activeCalls?: number): void;
  /** Whether what is remembered says the call would be refused (nothing remembered: no). */
  predictsRefusal(r: Reservation): boolean;
}

export function createStandings(): Standings {
  const standings = new Map<string, Known>();
  return {
    remember(r, { creditsUsed, grantsLeft }, activeCalls) {
      const id = `${r.accountId}\n${r.period}`;
      let known = standings.get(id);
      if (!known) {
        if (standings.size >= REMEMBERED) standings.clear();
        known = { creditsUsed, grantsLeft, activeCalls: new Map() };
        standings.set(id, known);
      }
      known.creditsUsed = creditsUsed;
      known.grantsLeft = grantsLeft;
      if (activeCalls !== undefined) known.activeCalls.set(r.tool, activeCalls);
    },
    predictsRefusal(r) {
      const known = standings.get(`${r.accountId}\n${r.period}`);
      return (
        known !== undefined &&
        refusalOf(
          r,
          known.creditsUsed,
          () => known.grantsLeft,
          () => known.activeCalls.get(r.tool) ?? 0,
        ) !== null
      );
    },
  };
}
