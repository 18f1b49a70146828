/**
 * Buying credits: the packs an operator sells (`billing.packs` of the configuration file) and the
 * payment provider they are sold through. Billing is on when both are set up; `null` otherwise.
 */
import type { PaymentProvider } from "../../ports/payments.ts";
import { ApiError } from "../kernel/errors.ts";

/** A pack of credits for sale: `price` is the provider's id of what is charged for it. */
export interface Pack {
  readonly id: string;
  readonly name: string;
  readonly credits: number;
  readonly price: string;
}

export interface Billing {
  readonly packs: readonly Pack[];
  readonly payments: PaymentProvider;
}

/** The pages a checkout returns to: the console's account page, or the member's. */
export type ReturnPage = "/account" | "/member";

/** The answer of both billing routes while billing is off. */
export function billingDisabled(): ApiError {
  return new ApiError(
    "billing_disabled",
    "Buying credits is not set up on this service (TOOLRUN_STRIPE_SECRET_KEY, TOOLRUN_STRIPE_WEBHOOK_SECRET and billing.packs).",
  );
}

/** The pack with this id; a 400 naming the field `pack` (and the packs there are) otherwise. */
export function packOf(billing: Billing, id: string): Pack {
  const pack = billing.packs.find((p) => p.id === id);
  if (pack !== undefined) return pack;
  throw new ApiError("validation_error", "No pack has this id.", {
    extras: { fields: { pack: `must be one of ${billing.packs.map((p) => p.id).join(", ")}` } },
  });
}
