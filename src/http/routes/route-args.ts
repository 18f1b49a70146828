/**
 * What the account's own free reads (captures, jobs) share: their parameters read from the query
 * and the path and checked against the route's parameter schema, and the line their docs end with.
 */
import type { FastifyRequest } from "fastify";
import { ApiError } from "../../core/kernel/errors.ts";
import type { InputValidator } from "../../core/kernel/validation.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { queryArgs } from "../query.ts";

export type Args = Record<string, unknown>;

export const FREE = "Free: costs no credits (it does take a rate-limit slot).";

/** The request's query and path parameters, or 400 `validation_error` naming the fields. */
export function validArgs(check: InputValidator, parameters: JsonSchema, request: FastifyRequest): Args {
  const checked = check({ ...queryArgs(parameters, request.query), ...(request.params as Args) });
  if (!checked.ok)
    throw new ApiError("validation_error", "The parameters are invalid.", {
      extras: { fields: checked.fields },
    });
  return checked.value;
}
