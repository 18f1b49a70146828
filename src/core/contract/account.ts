/**
 * The free reads of a key's own account: its credits this month and what it spent them on.
 */
import type { ApiKeyRecord, GrantCategory, KeyAccess } from "../../ports/store.ts";
import type { CoreDeps } from "../call/deps.ts";
import {
  type AccountTerms,
  creditsRemaining,
  grantsLeft,
  monthlyAllowance,
  periodOf,
  planOf,
} from "../kernel/credits.ts";

/** An account's terms with its id: a key (its account's), or an account read by the admin API. */
export type Holder = AccountTerms & Pick<ApiKeyRecord, "accountId" | "accountName">;

import { decodeCursor, encodeCursor } from "./cursor.ts";

export interface CreditsView {
  account_id: string;
  account_name: string;
  plan: string;
  /** The month's allowance alone (grants come on top). */
  monthly_allowance: number | null;
  /** Credits of the month's allowance used. */
  credits_used: number;
  monthly_remaining: number | null;
  /** What the account can spend now: the allowance's rest and its live grants. */
  credits_remaining: number | null;
  /** Live grants with credits left, in spend order. */
  grants: { id: string; remaining: number; expires_at: string | null; category: GrantCategory }[];
  period_start: string;
  period_end: string;
  metering: boolean;
  /**
   * The key asking, and its scope: the tools it may use (null for every tool) and its access.
   * Absent when an operator reads an account, which no key asks for.
   */
  key?: { id: string; tools: string[] | null; access: KeyAccess };
}

export async function getCredits(
  deps: CoreDeps,
  holder: Holder,
  key?: Pick<ApiKeyRecord, "id" | "tools" | "access">,
): Promise<CreditsView> {
  const now = deps.now();
  const period = periodOf(now);
  const plan = planOf(holder, deps.settings);
  const [used, grants] = await Promise.all([
    deps.store.creditsUsed(holder.accountId, period.id),
    deps.store.listGrants(holder.accountId, now.toISOString()),
  ]);
  const allowance = deps.settings.metering ? monthlyAllowance(holder, plan) : null;
  return {
    account_id: holder.accountId,
    account_name: holder.accountName,
    plan: plan.id,
    monthly_allowance: allowance,
    credits_used: used,
    monthly_remaining: allowance === null ? null : creditsRemaining(allowance, used, 0),
    credits_remaining: allowance === null ? null : creditsRemaining(allowance, used, grantsLeft(grants)),
    grants: grants.map((grant) => ({
      id: grant.id,
      remaining: grant.remaining,
      expires_at: grant.expiresAt,
      category: grant.category,
    })),
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    metering: deps.settings.metering,
    ...(key && {
      key: { id: key.id, tools: key.tools === null ? null : [...key.tools], access: key.access },
    }),
  };
}

export interface UsageView {
  period_start: string;
  period_end: string;
  credits_used: number;
  calls: number;
  by_tool: { tool: string; calls: number; credits: number }[];
  recent: {
    request_id: string;
    key_id: string;
    tool: string;
    status: string;
    http_status: number | null;
    credits: number;
    at: string;
  }[];
  next_cursor: string | null;
}

export const USAGE_LIMIT_DEFAULT = 20;
export const USAGE_LIMIT_MAX = 100;

export async function getUsage(
  deps: CoreDeps,
  key: Pick<ApiKeyRecord, "accountId">,
  page: { limit: number; cursor: string | null },
): Promise<UsageView> {
  const period = periodOf(deps.now());
  const report = await deps.store.usage({
    accountId: key.accountId,
    period: period.id,
    limit: page.limit,
    cursor: page.cursor === null ? null : decodeCursor(USAGE_CURSOR, page.cursor),
  });
  return {
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    credits_used: report.creditsUsed,
    calls: report.calls,
    by_tool: report.byTool.map((t) => ({ tool: t.tool, calls: t.calls, credits: t.credits })),
    recent: report.recent.map((c) => ({
      request_id: c.requestId,
      key_id: c.keyId,
      tool: c.tool,
      status: c.status,
      http_status: c.httpStatus,
      credits: c.credits,
      at: c.at,
    })),
    next_cursor: report.nextCursor === null ? null : encodeCursor(USAGE_CURSOR, report.nextCursor),
  };
}

const USAGE_CURSOR = "u1";
