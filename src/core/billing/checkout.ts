/**
 * `POST /v1/billing/checkout`: a hosted checkout page for one pack, paid to the operator's payment
 * provider. The session carries the account and the credits back in its events (client reference
 * and metadata), so the grant needs nothing stored here in between.
 */
import { PaymentProviderError } from "../../ports/payments.ts";
import type { JsonSchema } from "../../tools/tool.ts";
import { parser } from "../admin/input.ts";
import { ApiError } from "../kernel/errors.ts";
import { type Billing, packOf, type ReturnPage } from "./packs.ts";

/** The metadata a session carries: the events are read by these names (events.ts). */
export const METADATA = {
  account: "toolrun_account",
  pack: "toolrun_pack",
  credits: "toolrun_credits",
} as const;

export const checkoutBodySchema: JsonSchema = {
  type: "object",
  required: ["pack"],
  additionalProperties: false,
  properties: {
    pack: {
      type: "string",
      minLength: 1,
      maxLength: 64,
      description: "The id of one of the operator's packs.",
    },
  },
};

export const checkoutAnswerSchema: JsonSchema = {
  type: "object",
  required: ["url"],
  additionalProperties: false,
  properties: {
    url: {
      type: "string",
      format: "uri",
      description: "The provider's checkout page: send the buyer there.",
    },
  },
};

const checkBody = parser(checkoutBodySchema, "checkout request");

/** The pack id of a checkout request's body; a 400 naming the field otherwise. */
export function parseCheckout(body: unknown): string {
  return checkBody(body).pack as string;
}

/**
 * Creates the provider's checkout of `packId` for the account; success and cancel return to
 * `returnTo` on the public URL with `?checkout=success` or `?checkout=cancelled`, which the page
 * shows a message for. 502 when the provider refuses or cannot be reached.
 */
export async function startCheckout(
  billing: Billing,
  publicUrl: string,
  accountId: string,
  packId: string,
  returnTo: ReturnPage,
): Promise<{ url: string }> {
  const pack = packOf(billing, packId);
  const back = (outcome: string) => `${publicUrl}${returnTo}?checkout=${outcome}`;
  try {
    const session = await billing.payments.createCheckout({
      price: pack.price,
      accountId,
      metadata: {
        [METADATA.account]: accountId,
        [METADATA.pack]: pack.id,
        [METADATA.credits]: String(pack.credits),
      },
      successUrl: back("success"),
      cancelUrl: back("cancelled"),
    });
    return { url: session.url };
  } catch (error) {
    if (error instanceof PaymentProviderError)
      throw new ApiError(
        "payment_provider_unavailable",
        "The payment provider did not create the checkout; try again.",
        {
          cause: error,
        },
      );
    throw error;
  }
}
