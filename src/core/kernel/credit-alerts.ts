/**
 * Credit alerts (decisions section 21): the thresholds of `credits.threshold`, read the same way
 * from the configuration and from the admin API, and the `credits.depleted` event. The stores fire
 * the thresholds themselves (migration 0012); the event a refusal causes is made here.
 */
import type { AccountAlerts, CreditAlertSettings, CreditAlerts } from "../../ports/store.ts";
import { MAX_ALLOWANCE } from "../../ports/store.ts";
import type { NewWebhookEvent } from "../../ports/webhook-store.ts";
import { findPlan } from "./credits.ts";
import { FREE_PLAN_ID, type ServiceSettings } from "./settings.ts";

export const DEFAULT_CREDIT_ALERTS: CreditAlerts = { usedPercent: [80, 100], remainingBelow: [] };

/** Thresholds one list may hold, at most. */
export const MAX_THRESHOLDS = 20;

const LIMITS = {
  usedPercent: { min: 1, max: 100 },
  remainingBelow: { min: 0, max: MAX_ALLOWANCE },
} as const;

const MEMBERS = Object.keys(LIMITS) as (keyof CreditAlerts)[];

/** The thresholds as JSON Schema (the admin API's `alerts`); readAlerts checks the same. */
export const ALERTS_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    usedPercent: {
      type: "array",
      maxItems: MAX_THRESHOLDS,
      items: { type: "integer", minimum: LIMITS.usedPercent.min, maximum: LIMITS.usedPercent.max },
      description:
        "Percentages of the month's allowance used (grants included) at which `credits.threshold` is sent, once each per month.",
    },
    remainingBelow: {
      type: "array",
      maxItems: MAX_THRESHOLDS,
      items: { type: "integer", minimum: LIMITS.remainingBelow.min, maximum: LIMITS.remainingBelow.max },
      description: "Spendable credits at or below which `credits.threshold` is sent, once each per month.",
    },
  },
} as const;

/**
 * `raw` as thresholds (each list sorted, without repeats), or the problems, each naming its field
 * under `where` (`alerts.usedPercent must be ...`). Members left out stay out.
 */
export function readAlerts(raw: unknown, where: string): { alerts: AccountAlerts } | { problems: string[] } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return { problems: [`${where} must be an object {usedPercent, remainingBelow}`] };
  const problems: string[] = [];
  const alerts: { -readonly [K in keyof CreditAlerts]?: number[] } = {};
  for (const key of Object.keys(raw)) {
    if (!(MEMBERS as string[]).includes(key))
      problems.push(`${where}: unknown member "${key}" (expected ${MEMBERS.join(", ")})`);
  }
  for (const member of MEMBERS) {
    const list = (raw as Record<string, unknown>)[member];
    if (list === undefined) continue;
    const { min, max } = LIMITS[member];
    if (
      !Array.isArray(list) ||
      list.length > MAX_THRESHOLDS ||
      !list.every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= min && n <= max)
    ) {
      problems.push(
        `${where}.${member} must be a list of at most ${MAX_THRESHOLDS} integers from ${min} to ${max}`,
      );
      continue;
    }
    alerts[member] = [...new Set(list as number[])].sort((a, b) => a - b);
  }
  return problems.length > 0 ? { problems } : { alerts };
}

/** What a refusal for want of credits tells: the account's figures when it was refused. */
export interface Depletion {
  readonly accountId: string;
  readonly period: string;
  readonly used: number;
  readonly allowance: number;
  /** What the refused call would have cost. */
  readonly credits: number;
  readonly tool: string;
}

/**
 * The `credits.depleted` event of the account's month. Its id is the fact's (account and period),
 * as the stores' `credits.threshold` ids are, so no replay makes a second event.
 */
export function depletedEvent(depletion: Depletion, now: Date): NewWebhookEvent {
  const { accountId, period, used, allowance, credits, tool } = depletion;
  return {
    id: `evt_dep_${accountId}_${period}`,
    type: "credits.depleted",
    createdAt: now.toISOString(),
    data: JSON.stringify({
      account_id: accountId,
      period,
      used,
      allowance,
      remaining: Math.max(0, allowance - used),
      credits,
      tool,
    }),
  };
}

/** What the store needs of the configuration to fire the thresholds (configureCreditAlerts). */
export function creditAlertSettings(settings: ServiceSettings): CreditAlertSettings {
  const fallback = findPlan(settings, FREE_PLAN_ID) ?? Object.values(settings.plans)[0];
  return {
    alerts: settings.alerts,
    metering: settings.metering,
    planAllowances: Object.fromEntries(Object.values(settings.plans).map((p) => [p.id, p.monthlyCredits])),
    fallbackAllowance: fallback?.monthlyCredits ?? null,
  };
}
