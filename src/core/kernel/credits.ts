/**
 * Pricing and the monthly period: what a call costs a key, what the key may spend, and which
 * calendar month (UTC) a moment belongs to.
 */
import type { ApiKeyRecord } from "../../ports/store.ts";
import { FREE_PLAN_ID, type Plan, type ServiceSettings } from "./settings.ts";

/** What prices a call and sets a balance: an account's plan and own allowance (a key carries its account's). */
export type AccountTerms = Pick<ApiKeyRecord, "plan" | "monthlyAllowance">;

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

/** The month's allowance: the account's own or its plan's (its grants come on top, apart). */
export function monthlyAllowance(key: AccountTerms, plan: Plan): number {
  return key.monthlyAllowance ?? plan.monthlyCredits;
}

/**
 * What the account can spend now, given the credits of its allowance it has used and what its live
 * grants have left: the allowance's rest (none when lowered below what was used), then the grants.
 */
export function creditsRemaining(allowance: number, creditsUsed: number, grantsLeft: number): number {
  return Math.max(0, allowance - creditsUsed) + grantsLeft;
}

/** What the grants have left, together. */
export function grantsLeft(grants: readonly { readonly remaining: number }[]): number {
  return grants.reduce((sum, grant) => sum + grant.remaining, 0);
}
