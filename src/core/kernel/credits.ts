/**
 * Pricing and the monthly period: what a call costs a key, what the key may spend, and which
 * calendar month (UTC) a moment belongs to.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import { FREE_PLAN_ID, type Plan, type ServiceSettings } from "./settings.ts";

/** What prices a call and sets a balance: an account's plan, own allowance and grant (a key carries its account's). */
export type AccountTerms = Pick<
  ApiKeyRecord,
  "plan" | "monthlyAllowance" | "grantedCredits" | "grantedPeriod"
>;

export interface Period {
  /** `YYYY-MM` */
  readonly id: string;
  readonly start: Date;
  readonly end: Date;
}

/** The period asked for last: every call of a month asks for the same one (1.7 % of a call's CPU). */
let latest: Period | undefined;

export function periodOf(now: Date): Period {
  const at = now.getTime();
  if (latest && at >= latest.start.getTime() && at < latest.end.getTime()) return latest;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const period: Period = { id: start.toISOString().slice(0, 7), start, end };
  latest = period;
  return period;
}

/**
 * The configured plan named `id`. Own members only: a name like `constructor` or `__proto__` is
 * no plan, whatever Object.prototype holds.
 */
export function findPlan(settings: Pick<ServiceSettings, "plans">, id: string): Plan | undefined {
  return Object.hasOwn(settings.plans, id) ? settings.plans[id] : undefined;
}

/** A key whose plan was removed from the configuration falls back to the most restrictive one. */
export function planOf(key: AccountTerms, settings: ServiceSettings): Plan {
  const plan = findPlan(settings, key.plan);
  if (plan) return plan;
  const fallback = findPlan(settings, FREE_PLAN_ID) ?? Object.values(settings.plans)[0];
  if (!fallback) throw new Error("No plans are configured");
  return fallback;
}

export function callCost(toolWeight: number, plan: Plan, settings: ServiceSettings): number {
  return settings.metering ? Math.max(toolWeight, plan.minCredits) : 0;
}

/** The key's own allowance or its plan's, before any grant. */
export function baseAllowance(key: AccountTerms, plan: Plan): number {
  return key.monthlyAllowance ?? plan.monthlyCredits;
}

/** Credits granted to the key for `period`; a grant of an earlier period has lapsed. */
export function grantedIn(key: AccountTerms, period: Period): number {
  return key.grantedPeriod === period.id ? key.grantedCredits : 0;
}

/**
 * What the key may spend in `period`: its base allowance raised by that period's grants. A grant
 * only ever raises it, so a call priced against a key read just before a grant is at worst refused
 * when it would now be admitted, never admitted past the allowance.
 */
export function monthlyAllowance(key: AccountTerms, plan: Plan, period: Period): number {
  return baseAllowance(key, plan) + grantedIn(key, period);
}
