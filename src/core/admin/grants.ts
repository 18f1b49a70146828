/**
 * PROVISIONAL until the grants branch lands: the integrator replaces this file with the real one
 * (durable grants in `credit_grants`, the reference unique per account in the store).
 *
 * Meanwhile a grant is today's month-long grant (grantAccountCredits's store call), and a
 * reference already granted is found in the account's audit log, where the grant's entry keeps
 * it. Within one process, grants of one reference take turns, so a replay there is seen; two
 * instances granting the same reference at the same moment may both grant (the real store's
 * unique reference is what closes that).
 */
import { periodOf } from "../kernel/credits.ts";
import { ApiError } from "../kernel/errors.ts";
import { randomBase62 } from "../kernel/key-format.ts";
import { type AdminDeps, existingAccount } from "./actions.ts";
import { type ActedBy, auditEntry } from "./audit.ts";

export type GrantCategory = "paid" | "promotional";

export interface GrantRecord {
  readonly id: string;
  readonly accountId: string;
  readonly credits: number;
  readonly remaining: number;
  readonly expiresAt: string | null;
  readonly category: GrantCategory;
  readonly reference: string | null;
  readonly createdAt: string;
}

export interface GrantAdd {
  readonly credits: number;
  readonly expiresAt: string | null;
  readonly category: GrantCategory;
  readonly reference: string | null;
}

const GRANT_ACTION = "credits.grant";
/** The grants of one reference being made in this process, so a second waits for the first. */
const inFlight = new Map<string, Promise<unknown>>();

export async function addAccountGrant(
  deps: AdminDeps,
  by: ActedBy,
  accountId: string,
  input: GrantAdd,
): Promise<{ grant: GrantRecord; created: boolean }> {
  if (input.reference === null) return grantOnce(deps, by, accountId, input);
  const turn = `${accountId}\n${input.reference}`;
  const before = inFlight.get(turn) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(() => grantOnce(deps, by, accountId, input));
  inFlight.set(turn, mine);
  try {
    return await mine;
  } finally {
    if (inFlight.get(turn) === mine) inFlight.delete(turn);
  }
}

async function grantOnce(
  deps: AdminDeps,
  by: ActedBy,
  accountId: string,
  input: GrantAdd,
): Promise<{ grant: GrantRecord; created: boolean }> {
  const account = await existingAccount(deps.store, accountId);
  if (input.reference !== null) {
    const earlier = await grantedEntry(deps, account.id, input.reference);
    if (earlier !== null) return { grant: earlier, created: false };
  }
  const now = deps.now();
  const period = periodOf(now);
  const grant: GrantRecord = {
    id: `grt_${randomBase62(16)}`,
    accountId: account.id,
    credits: input.credits,
    remaining: input.credits,
    expiresAt: input.expiresAt,
    category: input.category,
    reference: input.reference,
    createdAt: now.toISOString(),
  };
  const entry = auditEntry(by, now, GRANT_ACTION, account.id, {
    credits: input.credits,
    period: period.id,
    grant_id: grant.id,
    category: input.category,
    ...(input.reference === null ? {} : { reference: input.reference }),
  });
  if (!(await deps.store.grantAccountCredits(account.id, period.id, input.credits, entry)))
    throw new ApiError(
      "validation_error",
      "The grant would take this month's grants past the most an account may hold.",
      {
        extras: { fields: { credits: "too many credits granted this month" } },
      },
    );
  return { grant, created: true };
}

/** The grant an earlier audit entry of the account recorded with this reference, or null. */
async function grantedEntry(
  deps: AdminDeps,
  accountId: string,
  reference: string,
): Promise<GrantRecord | null> {
  let cursor: string | null = null;
  do {
    const page = await deps.store.listAudit({ limit: 100, cursor, target: accountId });
    for (const entry of page.entries) {
      const details = entry.details as Record<string, unknown>;
      if (entry.action !== GRANT_ACTION || details.reference !== reference) continue;
      const credits = Number(details.credits);
      return {
        id: String(details.grant_id),
        accountId,
        credits,
        remaining: credits,
        expiresAt: null,
        category: details.category === "paid" ? "paid" : "promotional",
        reference,
        createdAt: entry.at,
      };
    }
    cursor = page.nextCursor;
  } while (cursor !== null);
  return null;
}
