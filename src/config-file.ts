/**
 * The JSON file `TOOLRUN_CONFIG` names: plans and per-tool settings, checked member by member with
 * a problem line for each mistake (`TOOLRUN_CONFIG: plans.free.rpm must be ...`); `httpTools` and
 * `tools.<slug>.secrets` are passed on unchecked, for the tool loader to check with their tools.
 */
import { readFileSync } from "node:fs";
import type { Pack } from "./core/billing/packs.ts";
import { DEFAULT_CREDIT_ALERTS, readAlerts } from "./core/kernel/credit-alerts.ts";
import {
  DEFAULT_MAX_CONCURRENT_JOBS,
  DEFAULT_PLANS,
  type Plan,
  type ToolSettings,
} from "./core/kernel/settings.ts";
import { MAX_COUNT } from "./core/tools/check-definition.ts";
import { type CreditAlerts, MAX_ALLOWANCE, MAX_GRANTED_CREDITS } from "./ports/store.ts";

const PLAN_FIELDS = ["rpm", "monthlyCredits", "minCredits", "maxConcurrentJobs", "label"] as const;
const TOOL_FIELDS = ["weight", "maxBodyBytes", "enabled", "api", "freeTierMonthlyCalls", "secrets"] as const;
const FILE_MEMBERS = ["plans", "tools", "httpTools", "billing", "alerts"];
const PACK_FIELDS = ["id", "name", "credits", "price"];

export interface FileSettings {
  plans: Record<string, Plan>;
  tools: Record<string, ToolSettings>;
  /** `tools.<slug>.secrets`, unchecked. */
  secrets: Record<string, unknown>;
  /** `httpTools`, unchecked. */
  httpTools?: unknown;
  /** `billing.packs`: what Stripe Checkout sells (none: nothing). */
  packs: Pack[];
  /** The thresholds of `credits.threshold`; a member left out keeps its default. */
  alerts: CreditAlerts;
}

export function readConfigFile(path: string | undefined, problems: string[]): FileSettings {
  const settings: FileSettings = {
    plans: { ...DEFAULT_PLANS },
    tools: {},
    secrets: {},
    packs: [],
    alerts: DEFAULT_CREDIT_ALERTS,
  };
  if (path === undefined) return settings;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    problems.push(
      `TOOLRUN_CONFIG: cannot read ${path} as JSON (${error instanceof Error ? error.message : error})`,
    );
    return settings;
  }
  if (!isObject(parsed)) {
    problems.push(`TOOLRUN_CONFIG: ${path} must hold a JSON object`);
    return settings;
  }
  for (const key of Object.keys(parsed)) {
    if (!FILE_MEMBERS.includes(key))
      problems.push(`TOOLRUN_CONFIG: unknown member "${key}" (expected ${FILE_MEMBERS.join(", ")})`);
  }
  if (parsed.httpTools !== undefined) settings.httpTools = parsed.httpTools;
  if (parsed.alerts !== undefined) {
    const read = readAlerts(parsed.alerts, "TOOLRUN_CONFIG: alerts");
    if ("problems" in read) problems.push(...read.problems);
    else settings.alerts = { ...DEFAULT_CREDIT_ALERTS, ...read.alerts };
  }
  if (parsed.plans !== undefined) {
    if (!isObject(parsed.plans)) problems.push("TOOLRUN_CONFIG: plans must be an object");
    else {
      for (const [id, raw] of Object.entries(parsed.plans)) {
        const plan = readPlan(
          id,
          raw,
          Object.hasOwn(settings.plans, id) ? settings.plans[id] : undefined,
          problems,
        );
        if (plan) settings.plans[id] = plan;
      }
    }
  }
  if (parsed.tools !== undefined) {
    if (!isObject(parsed.tools)) problems.push("TOOLRUN_CONFIG: tools must be an object");
    else {
      for (const [slug, raw] of Object.entries(parsed.tools)) {
        const tool = readTool(slug, raw, problems);
        if (tool) settings.tools[slug] = tool;
        if (isObject(raw) && raw.secrets !== undefined) settings.secrets[slug] = raw.secrets;
      }
    }
  }
  if (parsed.billing !== undefined) settings.packs = readBilling(parsed.billing, problems);
  return settings;
}

function readBilling(raw: unknown, problems: string[]): Pack[] {
  const where = "TOOLRUN_CONFIG: billing";
  if (!isObject(raw)) {
    problems.push(`${where} must be an object`);
    return [];
  }
  for (const key of Object.keys(raw)) {
    if (key !== "packs") problems.push(`${where}: unknown member "${key}" (expected packs)`);
  }
  if (raw.packs === undefined) return [];
  if (!Array.isArray(raw.packs)) {
    problems.push(`${where}.packs must be an array of {id, name, credits, price}`);
    return [];
  }
  const packs: Pack[] = [];
  raw.packs.forEach((entry: unknown, index: number) => {
    const pack = readPack(entry, `${where}.packs[${index}]`, problems);
    if (pack === undefined) return;
    if (packs.some((p) => p.id === pack.id))
      problems.push(`${where}.packs[${index}].id "${pack.id}" is used twice`);
    else packs.push(pack);
  });
  return packs;
}

function readPack(raw: unknown, where: string, problems: string[]): Pack | undefined {
  if (!isObject(raw)) {
    problems.push(`${where} must be an object {id, name, credits, price}`);
    return undefined;
  }
  const count = problems.length;
  for (const key of Object.keys(raw)) {
    if (!PACK_FIELDS.includes(key)) problems.push(`${where}: unknown member "${key}"`);
  }
  const { id, name, price } = raw;
  if (typeof id !== "string" || !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(id))
    problems.push(`${where}.id must be lowercase letters, digits, - and _ (at most 64)`);
  if (typeof name !== "string" || name.trim() === "" || name.length > 100)
    problems.push(`${where}.name must be a text of 1 to 100 characters`);
  if (typeof price !== "string" || !/^[A-Za-z0-9_]{1,255}$/.test(price))
    problems.push(`${where}.price must be a Stripe price id (price_…)`);
  const credits = readCount(raw.credits, `${where}.credits`, 1, problems, MAX_GRANTED_CREDITS);
  if (raw.credits === undefined)
    problems.push(`${where}.credits must be an integer from 1 to ${MAX_GRANTED_CREDITS}`);
  if (problems.length > count || credits === undefined) return undefined;
  return { id: id as string, name: name as string, credits, price: price as string };
}

function readPlan(id: string, raw: unknown, base: Plan | undefined, problems: string[]): Plan | undefined {
  const where = `TOOLRUN_CONFIG: plans.${id}`;
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(id)) {
    problems.push(`${where}: a plan id is lowercase letters, digits, - and _`);
    return undefined;
  }
  if (!isObject(raw)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!(PLAN_FIELDS as readonly string[]).includes(key)) problems.push(`${where}: unknown member "${key}"`);
  }
  const count = problems.length;
  const rpm = readCount(raw.rpm, `${where}.rpm`, 1, problems);
  const monthlyCredits = readCount(raw.monthlyCredits, `${where}.monthlyCredits`, 0, problems, MAX_ALLOWANCE);
  const minCredits = readCount(raw.minCredits, `${where}.minCredits`, 0, problems);
  const maxConcurrentJobs = readCount(
    raw.maxConcurrentJobs,
    `${where}.maxConcurrentJobs`,
    0,
    problems,
    10_000,
  );
  if (raw.label !== undefined && typeof raw.label !== "string")
    problems.push(`${where}.label must be a string`);
  if (base === undefined && (rpm === undefined || monthlyCredits === undefined || minCredits === undefined)) {
    problems.push(`${where}: a new plan needs rpm, monthlyCredits and minCredits`);
  }
  if (problems.length > count || (base === undefined && (rpm ?? monthlyCredits ?? minCredits) === undefined))
    return undefined;
  return {
    id,
    label: typeof raw.label === "string" ? raw.label : (base?.label ?? id),
    rpm: rpm ?? base?.rpm ?? 0,
    monthlyCredits: monthlyCredits ?? base?.monthlyCredits ?? 0,
    minCredits: minCredits ?? base?.minCredits ?? 0,
    maxConcurrentJobs: maxConcurrentJobs ?? base?.maxConcurrentJobs ?? DEFAULT_MAX_CONCURRENT_JOBS,
  };
}

function readTool(slug: string, raw: unknown, problems: string[]): ToolSettings | undefined {
  const where = `TOOLRUN_CONFIG: tools.${slug}`;
  if (!isObject(raw)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!(TOOL_FIELDS as readonly string[]).includes(key)) problems.push(`${where}: unknown member "${key}"`);
  }
  const tool: { -readonly [K in keyof ToolSettings]: ToolSettings[K] } = {};
  const weight = readCount(raw.weight, `${where}.weight`, 0, problems);
  const maxBodyBytes = readCount(raw.maxBodyBytes, `${where}.maxBodyBytes`, 2, problems);
  const cap = readCount(raw.freeTierMonthlyCalls, `${where}.freeTierMonthlyCalls`, 0, problems);
  if (weight !== undefined) tool.weight = weight;
  if (maxBodyBytes !== undefined) tool.maxBodyBytes = maxBodyBytes;
  if (cap !== undefined) tool.freeTierMonthlyCalls = cap;
  for (const flag of ["enabled", "api"] as const) {
    if (raw[flag] === undefined) continue;
    if (typeof raw[flag] !== "boolean") problems.push(`${where}.${flag} must be true or false`);
    else tool[flag] = raw[flag];
  }
  return tool;
}

function readCount(
  raw: unknown,
  where: string,
  min: number,
  problems: string[],
  max = MAX_COUNT,
): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "number" || !Number.isSafeInteger(raw) || raw < min || raw > max) {
    problems.push(`${where} must be an integer from ${min} to ${max}`);
    return undefined;
  }
  return raw;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
