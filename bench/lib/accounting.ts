/**
 * The bench's exactness check: a run of a fixed number of requests (so that every charge made has
 * its response counted), then 200s x cost == the credits the keys' balances say were used == the
 * credits their usage rows add up to, read before and after over GET /v1/me/credits and
 * GET /v1/me/usage (toolrun's endpoints; the peer answers the same two).
 */
import type { LoadResult } from "./load.ts";
import type { Check } from "./report.ts";
import { probe } from "./runs.ts";

/** credits_used summed over `keys` (their request headers), from /v1/me/credits and /v1/me/usage. */
export async function accountOf(
  origin: string,
  keys: readonly Readonly<Record<string, string>>[],
): Promise<{ credits: number; usage: number }> {
  let credits = 0;
  let usage = 0;
  for (const headers of keys) {
    const own = (await probe({ url: `${origin}/v1/me/credits`, method: "GET", headers })) as {
      credits_used: number;
    };
    const used = (await probe({ url: `${origin}/v1/me/usage?limit=1`, method: "GET", headers })) as {
      credits_used: number;
    };
    credits += own.credits_used;
    usage += used.credits_used;
  }
  return { credits, usage };
}

/**
 * The account once it holds still: the run before this one on the same key may have ended with
 * calls in flight (its generator stops mid-request), which the server releases a moment later. A
 * figure read among those releases would count them in the next run's difference.
 */
export async function settledAccountOf(
  origin: string,
  keys: readonly Readonly<Record<string, string>>[],
): Promise<{ credits: number; usage: number }> {
  let last = await accountOf(origin, keys);
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await accountOf(origin, keys);
    if (now.credits === last.credits && now.usage === last.usage) return now;
    last = now;
  }
  return last;
}

export interface AccountingRun {
  readonly amount: number;
  readonly load: LoadResult;
  readonly check: Check;
  readonly details: Record<string, number>;
}

/** The check over a run that `run` makes of exactly `amount` requests, bounded by `hardStopS`. */
export async function checkedAccounting(
  origin: string,
  keys: readonly Readonly<Record<string, string>>[],
  cost: number,
  amount: number,
  run: () => Promise<LoadResult>,
  name = "exact accounting",
): Promise<AccountingRun> {
  const before = await settledAccountOf(origin, keys);
  const load = await run();
  const after = await accountOf(origin, keys);
  const charged = load.ok * cost;
  const credits = after.credits - before.credits;
  const usage = after.usage - before.usage;
  const complete = load.requests === amount;
  return {
    amount,
    load,
    details: { amount, completed: load.requests, ok: load.ok, charged, credits, usage },
    check: {
      name,
      ok: complete && charged === credits && credits === usage,
      detail: `${load.ok} x 200 x ${cost} credit = ${charged}; /v1/me/credits +${credits}; /v1/me/usage +${usage}${complete ? "" : ` (run stopped by its time bound after ${load.requests} of ${amount} requests, so in-flight calls were not counted)`}`,
    },
  };
}
