/**
 * The admin API's accounts: create, list, read and change them, list their keys, read their usage
 * and grant them credits. Declared like the other admin routes (admin.ts), calling the same core
 * functions as the CLI.
 */

import { accountView, listAccountKeyViews, listAccountViews } from "../../core/admin/account-view.ts";
import {
  createAccount,
  existingAccount,
  grantAccountCredits,
  updateAccount,
} from "../../core/admin/actions.ts";
import {
  accountCreateSchema,
  accountUpdateSchema,
  grantSchema,
  parseAccountCreate,
  parseAccountUpdate,
  parseGrant,
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
  keyListSchema,
} from "../../core/admin/schemas.ts";
import type { CoreDeps } from "../../core/call/deps.ts";
import { getCredits, getUsage, USAGE_LIMIT_DEFAULT } from "../../core/contract/account.ts";
import type { HttpRoute } from "../register.ts";
import { adminRoute } from "./admin.ts";

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
        "Adds credits to the account's allowance for the current calendar month (UTC), shared by its keys; they lapse when it ends. Audited as `credits.grant` on the account.",
      parameters: accountIdParameters,
      body: grantSchema,
      response: accountSchema,
      errors: ["account_not_found"],
      run: async ({ by, args, body }) =>
        accountView(deps, await grantAccountCredits(deps, by, id(args), parseGrant(body))),
    }),
  ];
}
