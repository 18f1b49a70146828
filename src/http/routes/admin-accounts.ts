/**
 * The admin API's accounts: create, list, read and change them, list their keys, read their usage
 * and give them grants of credits. Declared like the other admin routes (admin.ts), calling the same core
 * functions as the CLI.
 */

import { accountView, listAccountKeyViews, listAccountViews } from "../../core/admin/account-view.ts";
import { createAccount, existingAccount, updateAccount } from "../../core/admin/actions.ts";
import { addAccountGrant, grantView, listAccountGrants } from "../../core/admin/grants.ts";
import {
  accountCreateSchema,
  accountGrantSchema,
  accountUpdateSchema,
  parseAccountCreate,
  parseAccountGrant,
  parseAccountUpdate,
} from "../../core/admin/input.ts";
import {
  ADMIN_LIST_LIMIT_DEFAULT,
  accountIdParameters,
  accountKeysParameters,
  accountListParameters,
  accountListSchema,
  accountSchema,
  accountUsageParameters,
  accountUsageSchema,
  grantListSchema,
  grantOutputSchema,
  keyListSchema,
} from "../../core/admin/schemas.ts";
import type { CoreDeps } from "../../core/call/deps.ts";
import { getCredits, getUsage, USAGE_LIMIT_DEFAULT } from "../../core/contract/account.ts";
import type { HttpRoute } from "../register.ts";
import { adminRoute, withStatus } from "./admin.ts";

type Args = Record<string, unknown>;

const page = (args: Args, fallback: number) => ({
  limit: (args.limit as number | undefined) ?? fallback,
  cursor: (args.cursor as string | undefined) ?? null,
});

export function adminAccountRoutes(deps: CoreDeps): HttpRoute[] {
  const id = (args: Args) => args.id as string;
  return [
    adminRoute({
      method: "POST",
      path: "/accounts",
      operationId: "adminCreateAccount",
      summary: "Create an account",
      description:
        "Creates an account (`acc_...`) with a plan, an optional own monthly allowance and metadata; keys made with its `account_id` then share its balance, its per-minute window and its idempotency keys. Audited as `accounts.create`.",
      body: accountCreateSchema,
      status: 201,
      response: accountSchema,
      errors: [],
      run: async ({ by, body }) =>
        accountView(deps, await createAccount(deps, by, parseAccountCreate(body, deps.settings))),
    }),
    adminRoute({
      method: "GET",
      path: "/accounts",
      operationId: "adminListAccounts",
      summary: "List accounts",
      description:
        "Every account, oldest first, a page at a time, with this month's balance and its count of keys. A key made without an `account_id` has an account of its own, listed here too.",
      parameters: accountListParameters,
      response: accountListSchema,
      errors: [],
      run: async ({ args }) => listAccountViews(deps, page(args, ADMIN_LIST_LIMIT_DEFAULT)),
    }),
    adminRoute({
      method: "GET",
      path: "/accounts/{id}",
      operationId: "adminGetAccount",
      summary: "Get an account",
      description:
        "One account: plan, allowance this month with its grants, credits used and left, and its count of keys.",
      parameters: accountIdParameters,
      response: accountSchema,
      errors: ["account_not_found"],
      run: async ({ args }) => accountView(deps, await existingAccount(deps.store, id(args))),
    }),
    adminRoute({
      method: "PATCH",
      path: "/accounts/{id}",
      operationId: "adminUpdateAccount",
      summary: "Update an account",
      description:
        "Changes the members sent (`name`, `plan`, `monthly_allowance`, `metadata`); every key of the account, on every instance, is priced and limited by the new terms within the key cache's bound. Audited as `accounts.update`.",
      parameters: accountIdParameters,
      body: accountUpdateSchema,
      response: accountSchema,
      errors: ["account_not_found"],
      run: async ({ by, args, body }) =>
        accountView(deps, await updateAccount(deps, by, id(args), parseAccountUpdate(body, deps.settings))),
    }),
    adminRoute({
      method: "GET",
      path: "/accounts/{id}/keys",
      operationId: "adminListAccountKeys",
      summary: "An account's keys",
      description:
        "The account's keys, oldest first, a page at a time (never their secrets), revoked ones included.",
      parameters: accountKeysParameters,
      response: keyListSchema,
      errors: ["account_not_found"],
      run: async ({ args }) => {
        await existingAccount(deps.store, id(args));
        return listAccountKeyViews(deps, id(args), page(args, ADMIN_LIST_LIMIT_DEFAULT));
      },
    }),
    adminRoute({
      method: "GET",
      path: "/accounts/{id}/usage",
      operationId: "adminAccountUsage",
      summary: "An account's usage",
      description:
        "What each of the account's keys reads at `GET /v1/me/credits` and `GET /v1/me/usage` this month: the account's balance, and its calls by whichever key made them (`key_id`).",
      parameters: accountUsageParameters,
      response: accountUsageSchema,
      errors: ["account_not_found"],
      run: async ({ args }) => {
        const record = await existingAccount(deps.store, id(args));
        const holder = { ...record, accountId: record.id, accountName: record.name };
        return {
          account_id: record.id,
          credits: await getCredits(deps, holder),
          usage: await getUsage(deps, holder, page(args, USAGE_LIMIT_DEFAULT)),
        };
      },
    }),
    adminRoute({
      method: "POST",
      path: "/accounts/{id}/grants",
      operationId: "adminGrantAccountCredits",
      summary: "Grant an account credits",
      description:
        "Gives the account a grant of credits, shared by its keys: spent after the month's allowance, grants by earliest `expires_at` first (never-expiring last), then oldest; what is left of it is gone at `expires_at`. `category` is `promotional` unless said `paid`. The same `reference` again on the account answers 200 with the grant it made, granting nothing. Audited as `credits.grant` on the account; sends the `credits.granted` webhook event.",
      parameters: accountIdParameters,
      body: accountGrantSchema,
      status: 201,
      also: { status: 200, description: "The account's grant of that `reference`, made earlier" },
      response: grantOutputSchema,
      errors: ["account_not_found"],
      run: async ({ by, args, body }) => {
        const { reason, ...order } = parseAccountGrant(body, deps.now());
        const made = await addAccountGrant(deps, by, id(args), order, reason === null ? {} : { reason });
        return made.created ? grantView(made.grant) : withStatus(200, grantView(made.grant));
      },
    }),
    adminRoute({
      method: "GET",
      path: "/accounts/{id}/grants",
      operationId: "adminListAccountGrants",
      summary: "An account's grants",
      description:
        "The account's live grants with credits left, in the order calls spend them; expired and spent ones are not shown.",
      parameters: accountIdParameters,
      response: grantListSchema,
      errors: ["account_not_found"],
      run: async ({ args }) => ({ grants: (await listAccountGrants(deps, id(args))).map(grantView) }),
    }),
  ];
}
