/**
 * What this process last saw of each account's month: the credits it has used and, per tool, its calls
 * counted against the monthly cap. A ledger consults it to refuse a call before running it only
 * when that is plain: figures that predict a refusal make the ledger read the current values
 * (which decide), they never refuse by themselves, so a stale figure costs one read, never a wrong
 * answer; figures that predict no refusal let the call run without that read, and the ledger's
 * own atomic check at the commit decides as always.
 */
import type { Reservation } from "../ports/store.ts";
import { refusalOf } from "./admission.ts";

/** Keys remembered at most; past it the memory starts again (it only saves work). */
const REMEMBERED = 10_000;

interface Standing {
  creditsUsed: number;
  /** Per tool: its calls counted against the monthly cap, where known. */
  readonly activeCalls: Map<string, number>;
}

export interface Standings {
  /** The account's credits used this period and, where known, the tool's capped calls. */
  remember(r: Reservation, creditsUsed: number, activeCalls?: number): void;
  /** Whether what is remembered says the call would be refused (nothing remembered: no). */
  predictsRefusal(r: Reservation): boolean;
}

export function createStandings(): Standings {
  const standings = new Map<string, Standing>();
  return {
    remember(r, creditsUsed, activeCalls) {
      const id = `${r.accountId}\n${r.period}`;
      let known = standings.get(id);
      if (!known) {
        if (standings.size >= REMEMBERED) standings.clear();
        known = { creditsUsed, activeCalls: new Map() };
        standings.set(id, known);
      }
      known.creditsUsed = creditsUsed;
      if (activeCalls !== undefined) known.activeCalls.set(r.tool, activeCalls);
    },
    predictsRefusal(r) {
      const known = standings.get(`${r.accountId}\n${r.period}`);
      return (
        known !== undefined &&
        refusalOf(r, known.creditsUsed, () => known.activeCalls.get(r.tool) ?? 0) !== null
      );
    },
  };
}
