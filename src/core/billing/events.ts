/**
 * `POST /v1/billing/stripe/webhook`: which of the provider's events grant what, and the grant.
 * A paid checkout grants its pack's credits to its account as a paid grant whose reference is the
 * session id, so however many times and to however many instances the event is delivered (and
 * whichever of `completed` and `async_payment_succeeded` comes), the session grants once.
 */
import { type PaymentEvent, PaymentSignatureError } from "../../ports/payments.ts";
import type { AdminDeps } from "../admin/actions.ts";
import type { ActedBy } from "../admin/audit.ts";
import { addAccountGrant } from "../admin/grants.ts";
import { ApiError } from "../kernel/errors.ts";
import { METADATA } from "./checkout.ts";
import type { Billing } from "./packs.ts";

/** What a paid session is owed: its pack's credits to its account, once per session. */
export interface OwedGrant {
  readonly accountId: string;
  readonly credits: number;
  /** The session id: the grant's reference. */
  readonly sessionId: string;
  readonly packId: string | null;
}

/** The grant an event asks for, or why it asks for none. */
export type EventDecision = { readonly grant: OwedGrant } | { readonly ignored: string };

const PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);

export function decide(event: PaymentEvent): EventDecision {
  const { session } = event;
  if (!PAID_EVENTS.has(event.type) || session === null) return { ignored: `${event.type} grants nothing` };
  // A completed session paid by a delayed method (a bank debit) is `unpaid` until its
  // async_payment_succeeded event, which is the one that grants it then.
  if (event.type === "checkout.session.completed" && session.paymentStatus !== "paid")
    return { ignored: `the session is ${session.paymentStatus}, not paid yet` };
  const accountId = session.metadata[METADATA.account];
  const credits = Number(session.metadata[METADATA.credits]);
  // Another application's checkout on the same Stripe account carries none of ours.
  if (accountId === undefined || !Number.isSafeInteger(credits) || credits <= 0)
    return { ignored: "the session is not a toolrun checkout (no toolrun_account and toolrun_credits)" };
  return {
    grant: { accountId, credits, sessionId: session.id, packId: session.metadata[METADATA.pack] ?? null },
  };
}

export type EventOutcome =
  | { readonly outcome: "granted" | "already_granted"; readonly grant: OwedGrant; readonly grantId: string }
  | { readonly outcome: "unknown_account"; readonly grant: OwedGrant }
  | { readonly outcome: "ignored"; readonly reason: string };

/** The grants made for the provider's events are audited as this actor. */
export function providerActor(requestId: string | null): ActedBy {
  return { actor: { type: "admin_key", id: "stripe" }, requestId };
}

/**
 * Verifies one delivery (400 `payment_signature_invalid` for a missing, wrong or stale signature,
 * nothing granted) and grants what its event asks for. An account that does not exist is an
 * outcome, not an error: the provider would retry an error for days, and no retry can make it.
 */
export async function receivePaymentEvent(
  deps: AdminDeps,
  billing: Billing,
  delivery: { readonly body: Uint8Array; readonly signature: string | undefined; readonly requestId: string },
): Promise<EventOutcome & { readonly eventId: string; readonly eventType: string }> {
  let event: PaymentEvent;
  try {
    event = billing.payments.verifyEvent(delivery.body, delivery.signature, deps.now());
  } catch (error) {
    if (error instanceof PaymentSignatureError)
      throw new ApiError(
        "payment_signature_invalid",
        `The Stripe-Signature does not verify: ${error.message}`,
      );
    throw error;
  }
  const seen = { eventId: event.id, eventType: event.type };
  const decision = decide(event);
  if ("ignored" in decision) return { outcome: "ignored", reason: decision.ignored, ...seen };
  const { grant } = decision;
  try {
    const made = await addAccountGrant(deps, providerActor(delivery.requestId), grant.accountId, {
      credits: grant.credits,
      expiresAt: null,
      category: "paid",
      reference: grant.sessionId,
    });
    return { outcome: made.created ? "granted" : "already_granted", grant, grantId: made.grant.id, ...seen };
  } catch (error) {
    if (error instanceof ApiError && error.code === "account_not_found")
      return { outcome: "unknown_account", grant, ...seen };
    throw error;
  }
}
